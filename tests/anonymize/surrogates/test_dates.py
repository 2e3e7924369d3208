"""Date surrogates: one offset per document, format and precision kept, never the original."""

import datetime as dt
import random

import pytest

from spacy_deid.anonymize.surrogates.dates import UnreadableDate, date_surrogate, shift_date_text

CASES = [
    ("de", "5.7.54", 400, "9.8.55"),
    ("de", "27. März 2025", 400, "1. Mai 2026"),
    ("de", "8.3.", 400, "12.4."),
    ("de", "2006", 400, "2007"),
    ("de", "27.03.2025", 400, "01.05.2026"),
    ("de", "02–04.2021", 400, "03–05.2022"),
    ("de", "Januar bis März 2021", 400, "Februar bis April 2022"),
    ("en", "03/27/2025", 400, "05/01/2026"),
    ("en", "July 13, 2025", 400, "August 17, 2026"),
    ("en", "21st", 8, "1st"),
    ("en", "2025-03-27", -400, "2024-02-21"),
    ("pl", "27 marca 2025", 400, "1 maja 2026"),
    ("pl", "wrześniu 2027", 400, "październiku 2028"),
    ("ru", "27 марта 2025 г.", 400, "1 мая 2026 г."),
    ("uk", "жовтні", 40, "листопаді"),
    ("tr", "27 Mart 2025", 400, "1 Mayıs 2026"),
    ("ar", "17 كانون الثاني 2018", 400, "21 شباط 2019"),
    ("ar", "12 شباط 2024م", 400, "18 آذار 2025م"),  # an era mark after the year
    ("ar", "14/09/1445هـ", 400, "19/10/1446هـ"),
    ("fa", "۲۰۲۴/۱۱/۰۵", 400, "۲۰۲۵/۱۲/۱۰"),
    ("fa", "ژانویهٔ ۲۰۱۸", 400, "فوریهٔ ۲۰۱۹"),
    ("fa", "۱۱ مرداد ۱۴۰۳", 30, "۱۰ شهریور ۱۴۰۳"),  # a Solar Hijri month
    ("fr", "1er nov.", 400, "6 déc."),
    ("it", "agosto '27", 400, "settembre '28"),
]


@pytest.mark.parametrize(("lang", "text", "offset", "expected"), CASES)
def test_shift_keeps_format_and_precision(lang, text, offset, expected):
    assert shift_date_text(text, offset, lang) == expected


def test_upper_case_month_names_stay_upper():
    assert shift_date_text("27. MÄRZ 2025", 400, "de") == "1. MAI 2026"


def test_intervals_between_dates_are_kept():
    originals = [dt.date(2029, 3, 19), dt.date(2029, 3, 25), dt.date(2029, 5, 7)]
    offset = -473
    shifted = [shift_date_text(d.strftime("%d.%m.%Y"), offset, "pl") for d in originals]
    parsed = [dt.datetime.strptime(s, "%d.%m.%Y").date() for s in shifted]
    assert [b - a for a, b in zip(parsed, parsed[1:], strict=False)] == [
        b - a for a, b in zip(originals, originals[1:], strict=False)
    ]


@pytest.mark.parametrize("text", ["31.13.2020", "03", "abc", "Q3/xx"])
def test_unreadable_dates_get_a_same_shape_stand_in(text):
    with pytest.raises(UnreadableDate):
        shift_date_text(text, 400, "de")
    stand_in = date_surrogate(text, 400, "de", random.Random(0))
    assert stand_in != text
    assert len(stand_in) == len(text)
    assert [c.isdigit() for c in stand_in] == [c.isdigit() for c in text]


@pytest.mark.parametrize("seed", range(5))
def test_no_code_glued_to_an_unreadable_date_survives(seed):
    # "0J0J0J" is no date field: a number followed by a letter is read as text
    text = "000000000000 0J0J0J"
    stand_in = date_surrogate(text, 400, "de", random.Random(seed))
    assert "0J0J0J" not in stand_in
    assert len(stand_in) == len(text) and stand_in[12] == " "
    assert [c.isdigit() for c in stand_in] == [c.isdigit() for c in text]


@pytest.mark.parametrize(("text", "lang", "kept"), [
    ("Yazıcı 26.03.2029", "tr", "Yazıcı"),          # a surname the detector took into the date
    ("Montag, 3. März 2024", "de", "Montag"),       # a weekday would give the real date away
])
def test_a_capitalised_word_that_is_no_month_does_not_survive_a_shifted_date(text, lang, kept):
    surrogate = date_surrogate(text, 400, lang, random.Random(0))
    assert kept not in surrogate
    assert surrogate[-4:] != text[-4:]  # the year moved too


def test_month_names_and_small_words_of_a_date_stay_words_of_a_date():
    assert date_surrogate("le 3 mars 2024", 400, "fr", random.Random(0)) == "le 7 avril 2025"
    assert date_surrogate("12. März 2024", 400, "de", random.Random(0)) == "16. April 2025"
