"""The signs of the people who dictated, typed or entered a document.

Letters and reports end with the author's and the typist's short signs, and forms and
electronic reports name the user who entered them. These identify a person, yet they are
no names the NER can read. Three shapes are narrow enough to be matched on their own in
any language, so they need no context word:

* a dictation sign under a letter ("SevK."): three letters of the author's first name,
  the initial of the surname and a dot, in any cased script;
* a reference mark at the end of a line ("CMA/tr", "JC/NB/ls", "ГОС/рав", "al/jsk"): the
  author's initials, two capitals or more or two or three lower-case letters, then a slash
  and the typist's two or three lower-case letters; never after a number, where such a
  thing is a unit ("5 IE/ml");
* a login name with an underscore ("tech_mkz", "sultanov_rf"), which running text does
  not have.

Two more shapes are signs only as the value of a field ("Typed: ...", "كتابة: ...",
"Исп.: ..."), right after a colon (or a dash, for initials) and last on their line or
before a dash or a wider gap:

* in Arabic script, which has no case, initials with dots between them ("م.ح", "ع.ف.ش",
  "ر.س.ح/م.ع"); with a dot at the end or a number after them they are titles and
  abbreviations ("أ.د.", "ص.ب 1587");
* in a language not written in Latin letters, a word of three or more lower-case Latin
  letters and digits, perhaps joined by `.`, `_` or `-` ("hablm", "front.desk3"): the
  login of the user who typed it. In Latin-script languages such a field value is mostly
  an ordinary word ("Allergies: none"), so there it needs a name (`deid_user_names`).

Dictation signs, login names with an underscore and dotted initials are one word that
nothing else has, so they score `CERTAIN` and take the place of an NER entity of another
label on the same text ("golovanov_is" read as a postal code). A reference mark keeps the
usual score (annotators mark "EM/sd" whole or as two signs, and an NER that found one part
keeps it), and so does a Latin login as a field value, which may be a web host
("mehregan-hospital.ir") that the NER rightly took for a URL.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.lang.profile import language_profile
from spacy_deid.lang.spelling import ARABIC_SCRIPT_LANGUAGES
from spacy_deid.presidio.recognizers.common import CERTAIN, MEDIUM, own_recognizer
from spacy_deid.schema import DICTATION_SIGN_ENTITY

SIGN = r"(?<![\w.])\p{Lu}\p{Ll}{2}\p{Lu}\.(?!\w)"
REFERENCE_MARK = (r"(?<![\w/.])(?<!\d\s)(?:(?=(?:\p{Ll}*\p{Lu}){2})\p{Lu}[\p{Lu}\p{Ll}]{0,3}"
                  r"(?:/\p{Lu}[\p{Lu}\p{Ll}]{0,3})*|\p{Ll}{2,3})/\p{Ll}{2,3}(?=\)?[ \t]*$)")
LOGIN_NAME = r"(?<![\w.@/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-]|\.\w)"
# The value of a field: after a colon, last on its line or before a dash or a wider gap.
AFTER_COLON = r"(?<=:[ \t]{1,3})"
AFTER_COLON_OR_DASH = r"(?<=[:–—][ \t]{1,3})"
FIELD_VALUE_END = r"(?=[ \t]*$|[ \t]+[–—-]|[ \t]{2,})"
# Initials in a script without case: letters (no Latin, no digit), a dot between each two.
CASELESS_LETTER = r"[^\W\d_\p{Latin}]"
DOTTED_INITIALS = (AFTER_COLON_OR_DASH + rf"{CASELESS_LETTER}(?:\.{CASELESS_LETTER}){{1,3}}"
                   rf"(?:/{CASELESS_LETTER}(?:\.{CASELESS_LETTER}){{0,3}}){{0,2}}"
                   + FIELD_VALUE_END)
LATIN_LOGIN = (AFTER_COLON + r"(?!www\.)[a-z][a-z0-9]{2,}(?:[._-][a-z0-9]+)*" + FIELD_VALUE_END)


def dictation_sign_patterns(lang: str) -> list[Pattern]:
    """Dictation signs, reference marks at a line's end and login names with an underscore,
    and as field values, initials in Arabic script and Latin logins in a language of
    another script (see the module docstring), each trusted as a NAME_USERNAME without a
    context word; signs, logins with an underscore and dotted initials certain."""
    patterns = [Pattern("dictation sign", SIGN, CERTAIN),
                Pattern("reference mark", REFERENCE_MARK, MEDIUM),
                Pattern("login name", LOGIN_NAME, CERTAIN)]
    if lang in ARABIC_SCRIPT_LANGUAGES:
        patterns.append(Pattern("dotted initials", DOTTED_INITIALS, CERTAIN))
    if language_profile(lang).script != "latin":
        patterns.append(Pattern("latin login", LATIN_LOGIN, MEDIUM))
    return patterns


def dictation_sign_recognizer(lang: str) -> PatternRecognizer:
    """The author and typist sign recognizer of `lang` (no context words)."""
    return own_recognizer(DICTATION_SIGN_ENTITY, f"DeidDictationSign_{lang}",
                          dictation_sign_patterns(lang), [], lang)
