"""End-to-end test of scripts/benchmarks/presidio_benchmark.py on a small pipeline built in the test
and a gold DocBin made from inline-tag text."""

from __future__ import annotations

import sys

import spacy
import srsly
from spacy.tokens import DocBin
from typer.testing import CliRunner

from scripts.benchmarks.presidio_benchmark import app
from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.cli_output import plain_output

GOLD = [
    "Pacjent <NAME_PATIENT>Jan Kowalski</NAME_PATIENT>, ur. <DATE>12.03.1954</DATE>, "
    "tel. <CONTACT_PHONE>601 482 937</CONTACT_PHONE>.",
    "<LOCATION_ZIP>76-200</LOCATION_ZIP> <LOCATION_CITY>Słupsk</LOCATION_CITY>, "
    "faks: <CONTACT_FAX>52 585 43 38</CONTACT_FAX>, <NAME_DOCTOR>Anna Nowak</NAME_DOCTOR>.",
]


def blank():
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "pl"}}})


def write_inputs(tmp_path):
    nlp = blank()
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([
        {"label": "NAME_PATIENT", "pattern": "Jan Kowalski"},
        {"label": "LOCATION_CITY", "pattern": "Słupsk"},
        {"label": "DATE", "pattern": [{"TEXT": "12"}]},  # a partial NER date
    ])
    nlp.to_disk(tmp_path / "model")
    docbin = DocBin()
    for i, tagged in enumerate(GOLD):
        text, spans = parse_inline_tags(tagged, f"gold{i}")
        doc, report = make_doc(nlp.make_doc, text, spans, f"gold{i}")
        assert report.lost == 0
        docbin.add(doc)
    docbin.to_disk(tmp_path / "test.spacy")


def test_benchmark_scores_three_variants_and_times_both_paths(tmp_path, monkeypatch):
    write_inputs(tmp_path)
    output = tmp_path / "metrics" / "presidio_pl.json"
    args = [str(tmp_path / "model"), str(tmp_path / "test.spacy"),
            "--lang", "pl", "--output", str(output), "--repeats", "1"]
    # the command line recorded in the output is the script's own, whoever runs the test
    monkeypatch.setattr(sys, "argv", ["scripts/benchmarks/presidio_benchmark.py", *args])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = srsly.read_json(output)
    assert data["pattern_component"]["added_by_benchmark"] is True
    scores = data["scores"]
    assert set(scores) == {"ner", "presidio", "merged"}
    recall = {name: s["all_labels"]["strict"]["r"] for name, s in scores.items()}
    assert recall["merged"] > recall["ner"]
    assert recall["merged"] > recall["presidio"]
    assert scores["presidio"]["pattern_labels"]["strict"]["p"] == 1.0
    assert scores["ner"]["all_labels"]["relaxed"]["f1"] >= scores["ner"]["all_labels"][
        "strict"]["f1"]
    throughput = data["throughput"]
    assert throughput["texts"] == 2
    assert throughput["presidio_over_direct_time_ratio"] > 0
    assert data["command"].startswith("python -m scripts.benchmarks.presidio_benchmark ")


def test_missing_model_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(app, [str(tmp_path / "nope"), str(tmp_path / "x.spacy"),
                                      "--lang", "pl", "--output", str(tmp_path / "o.json")])
    assert result.exit_code == 1
    assert "Pipeline directory not found" in plain_output(result)


def test_zero_repeats_scores_without_timing(tmp_path):
    write_inputs(tmp_path)
    output = tmp_path / "presidio_pl.json"
    result = CliRunner().invoke(app, [str(tmp_path / "model"), str(tmp_path / "test.spacy"),
                                      "--lang", "pl", "--output", str(output), "--repeats", "0"])
    assert result.exit_code == 0, result.output
    data = srsly.read_json(output)
    assert data["throughput"] is None
    assert set(data["scores"]) == {"ner", "presidio", "merged"}
    assert "not timed" in plain_output(result)
