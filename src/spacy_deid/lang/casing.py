"""Letter case that follows the language (the Turkish dotted and dotless i)."""

from __future__ import annotations


def has_case(word: str) -> bool:
    """Whether the script of `word` tells upper from lower case (Latin, Cyrillic; not Arabic)."""
    return word.lower() != word.upper()


def upper(word: str, lang: str | None = None) -> str:
    """Uppercase `word`, with the Turkish dotted/dotless i for Turkish."""
    if lang == "tr":
        word = word.replace("i", "İ").replace("ı", "I")
    return word.upper()


def lower(word: str, lang: str | None = None) -> str:
    """Lowercase `word`, with the Turkish dotted/dotless i for Turkish."""
    if lang == "tr":
        word = word.replace("I", "ı").replace("İ", "i")
    return word.lower()


def match_case(template: str, word: str, lang: str | None = None) -> str:
    """Give `word` the letter case pattern of `template` (UPPER, lower, Title)."""
    letters = [ch for ch in template if ch.isalpha()]
    if not letters or not any(ch.isupper() or ch.islower() for ch in letters):
        return word
    if len(letters) > 1 and all(ch.isupper() for ch in letters if ch.isupper() or ch.islower()):
        return upper(word, lang)
    if all(ch.islower() for ch in letters if ch.isupper() or ch.islower()):
        return lower(word, lang)
    if letters[0].isupper() and word[:1].islower():
        return word[:1].upper() + word[1:]
    return word
