"""Presidio recognizers per language: Presidio's predefined ones plus the project's own.

`build_recognizers(lang)` returns the recognizers that the `deid_presidio_patterns`
component runs for one of the ten languages:

* Presidio's predefined pattern recognizers (`predefined`): phone numbers
  (python-phonenumbers, with the region of the language), e-mail, URL, IBAN, IP address,
  credit card;
* Presidio's country-specific recognizers where they exist for our countries
  (German tax, insurance and ID numbers, Italian fiscal code, Polish PESEL,
  Turkish national ID, US SSN/ITIN, ...);
* the project's own `PatternRecognizer`s where Presidio has none, one module per kind:
  `dates`, `ages`, `postal_codes`, `case_numbers`, `dictation`, `phones` (numbers after a phone
  word), `streets` and `hospitals` (German only).

Regex pieces shared by the patterns are in `common`; the context words that raise a match's
score are in `context_words.yaml` (read by `context_words`). Every entity type that a
recognizer emits is mapped to a fine PHI label by `spacy_deid.schema.fine_label`.
"""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer

from spacy_deid.lang import validate_language
from spacy_deid.presidio.recognizers.ages import age_recognizer
from spacy_deid.presidio.recognizers.case_numbers import case_number_recognizer
from spacy_deid.presidio.recognizers.common import normalize_digits
from spacy_deid.presidio.recognizers.context_words import context_words, load_context_words
from spacy_deid.presidio.recognizers.dates import date_recognizer
from spacy_deid.presidio.recognizers.dictation import dictation_sign_recognizer
from spacy_deid.presidio.recognizers.hospitals import hospital_recognizers
from spacy_deid.presidio.recognizers.phones import (
    PHONE_ENTITY,
    fax_words,
    phone_after_cue_recognizer,
    phone_words,
)
from spacy_deid.presidio.recognizers.postal_codes import postal_code_recognizer
from spacy_deid.presidio.recognizers.predefined import country_recognizers, generic_recognizers
from spacy_deid.presidio.recognizers.streets import street_recognizers
from spacy_deid.schema import fine_label

__all__ = [
    "PHONE_ENTITY",
    "build_recognizers",
    "context_words",
    "country_recognizers",
    "fax_words",
    "generic_recognizers",
    "load_context_words",
    "normalize_digits",
    "own_recognizers",
    "phone_words",
]


def own_recognizers(lang: str) -> list[EntityRecognizer]:
    """The project's own recognizers for `lang` (German streets and hospitals; phone numbers
    after a phone word, dates, ages, postal codes, case numbers, dictation signs)."""
    return [
        *street_recognizers(lang),
        *hospital_recognizers(lang),
        phone_after_cue_recognizer(lang),
        date_recognizer(lang),
        age_recognizer(lang),
        postal_code_recognizer(lang),
        case_number_recognizer(lang),
        dictation_sign_recognizer(lang),
    ]


def build_recognizers(lang: str, phone_score: float = 0.4, possible_phone_score: float = 0.2,
                      extra_context: dict[str, list[str]] | None = None
                      ) -> list[EntityRecognizer]:
    """All recognizers for `lang`; `extra_context` adds context words per fine label."""
    validate_language(lang)
    recognizers = (generic_recognizers(lang, phone_score, possible_phone_score)
                   + country_recognizers(lang) + own_recognizers(lang))
    for recognizer in recognizers:
        add_extra_context(recognizer, extra_context or {})
    return recognizers


def add_extra_context(recognizer: EntityRecognizer, extra_context: dict[str, list[str]]) -> None:
    """Append the lowercased `extra_context` words of each fine label the recognizer emits."""
    labels = {fine_label(entity) for entity in recognizer.supported_entities}
    for label in sorted(labels):
        words = extra_context.get(label, [])
        recognizer.context = list(recognizer.context or []) + [w.lower() for w in words]
