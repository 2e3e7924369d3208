"""scripts/pipelines/assemble.py: clear errors before any work is done."""

from pathlib import Path

import spacy
import srsly
import typer
from typer.testing import CliRunner

from scripts.pipelines.assemble import main
from tests.cli_output import plain_output


def run_cli(args: list[str]):
    app = typer.Typer()
    app.command()(main)
    return CliRunner().invoke(app, args)


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de"])
    assert result.exit_code != 0
    assert "no trained pipeline at" in plain_output(result)


def test_a_missing_training_split_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "training" / "de").mkdir(parents=True)
    spacy.blank("de").to_disk(tmp_path / "training" / "de" / "model-best")
    result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de"])
    assert result.exit_code != 0
    assert "no training split at" in plain_output(result)
    assert not (tmp_path / "training" / "de" / "pipeline").exists()


def test_the_multilingual_ner_runs_second_with_its_own_tok2vec(tmp_path: Path) -> None:
    from scripts.pipelines.assemble import assemble_pipeline
    from tests.scripts.pipelines.test_package import train_tiny_ner, train_tiny_pipeline

    train_tiny_pipeline("de", tmp_path / "de" / "pipeline")
    train_tiny_ner("xx", tmp_path / "xx" / "model-best", tmp_path / "xx" / "train.spacy")
    nlp = assemble_pipeline(tmp_path / "de" / "model-best", "de", [tmp_path / "de" / "train.spacy"],
                            multilingual_model=tmp_path / "xx" / "model-best")
    assert nlp.pipe_names[:5] == ["deid_language_check", "ner", "ner_multilingual",
                                  "deid_recase", "deid_date_shapes"]
    nlp.to_disk(tmp_path / "ensemble")
    ensemble = spacy.load(tmp_path / "ensemble")
    # the language's own tokenizer stays, not the multilingual model's
    assert ensemble.config["nlp"]["tokenizer"]["lang"] == "de"
    assert [t.text for t in ensemble.make_doc("z.B. heute")] == ["z.B.", "heute"]
    text = "Frau Erika Busch, geb. 07.07.1950, klagt über Schmerzen."
    doc = ensemble(text)
    assert ("Erika Busch", "NAME_PATIENT") in [(ent.text, ent.label_) for ent in doc.ents]
    assert "Busch" not in doc._.deid_text


def test_the_multilingual_transformer_ner_alone_makes_the_trf_pipelines(
        tmp_path: Path, monkeypatch) -> None:
    from scripts.pipelines.package import encoder_source, transformer_name
    from tests.configs import CONFIGS, train_briefly, write_docbin
    from tests.configs.test_transformer_config import TEXTS, save_tiny_bert

    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "1")
    weights = save_tiny_bert(tmp_path / "encoder", TEXTS)
    (tmp_path / "xx").mkdir()
    model = train_briefly(CONFIGS / "transformer.cfg", tmp_path / "xx", "xx", TEXTS, steps=2,
                          overrides={"paths.transformer_name": str(weights)})
    for lang in ("de", "pl"):
        (tmp_path / "splits" / lang).mkdir(parents=True)
        write_docbin(tmp_path / "splits" / lang / "train.spacy", lang, TEXTS)
    result = run_cli([str(tmp_path / "training_trf"), str(tmp_path / "splits"),
                      "--langs", "de,pl", "--ner-model", str(model), "--suffix", "_trf"])
    assert result.exit_code == 0, plain_output(result)
    for lang in ("de", "pl"):
        nlp = spacy.load(tmp_path / "training_trf" / lang / "pipeline")
        assert nlp.pipe_names[:5] == ["deid_language_check", "transformer", "ner",
                                      "deid_recase", "deid_date_shapes"]
        assert nlp.pipe_names[-2:] == ["deid_presidio_patterns", "deid_anonymizer"]
        assert "ner_multilingual" not in nlp.pipe_names
        assert nlp.meta["name"] == f"deid_{lang}_trf"
        assert nlp.config["nlp"]["tokenizer"]["lang"] == lang
        # the packaging step finds the encoder the transformer was fine-tuned from
        assert transformer_name(nlp.config) == str(weights)
        assert encoder_source(str(weights))["name"] == str(weights)
        assert nlp("Frau Erika Busch kam am 01.02.2020.")._.deid_text
    assert srsly.read_json(tmp_path / "training_trf" / "assembled.json")["pipelines"]["pl"][
        "ner"] == str(model)


def test_a_missing_multilingual_model_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "training" / "de").mkdir(parents=True)
    spacy.blank("de").to_disk(tmp_path / "training" / "de" / "model-best")
    (tmp_path / "splits" / "de").mkdir(parents=True)
    (tmp_path / "splits" / "de" / "train.spacy").write_bytes(b"")
    result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de",
                      "--multilingual-model", str(tmp_path / "xx" / "model-best")])
    assert result.exit_code != 0
    assert "no multilingual pipeline at" in plain_output(result)


def test_the_fingerprint_changes_with_any_file_of_the_pipeline(tmp_path: Path) -> None:
    from scripts.pipelines.assemble import fingerprint

    (tmp_path / "p" / "ner").mkdir(parents=True)
    (tmp_path / "p" / "ner" / "model").write_bytes(b"weights")
    (tmp_path / "p" / "meta.json").write_text("{}")
    before = fingerprint(tmp_path / "p")
    assert fingerprint(tmp_path / "p") == before
    (tmp_path / "p" / "ner" / "model").write_bytes(b"weightz")
    assert fingerprint(tmp_path / "p") != before


def test_the_rules_learn_from_the_training_and_the_dev_letters(tmp_path: Path) -> None:
    from spacy.tokens import DocBin

    from scripts.pipelines.assemble import rule_learning_paths
    from spacy_deid.detect.gold import create_gold_docs

    nlp = spacy.blank("de")
    (tmp_path / "de").mkdir()
    DocBin(docs=[nlp("Frau Albrecht kam.")]).to_disk(tmp_path / "de" / "train.spacy")
    assert rule_learning_paths(tmp_path, "de") == [tmp_path / "de" / "train.spacy"]
    DocBin(docs=[nlp("Herr Roth ging.")]).to_disk(tmp_path / "de" / "dev.spacy")
    paths = rule_learning_paths(tmp_path, "de")
    assert paths == [tmp_path / "de" / "train.spacy", tmp_path / "de" / "dev.spacy"]
    assert [eg.reference.text for eg in create_gold_docs(*paths)(nlp)] == [
        "Frau Albrecht kam.", "Herr Roth ging."]


def test_the_id_cues_learn_from_every_language_where_the_xx_split_exists(tmp_path: Path) -> None:
    from spacy.tokens import DocBin

    from scripts.pipelines.assemble import id_cue_learning_paths

    nlp = spacy.blank("de")
    (tmp_path / "de").mkdir()
    DocBin(docs=[nlp("Station 4B.")]).to_disk(tmp_path / "de" / "train.spacy")
    assert id_cue_learning_paths(tmp_path, "de") == [tmp_path / "de" / "train.spacy"]
    (tmp_path / "xx").mkdir()
    DocBin(docs=[nlp("Ward B604.")]).to_disk(tmp_path / "xx" / "train.spacy")
    assert id_cue_learning_paths(tmp_path, "de") == [tmp_path / "xx" / "train.spacy"]


def test_languages_assembled_side_by_side_give_the_same_pipelines(tmp_path: Path) -> None:
    from tests.scripts.pipelines.test_package import train_tiny_ner

    for lang in ("de", "pl"):
        train_tiny_ner(lang, tmp_path / "training" / lang / "model-best",
                       tmp_path / "splits" / lang / "train.spacy")
    for jobs in ("1", "2"):
        result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de,pl",
                          "--output-dir", str(tmp_path / f"jobs{jobs}"), "--jobs", jobs])
        assert result.exit_code == 0, plain_output(result)
    one, two = (srsly.read_json(tmp_path / f"jobs{jobs}" / "assembled.json")["pipelines"]
                for jobs in "12")
    assert list(one) == list(two) == ["de", "pl"]
    text = "Frau Erika Busch, geb. 07.07.1950, liegt auf Station 4B."
    for lang in ("de", "pl"):
        assert one[lang]["components"] == two[lang]["components"]
        docs = [spacy.load(tmp_path / f"jobs{jobs}" / lang / "pipeline")(text) for jobs in "12"]
        one_ents, two_ents = ([(e.text, e.label_) for e in doc.ents] for doc in docs)
        assert one_ents == two_ents
        assert docs[0]._.deid_text == docs[1]._.deid_text
