"""Tests for scripts/benchmarks/benchmark.py: timing arithmetic with a fake clock, the
throughput file update, and the CLI end to end (in a subprocess, since it pins its process
to one core)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.tokens import DocBin
from thinc.util import has_cupy_gpu

from scripts.benchmarks.benchmark import (
    measure_throughput,
    read_texts,
    select_device,
    update_throughput_file,
)
from scripts.evaluation.evaluate import load_pipeline

REPO = Path(__file__).resolve().parents[3]
TEXTS = ["Max Muster kam am 01.02.2020.", "Dr. Anna Beispiel, Tel. 030 1234567.", "Keine."]


class FakeClock:
    """A clock that advances by a fixed step on every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class CountingPipeline:
    """Stands in for `nlp`: yields whitespace tokens and remembers how much it processed."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def pipe(self, texts, batch_size=64):
        texts = list(texts)
        self.calls.append(len(texts))
        return (text.split() for text in texts)


def test_measure_throughput_warms_up_then_times_each_pass():
    nlp = CountingPipeline()
    texts = ["a b c", "d e", "f"] * 10  # 60 tokens
    result = measure_throughput(nlp, texts, repeats=3, warmup=4, clock=FakeClock(0.5))
    assert nlp.calls == [4, 30, 30, 30]  # warm-up on 4 texts, then three full passes
    assert result["n_tokens"] == 60
    assert result["seconds"] == [0.5, 0.5, 0.5]
    assert result["tokens_per_second"] == 120.0
    assert result["tokens_per_second_best"] == 120.0
    assert result["n_docs"] == 30


def test_measure_throughput_rejects_empty_input():
    with pytest.raises(ValueError, match="No texts"):
        measure_throughput(CountingPipeline(), [])
    with pytest.raises(ValueError, match="repeats"):
        measure_throughput(CountingPipeline(), ["a"], repeats=0)


def test_update_throughput_file_adds_and_replaces_entries(tmp_path):
    path = tmp_path / "metrics" / "throughput.json"
    update_throughput_file(path, {"name": "de", "tokens_per_second": 100.0})
    update_throughput_file(path, {"name": "ar", "tokens_per_second": 50.0})
    data = update_throughput_file(path, {"name": "de", "tokens_per_second": 200.0})
    assert list(data["pipelines"]) == ["ar", "de"]
    assert srsly.read_json(path)["pipelines"]["de"]["tokens_per_second"] == 200.0


def test_update_throughput_file_refuses_a_foreign_file(tmp_path):
    path = tmp_path / "throughput.json"
    srsly.write_json(path, [1, 2, 3])
    with pytest.raises(ValueError, match="not a throughput file"):
        update_throughput_file(path, {"name": "de"})
    assert srsly.read_json(path) == [1, 2, 3]


def test_read_texts_names_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="DocBin not found"):
        read_texts(tmp_path / "missing.spacy")


def test_select_device_keeps_the_cpu_for_minus_one():
    assert select_device(-1) == {"device": "cpu"}


@pytest.mark.skipif(has_cupy_gpu, reason="a GPU is usable here")
def test_select_device_refuses_a_gpu_that_is_not_there():
    with pytest.raises(ValueError, match="GPU 0 is not usable by spaCy"):
        select_device(0)


def test_cli_benchmarks_a_saved_pipeline(tmp_path):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "DATE", "pattern": "01.02.2020"}])
    nlp.to_disk(tmp_path / "model")
    docbin = DocBin()
    for text in TEXTS:
        docbin.add(nlp.make_doc(text))
    docbin.to_disk(tmp_path / "data.spacy")
    expected_tokens = sum(len(nlp.make_doc(text)) for text in TEXTS)
    output = tmp_path / "throughput.json"
    completed = subprocess.run(
        [sys.executable, "-m", "scripts.benchmarks.benchmark", str(tmp_path / "model"),
         str(tmp_path / "data.spacy"), "--output", str(output), "--name", "tiny-de",
         "--repeats", "2", "--warmup", "1"],
        cwd=REPO, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    entry = srsly.read_json(output)["pipelines"]["tiny-de"]
    assert entry["n_tokens"] == expected_tokens
    assert entry["tokens_per_second"] > 0
    assert len(entry["seconds"]) == 2
    assert entry["threads"] == 1
    assert entry["device"] == "cpu"
    assert len(entry.get("cpu_affinity", [0])) == 1
    assert entry["components"] == ["entity_ruler"]
    assert entry["command"].startswith("python -m scripts.benchmarks.benchmark ")
    assert "encoder_precision" not in entry  # no transformer encoder in this pipeline


def test_load_pipeline_refuses_an_unknown_cpu_precision_and_a_missing_folder(tmp_path):
    spacy.blank("xx").to_disk(tmp_path / "model")
    assert load_pipeline(tmp_path / "model", "float32").pipe_names == []
    with pytest.raises(ValueError, match="cpu_precision must be one of"):
        load_pipeline(tmp_path / "model", "fp8")
    with pytest.raises(FileNotFoundError, match="Pipeline directory not found"):
        load_pipeline(tmp_path / "missing", None)
