"""Phone and fax numbers after a phone or fax word, taken whole."""

from __future__ import annotations

import pytest

from tests.presidio.recognizers.matching import matches


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("de", "Die Tochter ist unter Tel. 0 96 21 / 4 71 12 erreichbar.", ["0 96 21 / 4 71 12"]),
    ("de", "Ehemann (Tel. 0171-23 45 678) informiert.", ["0171-23 45 678"]),
    ("de", "Telefon: (09621) 47 11 23, Fax 09621/4712", ["(09621) 47 11 23", "09621/4712"]),
    ("de", "mobil 3 Tage nach der Operation", []),  # fewer than three digits
    ("de", "Tel. 12.03.2024", []),  # a date is no run of digit groups
    ("pl", "tel. 52 585 42 23, faks: 52 585 43 38", ["52 585 42 23", "52 585 43 38"]),
    ("ru", "тел.: +7 (4852) 72-61-30", ["+7 (4852) 72-61-30"]),
    ("fa", "تلفن: ۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵", ["۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵"]),
])
def test_a_number_after_a_phone_word_is_taken_whole(lang, text, expected):
    assert matches(lang, "DeidPhoneAfterCue", text) == expected
