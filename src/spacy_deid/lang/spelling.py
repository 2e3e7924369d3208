"""Spelling keys for names in Arabic script, where one name is written several ways.

Arabic and Persian spell a name with or without its long vowels ("ياسمين" / "ياسمن"), with
Arabic or Persian yeh and kaf, with or without hamza seats and short-vowel marks. Two
spellings of one name share a key: the letters normalised and the long-vowel letters
after the first dropped. A key shorter than `MIN_KEY_LETTERS` is not given, since a
short skeleton is shared by too many ordinary words.
"""

from __future__ import annotations

import re

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.profile import language_profile

ARABIC_SCRIPT_LANGUAGES = frozenset(
    lang for lang in LANGUAGES if language_profile(lang).script == "arabic"
)
MIN_KEY_LETTERS = 3
# Short-vowel marks, superscript alef, tatweel and ZWNJ: left out of the key.
MARKS = re.compile("[\u064b-\u065f\u0670\u0640\u200c]")
SAME_LETTER = str.maketrans({
    "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا",
    "ي": "ی", "ى": "ی", "ئ": "ی", "ك": "ک", "ة": "ه", "ؤ": "و",
})
LONG_VOWELS = re.compile("[اوی]")


def spelling_key(lang: str | None, word: str) -> str | None:
    """The key shared by the spellings of `word` in Arabic script (None for other
    languages and for keys under `MIN_KEY_LETTERS` letters)."""
    if lang not in ARABIC_SCRIPT_LANGUAGES:
        return None
    letters = MARKS.sub("", word).translate(SAME_LETTER)
    key = letters[:1] + LONG_VOWELS.sub("", letters[1:])
    return key if len(key) >= MIN_KEY_LETTERS else None
