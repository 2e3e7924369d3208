"""Faker and Mimesis locales per language: where surrogate and first-name data come from."""

from __future__ import annotations

from spacy_deid.lang import LANGUAGES

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
