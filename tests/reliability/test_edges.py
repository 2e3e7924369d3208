"""Empty and white-space-only text behave the same on every path: the spaCy pipeline gives
the text back unchanged, the Presidio analyzer finds nothing, Presidio's anonymizer with our
operator gives the text back unchanged, the language check stays silent."""

from __future__ import annotations

import warnings

import pytest
import spacy

from spacy_deid.chunking import process_long
from spacy_deid.presidio.analyzer import build_analyzer
from spacy_deid.presidio.operator import anonymize

EMPTY = ["", " ", "   \n\t", "\n\n", "\u00a0"]


def small_pipeline() -> spacy.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    nlp.add_pipe("deid_language_check")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": "Hufnagel"}])
    nlp.add_pipe("deid_presidio_patterns")
    nlp.add_pipe("deid_anonymizer")
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return small_pipeline()


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory):
    path = tmp_path_factory.mktemp("edges") / "pipeline"
    small_pipeline().to_disk(path)
    return build_analyzer("de", path)


@pytest.mark.parametrize("text", EMPTY)
def test_the_spacy_pipeline_gives_empty_text_back(nlp, text):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = nlp(text)
    assert doc._.deid_text == text
    assert doc._.deid_replacements == []
    assert doc._.deid_language["mismatch"] is False
    assert process_long(nlp, text, max_chars=1)._.deid_text == text


@pytest.mark.parametrize("text", EMPTY)
def test_the_presidio_path_gives_empty_text_back(analyzer, text):
    results = analyzer.analyze(text, language="de")
    assert results == []
    assert anonymize(text, results, "de").text == text


def test_both_paths_agree_on_a_name_between_markup(nlp, analyzer):
    text = "Patientin: <b>Hufnagel</b>\x07"
    spacy_out = nlp(text)._.deid_text
    presidio_out = anonymize(text, analyzer.analyze(text, language="de"), "de").text
    for out in (spacy_out, presidio_out):
        assert out.startswith("Patientin: <b>") and out.endswith("</b>\x07")
        assert "Hufnagel" not in out
