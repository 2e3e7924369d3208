"""Regex pieces, scores and helpers shared by the project's own recognizers.

All patterns are written for ASCII digits; the component runs them on a copy of the text in
which Arabic-Indic and Persian digits are replaced one-for-one by ASCII digits
(`normalize_digits`), so offsets are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex as re
from presidio_analyzer import Pattern, PatternRecognizer

# Scores of the project's own patterns, before context enhancement (+0.35).
STRONG, MEDIUM, WEAK = 0.85, 0.6, 0.2

# Score of patterns that are sure: they replace any entity they overlap (the override score
# of `deid_presidio_patterns`).
CERTAIN = 1.0

DIGIT_TRANSLATION = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")

# Own patterns are case-sensitive unless they say (?i); no IGNORECASE globally, so a
# "capitalised word after a postal code" cue means what it says.
OWN_PATTERN_FLAGS = re.DOTALL | re.MULTILINE

NOT_BEFORE = r"(?<![\w./:-])"
NOT_AFTER = r"(?![\w/-]|\.\d)"
DAY = r"(?:0?[1-9]|[12]\d|3[01])"
MONTH = r"(?:0?[1-9]|1[0-2])"
YEAR = r"(?:1[89]\d\d|20\d\d)"
# A year of the Hijri or Solar Hijri calendar, as Arabic and Persian write after a month name.
HIJRI_YEAR = r"1[34]\d\d"
YEAR2 = r"\d\d"


def case_insensitive_alternation(patterns: Iterable[str]) -> str:
    """One case-insensitive group matching any of `patterns`, the longest tried first so
    that a longer word wins over its prefix ("age of" over "age")."""
    return "(?i:" + "|".join(sorted(patterns, key=len, reverse=True)) + ")"


def normalize_digits(text: str) -> str:
    """Replace Arabic-Indic and Persian digits by ASCII digits, one character for one."""
    return text.translate(DIGIT_TRANSLATION)


def own_recognizer(entity: str, name: str, patterns: list[Pattern], context: list[str],
                   lang: str) -> PatternRecognizer:
    """A Presidio `PatternRecognizer` for `lang` with the flags of the project's patterns."""
    return PatternRecognizer(supported_entity=entity, name=name, patterns=patterns,
                             context=context, supported_language=lang,
                             global_regex_flags=OWN_PATTERN_FLAGS)
