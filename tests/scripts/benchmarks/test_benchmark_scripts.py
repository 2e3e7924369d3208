"""The scaling, command-line and language-check benchmarks on data made in the test."""

from __future__ import annotations

import json

import pytest
import spacy
import srsly
from spacy.tokens import DocBin

from scripts.benchmarks.cli_benchmark import run_once, write_notes
from scripts.benchmarks.scaling import build_text, scaling_run, sizes
from scripts.evaluation.language_check import main as language_check
from tests.lang.test_identify import SENTENCES
from tests.rule_pipeline import save_rule_pipeline

LETTERS = ["Anna Berg kam am 03.04.2024 zur Kontrolle.", "Max Huber wurde entlassen."]


def test_sizes_double_up_to_the_maximum():
    assert sizes(10, 100) == [10, 20, 40, 80, 100]
    assert sizes(5, 5) == [5]
    with pytest.raises(ValueError):
        sizes(10, 5)


def test_build_text_repeats_the_letters_and_cuts():
    text = build_text(LETTERS, 200)
    assert len(text) == 200
    assert text.startswith(LETTERS[0] + "\n\n" + LETTERS[1] + "\n\n" + LETTERS[0])


def write_docbin(path, texts):
    nlp = spacy.blank("xx")
    DocBin(docs=[nlp.make_doc(text) for text in texts]).to_disk(path)
    return path


def test_scaling_run_measures_every_size_in_its_own_process(tmp_path):
    pipeline = save_rule_pipeline(tmp_path / "pipeline")
    data = write_docbin(tmp_path / "test.spacy", LETTERS)
    result = scaling_run(pipeline, data, start_chars=500, max_total_chars=1000, max_chars=600,
                         context_chars=50)
    assert [size["chars"] for size in result["sizes"]] == [500, 1000]
    assert all(size["peak_rss_mb"] > 0 and size["n_replacements"] > 0
               for size in result["sizes"])
    assert [size["chunked"] for size in result["sizes"]] == [False, True]


def test_cli_benchmark_reads_the_rate_from_the_manifest(tmp_path):
    pipeline = save_rule_pipeline(tmp_path / "pipeline")
    notes, key = tmp_path / "notes.jsonl", tmp_path / "deid.key"
    write_notes(notes, LETTERS, 30)
    key.write_text("a-benchmark-test-key-of-enough-length-0123", encoding="utf-8")
    rows = [json.loads(line) for line in notes.read_text("utf-8").splitlines()]
    assert len(rows) == 30 and rows[2]["text"] == LETTERS[0]
    assert run_once(str(pipeline), notes, key, 1, 8, tmp_path) > 0


def test_language_check_writes_rates_per_language(tmp_path):
    for lang in ("de", "pl"):
        (tmp_path / lang).mkdir()
        write_docbin(tmp_path / lang / "test.spacy", [SENTENCES[lang]])
    output = tmp_path / "language_check.json"
    language_check(tmp_path, output=output, langs="de,pl")
    rates = srsly.read_json(output)["languages"]
    assert rates["de"]["all"]["documents"] == 1
    assert rates["de"]["all"]["identified"] == 1.0
    assert rates["de"]["all"]["false_alarms"] == 0.0
    assert rates["pl"]["all"]["identified"] == 1.0
    with pytest.raises(ValueError, match="Unsupported language"):
        language_check(tmp_path, output=output, langs="de,xx")
