"""Tests for `build_analyzer`: the real Presidio AnalyzerEngine on a small spacy-deid pipeline
built in the test and loaded by path, entity mapping, fine labels, and clear errors."""

from __future__ import annotations

import pytest
import spacy

from spacy_deid.presidio.analyzer import (
    DeidAnalyzerEngine,
    PipelineNotInstalledError,
    build_analyzer,
    entity_mapping,
    pipeline_name,
)

TEXT = ("Pacjent Jan Kowalski, ur. 12.03.1954, tel. 601 482 937, faks: 52 585 43 38, "
        "e-mail jan@example.pl")


def save_small_pipeline(path, lang: str = "pl") -> str:
    """A pipeline built in seconds: an entity ruler for one name plus the pattern component."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT",
                         "pattern": [{"LOWER": "jan"}, {"LOWER": "kowalski"}]}])
    nlp.add_pipe("deid_presidio_patterns", config={"lang": lang})
    nlp.to_disk(path)
    return str(path)


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    return save_small_pipeline(tmp_path_factory.mktemp("presidio") / "xx_deid_pl")


@pytest.fixture(scope="module")
def analyzer(model_path):
    return build_analyzer("pl", model_path)


def found(results, text=TEXT) -> set[tuple[str, str]]:
    return {(text[r.start:r.end], r.entity_type) for r in results}


def test_analyzer_returns_presidio_entities_with_scores(analyzer):
    assert isinstance(analyzer, DeidAnalyzerEngine)
    results = analyzer.analyze(TEXT, language="pl")
    assert found(results) == {
        ("Jan Kowalski", "PERSON"), ("12.03.1954", "DATE_TIME"),
        ("601 482 937", "PHONE_NUMBER"), ("52 585 43 38", "PHONE_NUMBER"),
        ("jan@example.pl", "EMAIL_ADDRESS"),
    }
    scores = {TEXT[r.start:r.end]: r.score for r in results}
    assert scores["Jan Kowalski"] == pytest.approx(0.85)  # NER: Presidio's default score
    assert scores["jan@example.pl"] == pytest.approx(1.0)  # pattern score kept


def test_keep_fine_labels(model_path):
    fine = build_analyzer("pl", model_path, keep_fine_labels=True)
    assert found(fine.analyze(TEXT, language="pl")) >= {
        ("Jan Kowalski", "NAME_PATIENT"), ("52 585 43 38", "CONTACT_FAX"),
        ("601 482 937", "CONTACT_PHONE"), ("12.03.1954", "DATE"),
    }


def test_score_threshold_and_entities_filter(model_path, analyzer):
    only_people = analyzer.analyze(TEXT, language="pl", entities=["PERSON"])
    assert found(only_people) == {("Jan Kowalski", "PERSON")}
    strict = build_analyzer("pl", model_path, score_threshold=0.9)
    assert ("Jan Kowalski", "PERSON") not in found(strict.analyze(TEXT, language="pl"))


def test_entity_mapping_covers_every_label():
    assert set(entity_mapping()) == set(entity_mapping(keep_fine_labels=True))
    assert entity_mapping()["CONTACT_FAX"] == "PHONE_NUMBER"
    assert pipeline_name("pl") == "xx_deid_pl"


@pytest.mark.parametrize("text", ["", "   \n", "\t \u00a0"])
def test_empty_text_has_no_entities(analyzer, text):
    # as the spaCy anonymizer returns such text unchanged, the analyzer finds nothing in it
    assert analyzer.analyze(text, language="pl") == []


def test_non_text_is_a_clear_error(analyzer):
    with pytest.raises(TypeError, match="str"):
        analyzer.analyze(None, language="pl")


def test_unsupported_language_is_a_clear_error(analyzer, model_path):
    with pytest.raises(ValueError, match="not supported"):
        analyzer.analyze(TEXT, language="de")
    with pytest.raises(ValueError, match="Unsupported language code 'xx'"):
        build_analyzer("xx", model_path)


def test_missing_pipeline_is_a_clear_error_without_download(tmp_path):
    with pytest.raises(PipelineNotInstalledError, match="xx_deid_tr"):
        build_analyzer("tr")
    with pytest.raises(PipelineNotInstalledError, match="not installed"):
        build_analyzer("pl", tmp_path / "missing")
