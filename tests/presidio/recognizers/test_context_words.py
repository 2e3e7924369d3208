"""The context words in `context_words.yaml`: complete for every language, and the ones the
recognizers use."""

from __future__ import annotations

import pytest

from spacy_deid.lang import LANGUAGES
from spacy_deid.presidio.recognizers import build_recognizers, context_words, load_context_words

# The kinds of context words, with the recognizers that use them.
USED_BY: dict[str, tuple[str, ...]] = {
    "phone": ("PhoneRecognizer",),
    "fax": ("PhoneRecognizer",),
    "date": ("DeidDate",),
    "postal_code": ("DeidPostalCode",),
    "case_number": ("DeidCaseNumber",),
}


def recognizer(lang: str, name: str):
    return next(r for r in build_recognizers(lang) if r.name.split("_")[0] == name)


def test_the_file_lists_every_kind_the_recognizers_use():
    assert set(load_context_words()) == set(USED_BY)


@pytest.mark.parametrize("kind", sorted(USED_BY))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_has_lowercase_words_in_every_language(kind, lang):
    words = context_words(kind, lang)
    assert words
    assert all(isinstance(word, str) and word == word.lower() and word.strip() == word
               for word in words)
    assert len(set(words)) == len(words)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["date", "postal_code", "case_number"])
def test_own_recognizers_use_the_words_of_their_kind(kind, lang):
    (name,) = USED_BY[kind]
    assert recognizer(lang, name).context == context_words(kind, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_recognizer_uses_phone_then_fax_words(lang):
    expected = context_words("phone", lang) + context_words("fax", lang)
    assert recognizer(lang, "PhoneRecognizer").context == expected


def test_callers_get_their_own_list():
    context_words("date", "de").append("changed")
    assert "changed" not in context_words("date", "de")
