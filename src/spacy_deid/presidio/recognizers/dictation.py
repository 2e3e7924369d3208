"""Dictation signs under a report ("SevK."), the author's short sign.

The sign identifies the person who dictated the letter, yet it is no name the NER can read;
its shape (three letters of the first name, the initial of the surname and a dot) is narrow
enough to be matched on its own in any cased script.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import MEDIUM, own_recognizer
from spacy_deid.schema import DICTATION_SIGN_ENTITY


def dictation_sign_patterns() -> list[Pattern]:
    """The dictation sign under a report ("SevK.": three letters of the author's first name
    and the initial of the surname, then a dot), in any cased script. The shape, dot
    included, is narrow enough to be trusted as a NAME_USERNAME without a context word."""
    return [Pattern("dictation sign", r"(?<![\w.])\p{Lu}\p{Ll}{2}\p{Lu}\.(?!\w)", MEDIUM)]


def dictation_sign_recognizer(lang: str) -> PatternRecognizer:
    """The dictation sign recognizer, the same in every language (no context words)."""
    return own_recognizer(DICTATION_SIGN_ENTITY, f"DeidDictationSign_{lang}",
                          dictation_sign_patterns(), [], lang)
