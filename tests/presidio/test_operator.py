"""Tests for the `deid_surrogate` operator with the real Presidio AnonymizerEngine (and the
real AnalyzerEngine on a small pipeline built in the test)."""

from __future__ import annotations

import pytest
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import InvalidParamError, OperatorConfig, RecognizerResult

from spacy_deid.anonymize.surrogates import SurrogateGenerator
from spacy_deid.presidio.analyzer import build_analyzer
from spacy_deid.presidio.operator import (
    DeidSurrogateOperator,
    anonymize,
    anonymizer_engine,
    surrogate_label,
    surrogate_operators,
)
from tests.presidio.test_analyzer import save_small_pipeline

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


def test_adjacent_entities_of_one_coarse_type_keep_their_own_surrogates():
    # Presidio's coarse LOCATION for a postal code and its city, a space apart
    text = "wohnhaft in 81675 München, Anna (Fallnr. 4711) kam."
    results = [RecognizerResult("LOCATION", 12, 17, 0.85),
               RecognizerResult("LOCATION", 18, 25, 0.85),
               RecognizerResult("PERSON", 27, 31, 0.85),
               RecognizerResult("ID", 41, 45, 0.85)]
    output = anonymize(text, results, "de", seed=2)
    assert len(output.items) == 4
    zip_code, city = output.text[12:].split(",")[0].split(" ", 1)
    assert zip_code.isdigit() and len(zip_code) == 5 and zip_code != "81675"
    assert city and city != "München"
    # every character outside the four entities is kept
    assert output.text.endswith(" kam.") and "(Fallnr. " in output.text


def test_the_engine_keeps_adjacent_entities_apart_by_default():
    text = "81675 München"
    results = [RecognizerResult("LOCATION", 0, 5, 0.85), RecognizerResult("LOCATION", 6, 13, 0.85)]
    engine = anonymizer_engine()
    operators = surrogate_operators(text, "de", seed=0)
    assert len(engine.anonymize(text=text, analyzer_results=results,
                                operators=operators).items) == 2
    merged = engine.anonymize(text=text, analyzer_results=results, operators=operators,
                              merge_entities_with_spaces=True)
    assert len(merged.items) == 1


@pytest.mark.parametrize(("entity_type", "text", "label"),
                         [("LOCATION", "81675", "LOCATION_ZIP"),
                          ("LOCATION", "00-950", "LOCATION_ZIP"),
                          ("LOCATION", "München", "LOCATION_OTHER"),
                          ("LOCATION", "4A", "LOCATION_OTHER"),
                          ("LOCATION_CITY", "81675", "LOCATION_CITY"),
                          ("PERSON", "Anna", "NAME_OTHER")])
def test_surrogate_label(entity_type, text, label):
    assert surrogate_label(entity_type, text) == label


def test_markup_at_an_entitys_edges_is_kept():
    text = "Patientin: <b>Anna Hufnagel</b>\x07 kam."
    start, end = text.index("<b>"), text.index("\x07") + 1
    output = anonymize(text, [RecognizerResult("PERSON", start, end, 0.85),
                              RecognizerResult("PERSON", 0, 0, 0.85)], "de", seed=0)
    assert output.text.startswith("Patientin: <b>") and output.text.endswith("</b>\x07 kam.")
    assert "Hufnagel" not in output.text


@pytest.mark.parametrize("text", ["", "  \n"])
def test_empty_text_comes_back_unchanged(text):
    assert anonymize(text, [], "de").text == text
