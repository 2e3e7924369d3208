"""Phone and fax numbers: Presidio's phone recognizer per locale, and numbers after a cue.

Presidio's phone recognizer (python-phonenumbers) reads national numbers with the numbering
plans of the language's countries (`PHONE_REGIONS_BY_LANGUAGE`), but it and the NER often
take only the first digit groups of a number written with spaces and slashes. The project's
own "after a cue" pattern takes the whole run of digit groups after a phone or fax word, and
is sure enough to replace the shorter spans.
"""

from __future__ import annotations

import phonenumbers
import regex as re
from presidio_analyzer import Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import PhoneRecognizer

from spacy_deid.presidio.recognizers.common import CERTAIN, STRONG, own_recognizer
from spacy_deid.presidio.recognizers.context_words import context_words

# Entity type of the phone recognizers.
PHONE_ENTITY = "PHONE_NUMBER"

# Regions whose numbering plans python-phonenumbers reads national numbers (no +CC prefix)
# with: the country the corpus was adapted to first, then, for English and Arabic, populous
# countries of the language whose numbers the multi-genre documents write. Regions that found
# no further number in the train and dev documents but matched other numbers (Switzerland,
# Belgium, Canada, Belarus, Kazakhstan, Afghanistan, Jordan, the Emirates), or whose plans
# take blood pressures, medication schemes and ranges for phone numbers (`145/85`,
# `250-250-250`: Austria, Australia, Ireland, Lebanon, Iraq, Algeria, Tunisia), are left out.
PHONE_REGIONS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "de": ("DE",), "en": ("US", "GB"), "fr": ("FR",), "it": ("IT",), "pl": ("PL",),
    "ru": ("RU",), "uk": ("UA",), "tr": ("TR",), "ar": ("SY", "EG", "SA", "MA"), "fa": ("IR",),
}


def phone_words(lang: str) -> list[str]:
    """The words that announce a phone number in `lang` ("tel", "telefon", ...)."""
    return context_words("phone", lang)


def fax_words(lang: str) -> list[str]:
    """The words that announce a fax number in `lang` ("fax", "telefax", ...)."""
    return context_words("fax", lang)


def without_unpaired_bracket(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` without an opening bracket at the start, or a closing one at the end,
    that no bracket inside the match pairs: python-phonenumbers takes the bracket before a
    number in brackets (`(0621 3 14 15 92)`) as that of an area code."""
    match = text[start:end]
    if match.startswith("(") and match.count("(") > match.count(")"):
        return start + 1, end
    if match.endswith(")") and match.count(")") > match.count("("):
        return start, end - 1
    return start, end


# Doses for three or four times a day, joined by hyphens ("1-0-1", "250-250-250").
DOSE_SCHEME = re.compile(r"\d{1,4}(?:[-–]\d{1,4}){2,3}")
DOSE_SEPARATOR = re.compile("[-–]")
# An area code in brackets at the start of a number, perhaps with its country code.
BRACKETED_AREA_CODE = re.compile(r"\(\+?\d+\)")


def scheme_doses(number: str) -> list[str]:
    """The doses of a number written as a medication scheme (`DOSE_SCHEME`), else none."""
    return DOSE_SEPARATOR.split(number) if DOSE_SCHEME.fullmatch(number) else []


def is_dose_scheme(number: str) -> bool:
    """Whether a number is a medication scheme with a dose of 0 or the same dose each time
    (`1-0-1`, `250-250-250`, `1-1-1-0`): numbering plans take some of them for phone
    numbers."""
    doses = scheme_doses(number)
    return bool(doses) and ("0" in doses or len(set(doses)) == 1)


def marks_its_area(number: str) -> bool:
    """Whether a number is written with its country code (`+39 347 ...`) or its area code in
    brackets (`(0362) 22-03-12`): forms no date, dose or measurement takes."""
    return number.startswith("+") or BRACKETED_AREA_CODE.match(number) is not None


class LocalePhoneRecognizer(PhoneRecognizer):
    """Presidio's phone recognizer, scoring numbers by how surely they are phone numbers.

    It matches with python-phonenumbers' lenient POSSIBLE level, so that well-formed
    numbers which the numbering plan does not know (common in synthetic letters) are
    still found, and gives them `possible_score` instead of `SCORE`: a context word
    such as "Tel." then lifts them over the threshold. A valid number that marks its
    country or area code (`marks_its_area`) scores `STRONG`, above a date or year that the
    date patterns find among its digits; a bracket before or after the number that it does
    not pair is left out, and medication schemes are not taken.
    """

    def __init__(self, lang: str, score: float = 0.4, possible_score: float = 0.2) -> None:
        super().__init__(supported_language=lang,
                         supported_regions=PHONE_REGIONS_BY_LANGUAGE[lang],
                         context=phone_words(lang) + fax_words(lang), leniency=0,
                         name="PhoneRecognizer")
        self.SCORE = score
        self.possible_score = possible_score

    def analyze(self, text, entities, nlp_artifacts=None):  # noqa: D102
        return [result for result in super().analyze(text, entities, nlp_artifacts)
                if not is_dose_scheme(text[result.start:result.end])]

    def _get_recognizer_result(self, match, text, region, nlp_artifacts):  # noqa: D102
        result = super()._get_recognizer_result(match, text, region, nlp_artifacts)
        result.start, result.end = without_unpaired_bracket(text, match.start, match.end)
        if not phonenumbers.is_valid_number(match.number):
            result.score = self.possible_score
        elif marks_its_area(text[result.start:result.end]):
            result.score = max(result.score, STRONG)
        return result


def phone_after_cue_patterns(lang: str) -> list[Pattern]:
    """A phone or fax number right after the language's phone or fax word ("Tel.", "Fax:",
    "mobil"): the whole run of digit groups that follows, as far as spaces, slashes, hyphens
    and brackets join them ("0171-23 45 678", "0 96 21 / 4 71 12"), with three digits or
    more. Presidio's phone recognizer and the NER often take only the first groups of such
    a number and leave the subscriber number behind; this pattern is sure, so it takes the
    place of the shorter spans it covers."""
    words = sorted(set(phone_words(lang) + fax_words(lang)), key=lambda w: (-len(w), w))
    cue = "(?i:" + "|".join(re.escape(word) for word in words) + ")"
    # A country code opens only the first group ("+43(0)333 512-33"); a "+" after a slash
    # starts another number ("+380 532 61 28 04 / +380 532 61 28 05"). A bracket opens the
    # number only where it closes its area code ("(09621) 47 11 23"); one around the whole
    # number ("phone (07700 900461)") stays outside.
    first_group = r"(?:\(\+?\d+\)\d*|\+?\d[\d)]*)(?:\(0\)\d*)?"
    group = r"\(?\d[\d)]*"
    number = rf"{first_group}(?:(?:[ \t]?[/–-][ \t]?|[ \t])\(?{group}){{0,7}}"
    return [Pattern("number after a phone or fax word",
                    rf"(?<=(?<!\w){cue}\.?(?:[ \t]?(?i:nr|no)\.?)?[ \t]?:?[ \t]{{0,3}}\(?)"
                    rf"(?=(?:[\d()+ \t/–-]*?\d){{3}}){number}(?<=\d)(?![.,:]?\d)",
                    CERTAIN)]


def phone_after_cue_recognizer(lang: str) -> PatternRecognizer:
    """The recognizer of numbers after a phone or fax word (no context words: the cue is in
    the pattern)."""
    return own_recognizer(PHONE_ENTITY, f"DeidPhoneAfterCue_{lang}",
                          phone_after_cue_patterns(lang), [], lang)
