"""Spelling keys: the spellings of one name in Arabic script share a key."""

import pytest

from spacy_deid.lang.spelling import spelling_key


@pytest.mark.parametrize("lang, first, second", [
    ("ar", "ياسمين", "ياسمن"),  # with and without the long vowel
    ("ar", "أحمد", "احمد"),  # hamza seat
    ("ar", "فاطمة", "فاطمه"),  # teh marbuta
    ("fa", "علیرضا", "عليرضا"),  # Persian and Arabic yeh
    ("fa", "کاظم", "كاظم"),  # Persian and Arabic kaf
    ("ar", "مُحَمَّد", "محمد"),  # short-vowel marks
])
def test_spellings_of_one_name_share_a_key(lang, first, second):
    assert spelling_key(lang, first) == spelling_key(lang, second) is not None


def test_different_names_have_different_keys():
    assert spelling_key("ar", "ياسمين") != spelling_key("ar", "حسين")


@pytest.mark.parametrize("lang, word", [
    ("ar", "علي"),  # a key of two letters is shared by too many words
    ("de", "Albrecht"),  # not an Arabic-script language
    ("ar", ""),
])
def test_no_key_for_short_words_and_other_languages(lang, word):
    assert spelling_key(lang, word) is None
