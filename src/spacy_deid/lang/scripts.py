"""Letters of each writing system: what same-shape surrogates draw a letter from, and what
counts as a run of letters in any script.

Keyed by the first word of a character's Unicode name ("LATIN", "CYRILLIC", ...), so that a
letter is replaced by one of its own script whatever the document's language.
"""

from __future__ import annotations

import re
import string

# a run of letters of any script: no digit, underscore, space or punctuation
LETTER_RUN = re.compile(r"[^\W\d_]+")

SCRIPT_ALPHABETS: dict[str, str] = {
    "LATIN": string.ascii_lowercase,
    "CYRILLIC": "абвгдежзиклмнопрстуфхцчшэюя",
    "ARABIC": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "GREEK": "αβγδεζηθικλμνξοπρστυφχψω",
    "HEBREW": "אבגדהוזחטיכלמנסעפצקרשת",
}
