"""Every Python snippet of README.md runs as written, against a small German pipeline
installed in the test under the name the README uses (`xx_deid_de`). The Spark snippet
needs a Spark session; tests/spark/test_readme_snippet.py runs it."""

from __future__ import annotations

import importlib

import pytest
import spacy

from tests.readme_snippets import install_package, python_blocks

SPARK_IMPORT = "from spacy_deid.spark import"


def small_german_pipeline() -> spacy.Language:
    """Tokenizer, a name ruler for the README's example name, Presidio's patterns, the
    anonymizer."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT",
                         "pattern": [{"TEXT": "Johann"}, {"TEXT": "Meier"}]}])
    nlp.add_pipe("deid_presidio_patterns")
    nlp.add_pipe("deid_anonymizer", config={"seed": 1})
    return nlp


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    pipeline_dir = tmp_path_factory.mktemp("pipeline") / "xx_deid_de"
    small_german_pipeline().to_disk(pipeline_dir)
    install_package(site, "xx_deid_de", pipeline_dir)
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(site))
        importlib.invalidate_caches()
        yield


def local_blocks() -> list[str]:
    return [block for block in python_blocks() if SPARK_IMPORT not in block]


def test_the_readme_has_python_snippets():
    assert len(local_blocks()) >= 3
    assert any(SPARK_IMPORT in block for block in python_blocks())


@pytest.mark.parametrize("index", range(len(local_blocks())))
def test_snippet_runs_as_written(installed, index, capsys):
    exec(compile(local_blocks()[index], f"README.md python block {index}", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.strip()
    assert "Johann Meier" not in printed.replace("('Johann Meier', 'NAME_PATIENT')", "")
