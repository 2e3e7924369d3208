"""Tests for the `deid_surrogate` operator with the real Presidio AnonymizerEngine (and the
real AnalyzerEngine on a small pipeline built in the test)."""

from __future__ import annotations

import pytest
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import InvalidParamError, OperatorConfig, RecognizerResult
from spacy_deid.presidio_analyzer import build_analyzer
from spacy_deid.presidio_operator import (
    DeidSurrogateOperator,
    anonymize,
    anonymizer_engine,
    fine_label_for,
    surrogate_operators,
)
from spacy_deid.surrogates import SurrogateGenerator

from tests.components.test_presidio_analyzer import save_small_pipeline

TEXT = ("Pacjent Jan Kowalski, ur. 12.03.1954, tel. 601 482 937. Jan Kowalski "
        "przyjęty 12.03.1954, e-mail jan@example.pl")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = save_small_pipeline(tmp_path_factory.mktemp("operator") / "p")
    analyzer = build_analyzer("pl", path, keep_fine_labels=True)
    return analyzer.analyze(TEXT, language="pl")


def originals(results) -> set[str]:
    return {TEXT[r.start:r.end] for r in results}


def test_surrogates_replace_every_detection(results):
    output = anonymize(TEXT, results, "pl", seed=3)
    assert originals(results) >= {"Jan Kowalski", "12.03.1954", "601 482 937"}
    for original in originals(results):
        assert original not in output.text
    assert {item.operator for item in output.items} == {"deid_surrogate"}


def test_same_original_same_surrogate_within_a_document(results):
    output = anonymize(TEXT, results, "pl", seed=3)
    by_type: dict[str, set[str]] = {}
    for item in output.items:
        by_type.setdefault(item.entity_type, set()).add(item.text)
    assert len(by_type["NAME_PATIENT"]) == 1
    assert len(by_type["DATE"]) == 1


def test_deterministic_per_seed(results):
    first = anonymize(TEXT, results, "pl", seed=5).text
    assert anonymize(TEXT, results, "pl", seed=5).text == first


def test_presidio_entity_types_are_mapped():
    assert fine_label_for("PERSON") == "NAME_OTHER"
    assert fine_label_for("PL_PESEL") == "ID"
    assert fine_label_for("CONTACT_FAX") == "CONTACT_FAX"
    text = "Dzwonić 601 482 937 po 12.03.2024"
    results = [RecognizerResult("PHONE_NUMBER", 8, 19, 0.9),
               RecognizerResult("DATE_TIME", 23, 33, 0.9)]
    output = anonymize(text, results, "pl", seed=1)
    assert "601 482 937" not in output.text and "12.03.2024" not in output.text


def test_session_shared_across_calls_keeps_surrogates():
    session = SurrogateGenerator("pl", seed=0).new_document()
    engine = anonymizer_engine()
    results = [RecognizerResult("NAME_PATIENT", 0, 12, 0.9)]
    outputs = [engine.anonymize(text=text, analyzer_results=results,
                                operators=surrogate_operators(text, session=session)).text
               for text in ("Jan Kowalski przyszedł.", "Jan Kowalski wyszedł.")]
    assert outputs[0].split()[:2] == outputs[1].split()[:2]


def test_missing_session_is_a_clear_error():
    engine = AnonymizerEngine()
    engine.add_anonymizer(DeidSurrogateOperator)
    with pytest.raises(InvalidParamError, match="session"):
        engine.anonymize(text="Jan Kowalski", analyzer_results=[
            RecognizerResult("PERSON", 0, 12, 0.9)],
            operators={"DEFAULT": OperatorConfig("deid_surrogate", {})})
    with pytest.raises(ValueError, match="lang"):
        surrogate_operators("text")
