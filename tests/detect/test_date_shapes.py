"""deid_date_shapes: DATE entities that cannot be dates become IDs or are dropped."""

import pytest

from spacy_deid.detect.date_shapes import (
    is_code_not_date,
    is_lettered_code,
    names_no_day,
)
from tests.annotated_docs import annotated, blank


def relabelled(text, entities, **config):
    nlp = blank("en")
    component = nlp.add_pipe("deid_date_shapes", config=config)
    doc = component(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize("text", ["217358409316", "03 09 538716", "4471 0958 62", "137205"])
def test_long_numbers_are_codes(text):
    assert is_code_not_date(text, min_digits=6)


@pytest.mark.parametrize("text", ["12.03.2024", "2024", "12 03 2024", "2024 03 12",
                                  "3 4 24", "12345", "März 2024", "03/2022", "12 03"])
def test_dates_and_short_numbers_are_not(text):
    assert not is_code_not_date(text, min_digits=6)


@pytest.mark.parametrize(("lang", "text"), [
    ("it", "AUT/24/137409"), ("pl", "2024/ORT/01739"), ("pl", "HP-24-3586"),
    ("ar", "ACC90051736"), ("de", "2024-137906"), ("fa", "۱۴۰۲-۱۱۸۴۰۶")])
def test_codes_of_letters_and_digits_or_a_long_digit_group_are_not_dates(lang, text):
    assert is_lettered_code(text, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "12-Mar-2024"), ("de", "3-März-2024"), ("pl", "12-III-2024"), ("en", "3rd"),
    ("fr", "1er"), ("ar", "26/04/1446هـ"), ("ar", "29/10/2024م"), ("ru", "2024г"),
    ("de", "12.03.2024"), ("en", "03/2022"), ("en", "2024"), ("de", "12. März 2024"),
    ("en", "Monday")])
def test_dates_with_month_names_numerals_ordinals_or_era_marks_are_dates(lang, text):
    assert not is_lettered_code(text, lang)


@pytest.mark.parametrize("text", ["20/20", "14/15", "20 / 25", "15.38", "۲۰/۱۶", "12:14:02",
                                  "8:05", "23:59", "1-0-1", "1-1-1-0", "250-250-250",
                                  "۵۰۰-۰-۵۰۰"])
def test_pairs_above_twelve_times_of_day_and_medication_schemes_name_no_day(text):
    assert names_no_day(text)


@pytest.mark.parametrize("text", ["12/10", "4/5", "03/33", "31.12", "11/50", "14/15/16",
                                  "120/80", "20/20/2024", "14-15", "24:10", "12:14:02 2024",
                                  "10-10-10", "12-03-24"])
def test_a_day_month_or_year_pair_and_other_shapes_may_name_a_day(text):
    assert not names_no_day(text)


def test_a_pair_no_calendar_reads_and_a_time_are_dropped_and_a_date_of_two_numbers_stays():
    text = "Visus 20/20, Tensio 14/15 mmHg um 12:14, Kontrolle 12/10."
    found = relabelled(text, [("20/20", "DATE"), ("14/15", "DATE"), ("12:14", "DATE"),
                              ("12/10", "DATE")])
    assert found == [("12/10", "DATE")]


@pytest.mark.parametrize(("lang", "text", "month", "year", "date"), [
    ("de", "Termin erst Oktober\n2012.", "Oktober", "2012", "Oktober\n2012"),
    ("pl", "w październiku 2012 r.", "październiku", "2012", "październiku 2012"),
    ("ar", "في تشرين الأول\n2032", "تشرين الأول", "2032", "تشرين الأول\n2032"),
    ("fa", "اکتبر ۲۰۱۲", "اکتبر", "۲۰۱۲", "اکتبر ۲۰۱۲")])
def test_a_month_name_and_its_year_become_one_date(lang, text, month, year, date):
    nlp = blank(lang)
    component = nlp.add_pipe("deid_date_shapes")
    doc = component(annotated(nlp, text, [(month, "DATE"), (year, "DATE")]))
    assert [(e.text, e.label_) for e in doc.ents] == [(date, "DATE")]


@pytest.mark.parametrize(("text", "entities"), [
    ("Oktober\n\n2012", [("Oktober", "DATE"), ("2012", "DATE")]),
    ("Oktober, 2012", [("Oktober", "DATE"), ("2012", "DATE")]),
    ("12.10. 2012", [("12.10.", "DATE"), ("2012", "DATE")]),
    ("Oktober 2012", [("Oktober", "DATE"), ("2012", "ID")]),
    ("Montag 2012", [("Montag", "DATE"), ("2012", "DATE")])])
def test_dates_apart_by_a_blank_line_or_a_comma_or_not_a_month_and_a_year_stay_apart(
        text, entities):
    assert relabelled(text, entities, lang="de") == entities


def test_a_pair_labelled_otherwise_keeps_its_entity():
    assert relabelled("Zimmer 14/15", [("14/15", "ID")]) == [("14/15", "ID")]


def test_a_code_taken_for_a_date_becomes_an_id_that_joins_the_id_it_touches():
    nlp = blank("de")
    nlp.add_pipe("deid_date_shapes")
    nlp.add_pipe("deid_entity_bounds")
    text = "Auftragsnr.: RAD-2024-137906, am 12.03.2024."
    doc = annotated(nlp, text, [("RAD-", "ID"), ("2024-137906", "DATE"), ("12.03.2024", "DATE")])
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("RAD-2024-137906", "ID"), ("12.03.2024", "DATE")]


def test_an_age_or_date_in_part_of_a_code_word_becomes_the_whole_code():
    nlp = blank("de")
    nlp.add_pipe("deid_date_shapes")
    nlp.add_pipe("deid_entity_bounds")
    text = "Nr. 23-44871, Probe 2023-118842, der 28-jährige Pat., 2019-2021, 12-03-2024."
    doc = annotated(nlp, text, [("23", "AGE"), ("2023", "DATE"), ("28", "AGE"),
                                ("2019", "DATE"), ("12-03-2024", "DATE")])
    assert [t.text for t in doc[1:4]] == ["23", "-", "44871"]  # the tokenizer cuts codes
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("23-44871", "ID"), ("2023-118842", "ID"), ("28", "AGE"), ("2019", "DATE"),
        ("12-03-2024", "DATE")]


def test_an_age_or_date_that_touches_an_id_becomes_part_of_it():
    nlp = blank("it")
    nlp.add_pipe("deid_date_shapes")
    nlp.add_pipe("deid_entity_bounds")
    text = "Stanza 4B, campione HX-22-0193, letto 7 12.03.2024, 2019-2021."
    doc = annotated(nlp, text, [("4", "AGE"), ("B", "ID"), ("HX-", "ID"), ("22-0193", "DATE"),
                                ("7", "ID"), ("12.03.2024", "DATE"), ("2019", "DATE"),
                                ("2021", "DATE")])
    assert [t.text for t in doc[1:3]] == ["4", "B"]  # the tokenizer cuts "4B"
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("4B", "ID"), ("HX-22-0193", "ID"), ("7", "ID"), ("12.03.2024", "DATE"),
        ("2019", "DATE"), ("2021", "DATE")]


@pytest.mark.parametrize(("lang", "text", "date", "whole"), [
    ("fa", "پذیرش ۱۱ مرداد ۱۴۰۳ بود", "۱۱ مرداد", "۱۱ مرداد ۱۴۰۳"),
    ("de", "Aufnahme am 3. August 2024.", "3. August", "3. August 2024"),
])
def test_a_date_that_ends_with_a_month_name_takes_the_year_after_it(lang, text, date, whole):
    nlp = blank(lang)
    component = nlp.add_pipe("deid_date_shapes")
    doc = component(annotated(nlp, text, [(date, "DATE")]))
    assert [(e.text, e.label_) for e in doc.ents] == [(whole, "DATE")]


def test_an_era_mark_written_right_after_a_date_is_part_of_it():
    nlp = blank("ar")
    component = nlp.add_pipe("deid_date_shapes")
    text = "بتاريخ 14/09/1445هـ الموافق 03/11/2023م و 12/03/2024 م"
    doc = component(annotated(nlp, text, [("14/09/1445", "DATE"), ("03/11/2023", "DATE"),
                                          ("12/03/2024", "DATE")]))
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("14/09/1445هـ", "DATE"), ("03/11/2023م", "DATE"), ("12/03/2024", "DATE")]


def test_a_year_in_another_entity_or_after_a_day_alone_stays_apart():
    nlp = blank("de")
    component = nlp.add_pipe("deid_date_shapes")
    doc = component(annotated(nlp, "Am 3. August 2024 und am 3. 2024", [
        ("3. August", "DATE"), ("2024", "ID"), ("3.", "DATE")]))
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("3. August", "DATE"), ("2024", "ID"), ("3.", "DATE")]


def test_a_long_number_taken_for_a_date_becomes_an_id():
    text = "Case: 217358409316, seen on 12.03.2024 and 2024 03 12."
    entities = [("217358409316", "DATE"), ("12.03.2024", "DATE"), ("2024 03 12", "DATE")]
    assert relabelled(text, entities) == [
        ("217358409316", "ID"), ("12.03.2024", "DATE"), ("2024 03 12", "DATE")]


def test_other_labels_keep_their_label():
    text = "Call 0221 478 9932 about case 217358409316."
    entities = [("0221 478 9932", "CONTACT_PHONE"), ("217358409316", "ID")]
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
    text = "Case: 217358409316, seen on 12.03.2024."
    doc = annotated(nlp, text, [("217358409316", "DATE"), ("12.03.2024", "DATE")])
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert "12.03.2024" in doc._.deid_text
    assert "217358409316" not in doc._.deid_text
