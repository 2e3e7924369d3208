"""Postal codes in the shape of each language's country.

Presidio's postal code recognizers cover few of our countries; these patterns give every
locale its shape ("00-950", "426008", "12345-6789") and trust it most when a place name
follows, since a bare digit run of the same shape is often something else.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import (
    MEDIUM,
    NOT_BEFORE,
    STRONG,
    WEAK,
    own_recognizer,
)
from spacy_deid.presidio.recognizers.context_words import context_words
from spacy_deid.schema import POSTAL_CODE_ENTITY


def postal_code_patterns(lang: str) -> list[Pattern]:
    """Postal code shapes of `lang`'s country, strongest when a place name follows."""
    # "426008 г. Ижевск", "61022 м. Харків": a locality abbreviation may stand before the name
    city = r"(?=,?\s+(?:г\.\s?|м\.\s?)?\p{Lu})"
    shapes = {
        "de": r"\d{5}", "fr": r"\d{5}", "it": r"\d{5}", "tr": r"\d{5}", "uk": r"\d{5}",
        "en": r"\d{5}(?:-\d{4})?", "pl": r"\d{2}-\d{3}", "ru": r"\d{6}", "ar": r"\d{4,5}",
        "fa": r"\d{5}-?\d{5}",
    }
    shape = shapes[lang]
    patterns = [
        Pattern("postal code before a place name", rf"{NOT_BEFORE}{shape}(?![\w-]){city}",
                MEDIUM),
        Pattern("postal code", rf"{NOT_BEFORE}{shape}(?![\w-])", WEAK),
    ]
    if lang == "en":
        patterns.append(Pattern("ZIP after a state code", rf"(?<=\b\p{{Lu}}{{2}}\s){shape}"
                                r"(?![\w-])", STRONG))
    return patterns


def postal_code_recognizer(lang: str) -> PatternRecognizer:
    """The postal code recognizer of `lang`, with the language's postal code context words."""
    return own_recognizer(POSTAL_CODE_ENTITY, f"DeidPostalCode_{lang}",
                          postal_code_patterns(lang), context_words("postal_code", lang), lang)
