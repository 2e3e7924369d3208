"""deid_date_shapes: DATE entities that cannot be dates become IDs."""

import pytest

from spacy_deid.detect.date_shapes import is_code_not_date
from tests.annotated_docs import annotated, blank


def relabelled(text, entities, **config):
    nlp = blank("en")
    component = nlp.add_pipe("deid_date_shapes", config=config)
    doc = component(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize("text", ["215873409317", "03 09 514772", "4471 0926 33", "118204"])
def test_long_numbers_are_codes(text):
    assert is_code_not_date(text, min_digits=6)


@pytest.mark.parametrize("text", ["12.03.2024", "2024", "12 03 2024", "2024 03 12",
                                  "3 4 24", "12345", "März 2024", "03/2022", "12 03"])
def test_dates_and_short_numbers_are_not(text):
    assert not is_code_not_date(text, min_digits=6)


def test_a_long_number_taken_for_a_date_becomes_an_id():
    text = "Case: 215873409317, seen on 12.03.2024 and 2024 03 12."
    entities = [("215873409317", "DATE"), ("12.03.2024", "DATE"), ("2024 03 12", "DATE")]
    assert relabelled(text, entities) == [
        ("215873409317", "ID"), ("12.03.2024", "DATE"), ("2024 03 12", "DATE")]


def test_other_labels_keep_their_label():
    text = "Call 0221 478 9932 about case 215873409317."
    entities = [("0221 478 9932", "CONTACT_PHONE"), ("215873409317", "ID")]
    assert relabelled(text, entities) == entities


def test_min_digits_sets_how_long_a_code_must_be():
    text = "Number 12345 given."
    assert relabelled(text, [("12345", "DATE")], min_digits=5) == [("12345", "ID")]
    assert relabelled(text, [("12345", "DATE")]) == [("12345", "DATE")]


def test_an_empty_document_passes():
    assert relabelled("", []) == []


def test_a_strategy_for_dates_does_not_reach_the_relabelled_number():
    nlp = blank("en")
    nlp.add_pipe("deid_date_shapes")
    nlp.add_pipe("deid_anonymizer", config={"lang": "en", "strategies": {"DATE": "keep"}})
    text = "Case: 215873409317, seen on 12.03.2024."
    doc = annotated(nlp, text, [("215873409317", "DATE"), ("12.03.2024", "DATE")])
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert "12.03.2024" in doc._.deid_text
    assert "215873409317" not in doc._.deid_text
