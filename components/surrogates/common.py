"""Shared helpers for surrogate generation: locales, resources, seeding, case and digits."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from functools import cache
from importlib import resources

from ..labels import LANGUAGES

# Faker locale per project language. Arabic: Faker's generic `ar_AA` has the most complete
# Arabic person data (first names by gender); places come from our own resources (Syria).
FAKER_LOCALE_BY_LANGUAGE: dict[str, str] = {
    "de": "de_DE",
    "en": "en_US",
    "fr": "fr_FR",
    "it": "it_IT",
    "pl": "pl_PL",
    "ru": "ru_RU",
    "uk": "uk_UA",
    "tr": "tr_TR",
    "ar": "ar_AA",
    "fa": "fa_IR",
}
assert set(FAKER_LOCALE_BY_LANGUAGE) == set(LANGUAGES)

# Mimesis locales per project language. Their first-name lists add common names that
# Faker's lack ("Burcu" in Turkish); Arabic takes every regional list.
MIMESIS_LOCALES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "de": ("de", "de-at", "de-ch"),
    "en": ("en", "en-au", "en-ca", "en-gb"),
    "fr": ("fr",),
    "it": ("it",),
    "pl": ("pl",),
    "ru": ("ru",),
    "uk": ("uk",),
    "tr": ("tr",),
    "ar": ("ar", "ar-ae", "ar-dz", "ar-eg", "ar-jo", "ar-kw", "ar-ma", "ar-om", "ar-qa",
           "ar-sa", "ar-sy", "ar-tn", "ar-ye"),
    "fa": ("fa",),
}
assert set(MIMESIS_LOCALES_BY_LANGUAGE) == set(LANGUAGES)

# Digit systems found in the corpus; dates and shapes are written back in the original's.
DIGIT_SYSTEMS: dict[str, str] = {
    "latin": "0123456789",
    "persian": "۰۱۲۳۴۵۶۷۸۹",
    "arabic": "٠١٢٣٤٥٦٧٨٩",
}
_TO_LATIN = {ord(ch): str(i) for system in DIGIT_SYSTEMS.values() for i, ch in enumerate(system)}


@cache
def load_resource(name: str) -> dict:
    """Load a JSON file shipped in `spacy_deid/resources/` (cached)."""
    text = resources.files("spacy_deid").joinpath("resources", name).read_text(encoding="utf-8")
    return json.loads(text)


def derive_seed(*parts: object, key: str | None = None) -> int:
    """A 64-bit seed from `parts`; keyed (HMAC-SHA256) when `key` is given, else BLAKE2b."""
    message = "\x1f".join(str(part) for part in parts).encode("utf-8")
    if key is not None:
        digest = hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()
    else:
        digest = hashlib.blake2b(message, digest_size=16).digest()
    return int.from_bytes(digest[:8], "big")


def make_rng(*parts: object, key: str | None = None) -> random.Random:
    """A `random.Random` seeded from `parts` (see `derive_seed`)."""
    return random.Random(derive_seed(*parts, key=key))


def to_latin_digits(text: str) -> str:
    """Replace Persian and Arabic-Indic digits by ASCII digits (same length)."""
    return text.translate(_TO_LATIN)


def digit_system(text: str) -> str:
    """The digit system of the first digit in `text` ("latin" when there is none)."""
    for ch in text:
        for name, digits in DIGIT_SYSTEMS.items():
            if ch in digits:
                return name
    return "latin"


def to_digit_system(text: str, system: str) -> str:
    """Write the ASCII digits of `text` in `system`."""
    if system == "latin":
        return text
    digits = DIGIT_SYSTEMS[system]
    return "".join(digits[int(ch)] if "0" <= ch <= "9" else ch for ch in text)


def upper(word: str, lang: str | None = None) -> str:
    """Uppercase `word`, with the Turkish dotted/dotless i for Turkish."""
    if lang == "tr":
        word = word.replace("i", "İ").replace("ı", "I")
    return word.upper()


def lower(word: str, lang: str | None = None) -> str:
    """Lowercase `word`, with the Turkish dotted/dotless i for Turkish."""
    if lang == "tr":
        word = word.replace("I", "ı").replace("İ", "i")
    return word.lower()


def match_case(template: str, word: str, lang: str | None = None) -> str:
    """Give `word` the letter case pattern of `template` (UPPER, lower, Title)."""
    letters = [ch for ch in template if ch.isalpha()]
    if not letters or not any(ch.isupper() or ch.islower() for ch in letters):
        return word
    if len(letters) > 1 and all(ch.isupper() for ch in letters if ch.isupper() or ch.islower()):
        return upper(word, lang)
    if all(ch.islower() for ch in letters if ch.isupper() or ch.islower()):
        return lower(word, lang)
    if letters[0].isupper() and word[:1].islower():
        return word[:1].upper() + word[1:]
    return word
