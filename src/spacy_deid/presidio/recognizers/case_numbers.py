"""Case, record, insurance, lot and serial numbers.

Hospital case numbers, record numbers and insurance numbers have no checksum or fixed shape
that Presidio could validate; a long digit run (with an optional letter prefix) scores low on
its own and counts only when a context word such as "Fallnummer" or "MRN" stands before it.
A code of capital letters and at least five digits, in parts joined by "-" or "/"
("TDM-25-137642", "S5-2024-067138", "22K0653X"), is an identifier without a context word:
clinical text writes units, doses, dates and gene names otherwise (lower-case letters,
fewer digits).
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import MEDIUM, NOT_BEFORE, WEAK, own_recognizer
from spacy_deid.presidio.recognizers.context_words import context_words
from spacy_deid.schema import CASE_NUMBER_ENTITY

# Capital letters and digits in parts joined by "-" or "/", with a capital letter and five
# digits or more, not inside a longer word, path or number.
CODE = (r"(?<![\w./-])(?=[\p{Lu}\d/-]*\p{Lu})(?=(?:[\p{Lu}/-]*\d){5})"
        r"[\p{Lu}\d]+(?:[-/][\p{Lu}\d]+)*(?!\w|[-/.]\w)")


def case_number_patterns(lang: str) -> list[Pattern]:
    """Case, record and insurance numbers: long digit runs, trusted only with context; codes
    of capitals and five digits or more, trusted alone."""
    return [
        Pattern("digit run of 6-12", rf"{NOT_BEFORE}\d{{6,12}}(?![\w-]|[.,]\d)", WEAK),
        Pattern("letter prefix and digits", rf"{NOT_BEFORE}\p{{Lu}}{{1,3}}[-/]?\d{{6,12}}"
                r"(?![\w-])", WEAK),
        Pattern("code of capitals and digits", CODE, MEDIUM),
    ]


def case_number_recognizer(lang: str) -> PatternRecognizer:
    """The case number recognizer of `lang`, with the language's case number context words."""
    return own_recognizer(CASE_NUMBER_ENTITY, f"DeidCaseNumber_{lang}",
                          case_number_patterns(lang), context_words("case_number", lang), lang)
