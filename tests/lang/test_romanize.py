import re

import pytest

from spacy_deid.lang.romanize import initial_pattern, latin_pattern


@pytest.mark.parametrize(("word", "spellings"), [
    ("Öztürk", ["ozturk", "oeztuerk"]),
    ("Ménard", ["menard"]),
    ("Wróbel", ["wrobel"]),
    ("Гречанюк", ["grechanyuk", "hrechaniuk"]),
    ("Щукин", ["shchukin", "schukin"]),
    ("السويلم", ["suwailem", "alsuwailem", "al-suwailem"]),
    ("زرین‌کلاه", ["zarinkolah", "zarrinkolah"]),
])
def test_usual_latin_spellings_are_accepted(word, spellings):
    for spelling in spellings:
        assert re.fullmatch(latin_pattern(word), spelling), spelling


@pytest.mark.parametrize(("word", "other"), [
    ("Öztürk", "ozturka"), ("Гречанюк", "grechanok"), ("Ménard", "menart")])
def test_other_words_are_not(word, other):
    assert not re.fullmatch(latin_pattern(word), other)


def test_initials():
    assert re.fullmatch(initial_pattern("Шаповал"), "sh")
    assert re.fullmatch(initial_pattern("Шаповал"), "s")
    assert re.fullmatch(initial_pattern("الهاجري"), "h")
    assert initial_pattern("1234") is None
