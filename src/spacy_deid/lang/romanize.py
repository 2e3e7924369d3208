"""Latin spellings of a name, as regular expressions: how a login name may write it.

Hospital systems name their users in Latin letters ("fmorgenstock", "sultanov_rf",
"msuwailem") whatever the script of the person's name. A login writes a name the way its
owner or an administrator chose, so one name has several spellings: "Öztürk" as "ozturk"
or "oeztuerk", "Гречанюк" as "grechanyuk" or "hrechaniuk", "السويلم" as "alsuwailem" or
"suwailem". `latin_pattern` gives a regular expression that accepts such spellings of a
word; `initial_pattern` one for its first letter. Letters whose spelling varies have their
variants listed here; every other letter is spelt by `anyascii`. Arabic script leaves out
short vowels and the doubling of consonants, so up to two Latin vowels may follow each
letter, a one-letter spelling may be doubled ("زرین" as "zarrin"), and the article "ال"
may be left out.
"""

from __future__ import annotations

import re
from functools import cache

from anyascii import anyascii

# Letters with more than one usual Latin spelling ("" lets a letter be left out).
VARIANTS: dict[str, tuple[str, ...]] = {
    # Latin letters with a two-letter spelling
    "ä": ("ae", "a"), "ö": ("oe", "o"), "ü": ("ue", "u"), "ß": ("ss", "s"),
    "ø": ("oe", "o"), "å": ("aa", "a"), "æ": ("ae",), "œ": ("oe",),
    # Cyrillic (Russian and Ukrainian transliteration systems)
    "в": ("v", "w"), "г": ("g", "h", "gh"), "е": ("e", "ye", "je"), "ё": ("e", "yo", "jo", "io"),
    "є": ("ye", "ie", "je", "e"), "ж": ("zh", "z", "j"), "и": ("i", "y"), "ї": ("yi", "i", "ji"),
    "й": ("y", "i", "j", ""), "у": ("u", "ou"), "х": ("kh", "h", "x", "ch"),
    "ц": ("ts", "c", "tz", "z"), "ч": ("ch", "c", "tch"), "ш": ("sh", "s"),
    "щ": ("shch", "sch", "sh"), "ъ": ("",), "ы": ("y", "i"), "ь": ("",),
    "ю": ("yu", "iu", "ju", "u"), "я": ("ya", "ia", "ja", "a"),
    # Arabic and Persian letters
    "ا": ("a", "aa", "e", "i", ""), "أ": ("a", "e", "i", "o", "u"), "إ": ("i", "e"),
    "آ": ("a", "aa"), "ب": ("b",), "پ": ("p",), "ت": ("t",), "ث": ("th", "s", "t"),
    "ج": ("j", "g", "dj"), "چ": ("ch",), "ح": ("h", ""), "خ": ("kh", "x", "h"), "د": ("d",),
    "ذ": ("dh", "z", "th", "d"), "ر": ("r",), "ز": ("z", "s"), "ژ": ("zh", "j"), "س": ("s",),
    "ش": ("sh", "ch", "s"), "ص": ("s",), "ض": ("d", "dh", "z"), "ط": ("t",), "ظ": ("z", "dh"),
    "ع": ("a", "e", "i", "o", "u", ""), "غ": ("gh", "g"), "ف": ("f", "v", "ph"),
    "ق": ("q", "k", "gh"), "ك": ("k",), "ک": ("k",), "گ": ("g",), "ل": ("l",), "م": ("m",),
    "ن": ("n",), "ه": ("h", "a", "e", ""), "ة": ("a", "ah", "e", ""),
    "و": ("w", "u", "o", "oo", "ou", "v"), "ي": ("y", "i", "ee", "ei", "ai", "e", ""),
    "ی": ("y", "i", "ee", "ei", "ai", "e", ""), "ى": ("a", "y", "i", ""),
    "ئ": ("", "y"), "ؤ": ("", "w"), "ء": ("",),
}
ARABIC_LETTER = re.compile(r"[\u0620-\u064a\u0671-\u06d3]")
# Short vowels that Arabic script does not write.
UNWRITTEN_VOWELS = "[aeiou]{0,2}"
ARABIC_ARTICLE = "ال"


def letter_spellings(letter: str) -> tuple[str, ...]:
    """The Latin spellings of one lower-case letter ("" for a letter written with none)."""
    if letter in VARIANTS:
        return VARIANTS[letter]
    spelt = re.sub(r"[^a-z]", "", anyascii(letter).lower())
    return (spelt,)


def alternatives(spellings: tuple[str, ...]) -> str:
    """A regular expression that accepts any of `spellings`."""
    options = sorted({re.escape(spelling) for spelling in spellings}, key=len, reverse=True)
    return options[0] if len(options) == 1 else f"(?:{'|'.join(options)})"


def split_article(word: str) -> tuple[str, str]:
    """`word` in lower case as (Arabic article, rest); the article is "" when there is none
    or when the word is no more than the article and one letter."""
    word = word.lower()
    if word.startswith(ARABIC_ARTICLE) and len(word) > len(ARABIC_ARTICLE) + 1:
        return ARABIC_ARTICLE, word[len(ARABIC_ARTICLE):]
    return "", word


@cache
def latin_pattern(word: str) -> str:
    """A regular expression (lower case) for the Latin spellings of `word`."""
    article, word = split_article(word)
    parts = ["(?:[ae]l-?)?"] if article else []
    for letter in word:
        if not letter.isalpha():
            continue
        spellings = letter_spellings(letter)
        if ARABIC_LETTER.match(letter):
            doubled = tuple(spelling * 2 for spelling in spellings if len(spelling) == 1)
            parts.append(alternatives(spellings + doubled) + UNWRITTEN_VOWELS)
        else:
            parts.append(alternatives(spellings))
    return "".join(parts)


@cache
def initial_pattern(word: str) -> str | None:
    """A regular expression for the Latin spellings of the first letter of `word` (None
    when the word has no letter)."""
    _, word = split_article(word)
    letter = next((char for char in word if char.isalpha()), None)
    if letter is None:
        return None
    spellings = tuple(spelling for spelling in letter_spellings(letter) if spelling)
    return alternatives(spellings) if spellings else None
