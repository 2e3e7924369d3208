"""Ages: a number that an age word before or after it makes an age.

The NERs learned ages from the way letters write them (`a 45-year-old patient`), and other
documents write them otherwise (`67 yo`, `Yaş: 65`, `سن: ۴۵`, `at age 13`). A number from 0
to 125, with no digit, dot or slash next to it, is an age when one of the language's age
words stands right before it (a colon between them allowed) or right after it (a hyphen or
dash between them allowed); the words are the language profile's `age_cues`. An ordinal dot
after the number is part of the age (`ab dem 55. Lj.`). The span is the number alone, as the
annotations have it.
"""

from __future__ import annotations

import regex as re
from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.lang.profile import language_profile
from spacy_deid.presidio.recognizers.common import (
    MEDIUM,
    case_insensitive_alternation,
    own_recognizer,
)
from spacy_deid.schema import AGE_ENTITY

AGE_NUMBER = r"(?:12[0-5]|1[01]\d|[1-9]?\d)(?!\d|[.,]\d|/)"
# No word, decimal, date or time runs into a number before an age word.
NOTHING_JOINED_BEFORE = r"(?<![\w.,/:-]|\d[.,])"


def age_patterns(lang: str) -> list[Pattern]:
    """An age number after one of `lang`'s age words, before one, and with a plain word for
    years where a person word or a bracket makes it an age (see the module)."""
    profile = language_profile(lang)
    cues = profile.age_cues
    patterns = []
    if cues["before"]:
        before = case_insensitive_alternation(cues["before"])
        patterns.append(Pattern("number after an age word",
                                rf"(?<=(?<!\w){before}[ \t]*:?[ \t]*){AGE_NUMBER}(?!\w)",
                                MEDIUM))
    if cues["after"]:
        after = case_insensitive_alternation(cues["after"])
        patterns.append(Pattern("number before an age word",
                                rf"{NOTHING_JOINED_BEFORE}{AGE_NUMBER}[.°º]?"
                                rf"(?=[ \t]?(?:[-–][ \t]?)?{after}(?!\w))", MEDIUM))
    years = case_insensitive_alternation(cues["years"])
    people = (*profile.people["female"], *profile.people["male"])
    person = case_insensitive_alternation(re.escape(word) for word in people)
    link = ""
    if cues["person_link"]:
        link = rf"(?:{case_insensitive_alternation(cues['person_link'])}[ \t]*)?"
    patterns += [
        Pattern("person word, number, years",
                rf"(?<=(?<!\w){person}[ \t]+{link}){AGE_NUMBER}(?=[ \t]?{years}(?!\w))",
                MEDIUM),
        Pattern("(number years)",
                rf"(?<=\([ \t]?){AGE_NUMBER}(?=[ \t]?{years}[ \t]?\))", MEDIUM),
    ]
    return patterns


def age_recognizer(lang: str) -> PatternRecognizer:
    """The age recognizer of `lang` (no context words: the age word is part of the pattern)."""
    return own_recognizer(AGE_ENTITY, f"DeidAge_{lang}", age_patterns(lang), [], lang)
