"""Tests for scripts/evaluation/ablate_rules.py: the variants of a pipeline, the dev-split
scores per source with a tiny NER trained in the test (from `<training>/<lang>` or one NER
for every language), and a clear error for a missing model."""

from __future__ import annotations

from pathlib import Path

import srsly
from typer.testing import CliRunner

from scripts.evaluation import ablate_rules
from scripts.evaluation.ablate_rules import RULES, ablate_language, variants
from scripts.pipelines.assemble import assemble_pipeline
from tests.cli_output import plain_output
from tests.scripts.pipelines.test_package import train_tiny_ner

runner = CliRunner()


def tiny_training(tmp_path: Path, lang: str = "de") -> tuple[Path, Path]:
    """A tiny NER at `<training>/<lang>/model-best` and its documents as train and dev split."""
    training, splits = tmp_path / "training", tmp_path / "splits"
    train_tiny_ner(lang, training / lang / "model-best", splits / lang / "train.spacy")
    (splits / lang / "dev.spacy").write_bytes((splits / lang / "train.spacy").read_bytes())
    return training, splits


def test_variants_switch_off_each_rule_then_all_of_them(tmp_path):
    training, splits = tiny_training(tmp_path)
    nlp = assemble_pipeline(training / "de" / "model-best", "de", [splits / "de" / "train.spacy"])
    found = variants(nlp)
    rules = [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory in RULES]
    assert rules and "ner" not in rules and "deid_anonymizer" not in rules
    assert found["all"] == []
    assert found["ner only"] == rules
    assert [found[f"without {name}"] for name in rules] == [[name] for name in rules]


def test_every_variant_is_scored_on_the_dev_documents(tmp_path):
    training, splits = tiny_training(tmp_path)
    result = ablate_language(training, splits, "de", None)
    switched_off = [name.removeprefix("without ") for name in result if name.startswith("without")]
    assert {"all", "ner only"} < set(result) and switched_off
    assert all(name.startswith("deid_") for name in switched_off)
    letters = result["all"]["letters"]
    assert letters["n_docs"] == 3
    assert letters["strict_micro"]["possible"] == 6  # two entities in each of three texts
    assert 0.0 <= letters["names_caught"] <= 1.0


def test_one_ner_model_serves_every_language(tmp_path):
    training, splits = tiny_training(tmp_path)
    shared = tmp_path / "shared" / "model-best"
    (tmp_path / "shared").mkdir()
    (training / "de" / "model-best").rename(shared)
    result = ablate_language(tmp_path / "no-training", splits, "de", None, ner_model=shared)
    assert result["all"]["letters"]["n_docs"] == 3


def test_a_missing_model_is_a_clear_error_and_writes_nothing(tmp_path):
    output = tmp_path / "ablation.json"
    app = ablate_rules.typer.Typer()
    app.command()(ablate_rules.main)
    result = runner.invoke(app, [str(tmp_path / "training"), str(tmp_path / "splits"),
                                 str(output), "--langs", "de"])
    assert result.exit_code == 1
    assert "no trained pipeline at" in plain_output(result)
    assert not output.exists()


def test_the_output_records_the_device(tmp_path):
    training, splits = tiny_training(tmp_path)
    output = tmp_path / "ablation.json"
    app = ablate_rules.typer.Typer()
    app.command()(ablate_rules.main)
    result = runner.invoke(app, [str(training), str(splits), str(output), "--langs", "de"])
    assert result.exit_code == 0, plain_output(result)
    written = srsly.read_json(output)
    assert written["device"] == "cpu"
    assert written["languages"]["de"]["ner only"]["letters"]["n_docs"] == 3


def test_a_text_case_scores_the_dev_documents_in_that_case(tmp_path):
    training, splits = tiny_training(tmp_path)
    output = tmp_path / "ablation.json"
    app = ablate_rules.typer.Typer()
    app.command()(ablate_rules.main)
    result = runner.invoke(app, [str(training), str(splits), str(output), "--langs", "de",
                                 "--text-case", "lower"])
    assert result.exit_code == 0, plain_output(result)
    written = srsly.read_json(output)
    assert written["text_case"] == "lower"
    assert "without deid_recase" in written["languages"]["de"]
    refused = runner.invoke(app, [str(training), str(splits), str(output), "--langs", "de",
                                  "--text-case", "title"])
    assert refused.exit_code != 0 and "--text-case must be one of" in plain_output(refused)
