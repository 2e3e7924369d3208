"""Which of the ten languages a text is written in: a cheap script and function-word check.

A pipeline of one language run on a letter in another finds little and says nothing; this
check lets the `deid_language_check` component warn. No model and no dependency: the
letters are counted by script (Latin, Cyrillic, Arabic), and among the languages of the
main script each language scores its function words ("der", "und", "the", "і", "که")
and the letters that only it writes in that script ("ß", "ł", "ğ", "ї", "پ"), from
the language profiles (`spacy_deid.lang.profile`). A word or letter that several candidate
languages list counts for each of them in part. The winner's share of all the scores is the
confidence.

`identify_language(text)` returns a `LanguageGuess`; its `lang` is None where the text has
no letters of the three scripts or no cue at all. `is_clear_mismatch` decides whether a
guess says clearly that a text is not in a given language: in a text long enough to tell,
another language won, and the text is in another script or the given language has little
share of the evidence. Short texts, texts with few cues and texts that read partly as the
given language never count as clear. The defaults are set so that no training letter of
any language, nor any piece of 20 to 80 words of one, counts as a mismatch in its own
language.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.profile import language_profile
from spacy_deid.lang.scripts import LETTER_RUN

SCRIPTS: tuple[str, ...] = ("latin", "cyrillic", "arabic")
# A letter of a cue list counts this much, a function word 1, a one-letter function word
# ("w", "e", "a", also an abbreviation: "m.", "Z.n.") half.
LETTER_WEIGHT = 0.25
SHORT_WORD_WEIGHT = 0.5
# Defaults of `is_clear_mismatch`.
MIN_WORDS = 20
MIN_CUES = 10.0
MAX_EXPECTED_SHARE = 0.3
# A text counts as written in another script when the expected language's script holds at
# most this share of its letters.
MAX_SCRIPT_SHARE = 0.1

# Words are the white-space-separated pieces that are letters only once punctuation at their
# edges is stripped, so that units, codes, e-mail addresses and numbers ("mg/dl", "U/l",
# "p.o.", "a@b.de") are not read as words. An apostrophe ("l'examen", "Ankara'da") or a
# zero-width non-joiner ("بیماری‌های") inside a word separates parts that are words of their
# own.
EDGE_PUNCTUATION = "\"'.,;:!?()[]{}«»„“”‚‘’…—–-*/"
WORD_RE = re.compile(r"[^\W\d_]+(?:['’\u200c][^\W\d_]+)*")


class LanguageMismatchWarning(UserWarning):
    """A text is clearly not in the language of the pipeline that processes it."""


@dataclass(frozen=True)
class LanguageGuess:
    """The likeliest language (None: no cue), its confidence in [0, 1], the summed weight
    of the cues found, the number of words, the main script (None: no letters), every
    candidate language's share of the scores (languages of other scripts: none) and every
    script's share of the words' letters."""

    lang: str | None
    confidence: float
    cues: float
    words: int
    script: str | None
    shares: dict[str, float]
    scripts: dict[str, float]

    def share(self, lang: str) -> float:
        """`lang`'s share of the scores (0 for a language of another script)."""
        return self.shares.get(lang, 0.0)



@dataclass(frozen=True)
class _Cues:
    script: dict[str, str]
    word_weights: dict[str, dict[str, float]]
    letter_weights: dict[str, dict[str, float]]


def _shared(sets: dict[str, set[str]], script: dict[str, str]) -> dict[str, dict[str, float]]:
    """item -> {lang: weight}: 1 / the number of languages of the same script listing it."""
    weights: dict[str, dict[str, float]] = {}
    for name in SCRIPTS:
        langs = [lang for lang in sets if script[lang] == name]
        counts = Counter(item for lang in langs for item in sets[lang])
        for lang in langs:
            for item in sets[lang]:
                weights.setdefault(item, {})[lang] = 1.0 / counts[item]
    return weights


@cache
def _cues() -> _Cues:
    profiles = {lang: language_profile(lang) for lang in LANGUAGES}
    script = {lang: profile.script for lang, profile in profiles.items()}
    words = {lang: set(profile.cue_words) for lang, profile in profiles.items()}
    letters = {lang: set(profile.cue_letters) for lang, profile in profiles.items()}
    return _Cues(script, _shared(words, script), _shared(letters, script))


def script_of(char: str) -> str | None:
    """The script of a letter among `SCRIPTS`, or None."""
    name = unicodedata.name(char, "")
    for script in SCRIPTS:
        if name.startswith(script.upper()):
            return script
    return None


def text_words(text: str) -> list[str]:
    """The words of `text` (see `WORD_RE`), as written."""
    words = []
    for piece in text.split():
        word = piece.strip(EDGE_PUNCTUATION)
        if word and WORD_RE.fullmatch(word):
            words.append(word)
    return words


def script_shares(words: list[str]) -> dict[str, float]:
    """Each script's share of the letters of `words` (scripts without letters left out)."""
    counts = Counter(script_of(char) for word in words for char in word if char.isalpha())
    counts.pop(None, None)
    total = sum(counts.values())
    return {script: round(count / total, 4) for script, count in counts.most_common()}


def identify_language(text: str) -> LanguageGuess:
    """The likeliest of the ten languages for `text` (module docstring)."""
    words = text_words(text)
    parts = [part.lower() for word in words for part in LETTER_RUN.findall(word)]
    scripts = script_shares(words)
    script = next(iter(scripts), None)
    if script is None:
        return LanguageGuess(None, 0.0, 0.0, len(parts), None, {}, scripts)
    cues = _cues()
    scores = {lang: 0.0 for lang in LANGUAGES if cues.script[lang] == script}
    for part in parts:
        factor = SHORT_WORD_WEIGHT if len(part) == 1 else 1.0
        for lang, weight in cues.word_weights.get(part, {}).items():
            if lang in scores:
                scores[lang] += factor * weight
    for word in words:
        for char in word.lower() if script != "arabic" else word:
            for lang, weight in cues.letter_weights.get(char, {}).items():
                if lang in scores:
                    scores[lang] += LETTER_WEIGHT * weight
    total = sum(scores.values())
    if total == 0:
        return LanguageGuess(None, 0.0, 0.0, len(parts), script, {}, scripts)
    shares = {lang: round(score / total, 4) for lang, score in scores.items()}
    best = max(scores, key=lambda lang: (scores[lang], -LANGUAGES.index(lang)))
    return LanguageGuess(best, shares[best], round(total, 2), len(parts), script, shares,
                         scripts)


def is_clear_mismatch(guess: LanguageGuess, expected: str, min_words: int = MIN_WORDS,
                      min_cues: float = MIN_CUES,
                      max_expected_share: float = MAX_EXPECTED_SHARE) -> bool:
    """Whether `guess` says clearly that the text is not in `expected`: in a text of at
    least `min_words` words, another language won, and either `expected`'s script holds at
    most `MAX_SCRIPT_SHARE` of the letters, or the text has at least `min_cues` of cue
    weight of which `expected` has at most `max_expected_share`."""
    if guess.lang is None or guess.lang == expected or guess.words < min_words:
        return False
    if guess.scripts.get(_cues().script.get(expected, ""), 0.0) <= MAX_SCRIPT_SHARE:
        return True
    return guess.cues >= min_cues and guess.share(expected) <= max_expected_share
