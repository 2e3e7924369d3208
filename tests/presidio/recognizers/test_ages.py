"""Ages: a number that an age word before or after it, or a person word or a bracket with a
word for years, makes an age; the span is the number (with an ordinal mark) alone."""

from __future__ import annotations

import pytest

from spacy_deid.lang import LANGUAGES
from spacy_deid.presidio.recognizers.ages import age_patterns
from spacy_deid.presidio.recognizers.common import normalize_digits
from tests.presidio.recognizers.matching import matches


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("en", "Pt is a 67 yo M, seen with his wife, aged 71, a 45-year-old neighbour.",
     ["67", "71", "45"]),
    ("en", "First glasses at age 13; glaucoma since the age of 55.", ["13", "55"]),
    ("de", "Die 15-jährige Patientin, Glaukom ab dem 55. Lj., Alter: 45", ["15", "55.", "45"]),
    ("de", "Patientin von 34 Jahren, geb. 02.03.1990 (34 Jahre)", ["34", "34"]),
    ("fr", "Patiente de 55 ans, âgée de 56 ans à la sortie.", ["55", "56"]),
    ("it", "Paziente di 49 anni; glaucoma dal 55° anno di età, trentenne", ["49", "55°"]),
    ("pl", "Pacjentka w wieku 45 lat, 12-letni syn", ["45", "12"]),
    ("ru", "Пациентка 55 лет, дата рождения 14.09.1956 (67 лет)", ["55", "67"]),
    ("uk", "Пацієнтка віком 52 роки, 7-річний син, 1951 р. н. (73 роки)", ["52", "7", "73"]),
    ("tr", "Yaş: 65, 55 yaşından itibaren", ["65", "55"]),
    ("ar", "مريض عمره 45 عاماً، زرق منذ سن 55", ["45", "55"]),
    ("fa", normalize_digits("سن: ۴۵، نخستین عینک در ۱۳ سالگی"), ["45", "13"]),
])
def test_a_number_with_an_age_word_is_an_age(lang, text, expected):
    assert matches(lang, "DeidAge", text) == expected


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Gave 3.5 years of follow-up; 2 years ago; 10:45 aged; page 12"),
    ("en", "Aged 4,5 months? a 130-year-old building"),  # decimals and numbers over 125
    ("de", "seit 3 Jahren, Kontrolle in 2 Jahren, Alter 12.03.2024"),
    ("fr", "depuis 3 ans, il y a 10 ans, traitement de 2 ans"),
    ("it", "da 3 anni, 2 anni fa"),
    ("ru", "в течение 5 лет"),
    ("tr", "5 yıl önce, yaş 2024/05"),
])
def test_a_number_without_an_age_word_is_no_age(lang, text):
    assert matches(lang, "DeidAge", text) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_age_patterns(lang):
    assert len(age_patterns(lang)) >= 3
