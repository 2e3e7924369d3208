"""Phone and fax numbers: Presidio's phone recognizer per locale, and numbers after a cue.

Presidio's phone recognizer (python-phonenumbers) reads national numbers with the region of
the language, but it and the NER often take only the first digit groups of a number written
with spaces and slashes. The project's own "after a cue" pattern takes the whole run of digit
groups after a phone or fax word, and is sure enough to replace the shorter spans.
"""

from __future__ import annotations

import phonenumbers
import regex as re
from presidio_analyzer import Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import PhoneRecognizer

from spacy_deid.presidio.recognizers.common import CERTAIN, own_recognizer
from spacy_deid.presidio.recognizers.context_words import context_words

# Entity type of the phone recognizers.
PHONE_ENTITY = "PHONE_NUMBER"

# Region used by python-phonenumbers to read national numbers (no +CC prefix).
PHONE_REGION_BY_LANGUAGE: dict[str, str] = {
    "de": "DE", "en": "US", "fr": "FR", "it": "IT", "pl": "PL",
    "ru": "RU", "uk": "UA", "tr": "TR", "ar": "SY", "fa": "IR",
}


def phone_words(lang: str) -> list[str]:
    """The words that announce a phone number in `lang` ("tel", "telefon", ...)."""
    return context_words("phone", lang)


def fax_words(lang: str) -> list[str]:
    """The words that announce a fax number in `lang` ("fax", "telefax", ...)."""
    return context_words("fax", lang)


class LocalePhoneRecognizer(PhoneRecognizer):
    """Presidio's phone recognizer, scoring possible-but-invalid numbers lower.

    It matches with python-phonenumbers' lenient POSSIBLE level, so that well-formed
    numbers which the numbering plan does not know (common in synthetic letters) are
    still found, and gives them `possible_score` instead of `SCORE`: a context word
    such as "Tel." then lifts them over the threshold.
    """

    def __init__(self, lang: str, score: float = 0.4, possible_score: float = 0.2) -> None:
        super().__init__(supported_language=lang,
                         supported_regions=(PHONE_REGION_BY_LANGUAGE[lang],),
                         context=phone_words(lang) + fax_words(lang), leniency=0,
                         name="PhoneRecognizer")
        self.SCORE = score
        self.possible_score = possible_score

    def _get_recognizer_result(self, match, text, region, nlp_artifacts):  # noqa: D102
        result = super()._get_recognizer_result(match, text, region, nlp_artifacts)
        if not phonenumbers.is_valid_number(match.number):
            result.score = self.possible_score
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
    group = r"\(?\+?\d[\d)]*"
    number = rf"{group}(?:(?:[ \t]?[/–-][ \t]?|[ \t])\(?{group}){{0,7}}"
    return [Pattern("number after a phone or fax word",
                    rf"(?<=(?<!\w){cue}\.?(?:[ \t]?(?i:nr|no)\.?)?[ \t]?:?[ \t]{{0,3}})"
                    rf"(?=(?:[\d()+ \t/–-]*?\d){{3}}){number}(?<=\d)(?![.,:]?\d)",
                    CERTAIN)]


def phone_after_cue_recognizer(lang: str) -> PatternRecognizer:
    """The recognizer of numbers after a phone or fax word (no context words: the cue is in
    the pattern)."""
    return own_recognizer(PHONE_ENTITY, f"DeidPhoneAfterCue_{lang}",
                          phone_after_cue_patterns(lang), [], lang)
