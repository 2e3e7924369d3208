"""Phone and fax numbers after a phone or fax word, taken whole."""

from __future__ import annotations

import pytest

from tests.presidio.recognizers.matching import matches
from tests.presidio.test_patterns import ents, pipeline


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("de", "Die Tochter ist unter Tel. 0 96 21 / 4 71 12 erreichbar.", ["0 96 21 / 4 71 12"]),
    ("de", "Ehemann (Tel. 0171-23 45 678) informiert.", ["0171-23 45 678"]),
    ("de", "Telefon: (09621) 47 11 23, Fax 09621/4712", ["(09621) 47 11 23", "09621/4712"]),
    # A bracket around the whole number stays outside it.
    ("en", "Spoke with the son on the phone (07700 900461).", ["07700 900461"]),
    ("de", "Rückruf Tel. (0171 2345678) erbeten", ["0171 2345678"]),
    ("de", "mobil 3 Tage nach der Operation", []),  # fewer than three digits
    ("de", "Tel. 12.03.2024", []),  # a date is no run of digit groups
    ("pl", "tel. 52 585 42 23, faks: 52 585 43 38", ["52 585 42 23", "52 585 43 38"]),
    ("ru", "тел.: +7 (4852) 72-61-30", ["+7 (4852) 72-61-30"]),
    ("fa", "تلفن: ۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵", ["۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵"]),
])
def test_a_number_after_a_phone_word_is_taken_whole(lang, text, expected):
    assert matches(lang, "DeidPhoneAfterCue", text) == expected


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("de", "Fax: +43(0)512 504-22334", ["+43(0)512 504-22334"]),  # "(0)" after a country code
    ("uk", "Тел./факс: +380 532 61 28 04 / +380 532 61 28 05",
     ["+380 532 61 28 04"]),  # a "+" after a slash starts another number
    ("ar", "التليفون: 0122 613 5087", ["0122 613 5087"]),
    ("fa", "نمابر: ۰۷۱-۳۶۲۱۸۸۰۴", ["۰۷۱-۳۶۲۱۸۸۰۴"]),
])
def test_country_codes_and_cue_words_of_phone_numbers(lang, text, expected):
    assert matches(lang, "DeidPhoneAfterCue", text) == expected


def phones_found(lang: str, text: str) -> list[str]:
    """The phone and fax numbers `deid_presidio_patterns` finds, its threshold applied."""
    return [entity for entity, label in ents(pipeline(lang)(text))
            if label in ("CONTACT_PHONE", "CONTACT_FAX")]


@pytest.mark.parametrize(("lang", "text", "expected"), [
    # A bracket before the number that it does not close is left out; an area code's stays.
    ("it", "la nipote (347 218 6650) è informata", ["347 218 6650"]),
    ("de", "Rückruf unter (09621) 47 11 23", ["(09621) 47 11 23"]),
    # Numbers of other countries of the language.
    ("en", "Duty biochemist: 0117 496 0312", ["0117 496 0312"]),
    ("ar", "رقم للرد: 0100 732 5816", ["0100 732 5816"]),
    # Medication schemes are no phone numbers, in any numbering plan.
    ("ar", "إيتوسوكسيميد 250-250-250 ملغ", []),
    ("fr", "Éthosuximide 250-250-250 mg", []),
    # A number with its country code wins over a year among its digits.
    ("de", "Kontakt Pat.: +39 347 218 2031 (liegt vor).", ["+39 347 218 2031"]),
])
def test_phone_numbers_of_the_language_countries(lang, text, expected):
    assert phones_found(lang, text) == expected
