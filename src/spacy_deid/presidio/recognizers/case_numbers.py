"""Case, record and insurance numbers announced by a context word.

Hospital case numbers, record numbers and insurance numbers have no checksum or fixed shape
that Presidio could validate; a long digit run (with an optional letter prefix) scores low on
its own and counts only when a context word such as "Fallnummer" or "MRN" stands before it.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import NOT_BEFORE, WEAK, own_recognizer
from spacy_deid.presidio.recognizers.context_words import context_words
from spacy_deid.schema import CASE_NUMBER_ENTITY


def case_number_patterns(lang: str) -> list[Pattern]:
    """Case, record and insurance numbers: long digit runs, trusted only with context."""
    return [
        Pattern("digit run of 6-12", rf"{NOT_BEFORE}\d{{6,12}}(?![\w-]|[.,]\d)", WEAK),
        Pattern("letter prefix and digits", rf"{NOT_BEFORE}\p{{Lu}}{{1,3}}[-/]?\d{{6,12}}"
                r"(?![\w-])", WEAK),
    ]


def case_number_recognizer(lang: str) -> PatternRecognizer:
    """The case number recognizer of `lang`, with the language's case number context words."""
    return own_recognizer(CASE_NUMBER_ENTITY, f"DeidCaseNumber_{lang}",
                          case_number_patterns(lang), context_words("case_number", lang), lang)
