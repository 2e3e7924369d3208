"""The signs of the people who dictated, typed or entered a document.

Letters and reports end with the author's and the typist's short signs, and forms and
electronic reports name the user who entered them. These identify a person, yet they are
no names the NER can read. Three shapes are narrow enough to be matched on their own in
any language, so they need no context word:

* a dictation sign under a letter ("SevK."): three letters of the author's first name,
  the initial of the surname and a dot, in any cased script;
* a reference mark at the end of a line ("CMA/tr", "JC/NB/ls", "ГОС/рав"): the author's
  initials, two capitals or more, then a slash and the typist's two or three lower-case
  letters; never after a number, where such a thing is a unit ("5 IE/ml");
* a login name with an underscore ("tech_msz", "suleymanov_rf"), which running text does
  not have.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import MEDIUM, own_recognizer
from spacy_deid.schema import DICTATION_SIGN_ENTITY

SIGN = r"(?<![\w.])\p{Lu}\p{Ll}{2}\p{Lu}\.(?!\w)"
REFERENCE_MARK = (r"(?<![\w/.])(?<!\d\s)(?=(?:\p{Ll}*\p{Lu}){2})\p{Lu}[\p{Lu}\p{Ll}]{0,3}"
                  r"(?:/\p{Lu}[\p{Lu}\p{Ll}]{0,3})*/\p{Ll}{2,3}(?=\)?[ \t]*$)")
LOGIN_NAME = r"(?<![\w.@/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-]|\.\w)"


def dictation_sign_patterns() -> list[Pattern]:
    """Dictation signs, reference marks at a line's end and login names with an underscore
    (see the module docstring), each trusted as a NAME_USERNAME without a context word."""
    return [Pattern("dictation sign", SIGN, MEDIUM),
            Pattern("reference mark", REFERENCE_MARK, MEDIUM),
            Pattern("login name", LOGIN_NAME, MEDIUM)]


def dictation_sign_recognizer(lang: str) -> PatternRecognizer:
    """The author and typist sign recognizer, the same in every language (no context words)."""
    return own_recognizer(DICTATION_SIGN_ENTITY, f"DeidDictationSign_{lang}",
                          dictation_sign_patterns(), [], lang)
