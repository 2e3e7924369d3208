"""Dates in the locale's numeric and month-name formats.

Presidio has no date recognizer that knows the month names and numeric orders of all ten
languages, and dates are the most frequent PHI in clinical letters; these patterns cover
full dates, partial dates (month and year, day and month) and month names alone, with
scores that rise with how surely the shape is a date.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.lang.profile import language_profile
from spacy_deid.presidio.recognizers.common import (
    DAY,
    HIJRI_YEAR,
    MEDIUM,
    MONTH,
    NOT_AFTER,
    NOT_BEFORE,
    STRONG,
    WEAK,
    YEAR,
    YEAR2,
    case_insensitive_alternation,
    own_recognizer,
)
from spacy_deid.presidio.recognizers.context_words import context_words
from spacy_deid.schema import DATE_ENTITY


def _month_alternation(lang: str) -> str:
    # Persian writes the ezafe on a month name before a year or a day ("ژانویهٔ ۲۰۱۸").
    ending = "(?:\u0654|\u200c?ی)?" if lang == "fa" else r"\.?"
    return case_insensitive_alternation(language_profile(lang).month_patterns) + ending


def date_patterns(lang: str) -> list[Pattern]:
    """Numeric and month-name date formats of `lang`'s locale, with their scores."""
    month_name = _month_alternation(lang)
    # After a month name, Persian writes Solar Hijri years too ("۱۱ مرداد ۱۴۰۳").
    named_year = rf"(?:{YEAR}|{HIJRI_YEAR})" if lang == "fa" else YEAR
    year_or_short = rf"(?:{named_year}|'?{YEAR2})"
    # Russian writes "13 июля 2025 г."; the annotations keep the "г." with month-name dates.
    year_mark = r"(?:\s?г\.)?" if lang == "ru" else ""
    patterns = [
        Pattern("day-month-year, same separator", rf"{NOT_BEFORE}{DAY}([./-]){MONTH}\1"
                rf"(?:{YEAR}|{YEAR2}){NOT_AFTER}", STRONG),
        Pattern("month/day/year (US)", rf"{NOT_BEFORE}{MONTH}/{DAY}/(?:{YEAR}|{YEAR2})"
                rf"{NOT_AFTER}", STRONG),
        Pattern("ISO or Persian year-month-day", rf"{NOT_BEFORE}{YEAR}([./-]){MONTH}\1{DAY}"
                rf"{NOT_AFTER}", STRONG),
        Pattern("month and year", rf"{NOT_BEFORE}{MONTH}[./]{YEAR}{NOT_AFTER}", MEDIUM),
        Pattern("year and month", rf"{NOT_BEFORE}{YEAR}/{MONTH}{NOT_AFTER}",
                MEDIUM if lang == "fa" else WEAK),
        Pattern("day/month without year", rf"{NOT_BEFORE}{DAY}/{MONTH}{NOT_AFTER}",
                WEAK if lang != "en" else 0.0),
        Pattern("year alone", rf"{NOT_BEFORE}{YEAR}(?![\w/-]|[.:]\d)", MEDIUM),
        Pattern("day month-name year", rf"(?<!\w){DAY}(?:\.|er|°|th|st|nd|rd)?\s+{month_name}"
                rf"(?:,?\s+{year_or_short}{year_mark})?(?!\w)", STRONG),
        Pattern("month-name day, year", rf"(?<!\w){month_name}\s+{DAY}(?:st|nd|rd|th)?,?"
                rf"\s+{YEAR}(?!\w)", STRONG),
        Pattern("month-name day", rf"(?<!\w){month_name}\s+{DAY}(?:st|nd|rd|th)?(?!\w)",
                MEDIUM),
        Pattern("month-name year", rf"(?<!\w){month_name}\s+{named_year}{year_mark}(?!\w)",
                STRONG),
        Pattern("month-name short year", rf"(?<!\w){month_name}\s+'?{YEAR2}(?!\w)", MEDIUM),
        Pattern("month name alone", rf"(?<!\w){month_name}(?!\w)", WEAK),
        Pattern("month/2-digit year", rf"{NOT_BEFORE}{MONTH}/{YEAR2}{NOT_AFTER}", MEDIUM),
        Pattern("month/day without year", rf"{NOT_BEFORE}{MONTH}/{DAY}{NOT_AFTER}", WEAK),
        Pattern("day.month without year", rf"{NOT_BEFORE}{DAY}\.(?:0[1-9]|1[0-2])\.?"
                r"(?![\w/-]|\.\d)", WEAK),
    ]
    if lang == "de":
        patterns.append(Pattern("day.month. without year", rf"{NOT_BEFORE}{DAY}\.{MONTH}\."
                                r"(?!\d)", MEDIUM))
    return patterns


def date_recognizer(lang: str) -> PatternRecognizer:
    """The date recognizer of `lang`, with the language's date context words."""
    return own_recognizer(DATE_ENTITY, f"DeidDate_{lang}", date_patterns(lang),
                          context_words("date", lang), lang)
