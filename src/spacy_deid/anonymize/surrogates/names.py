"""Person-name surrogates: one surrogate person per original person, in every mention.

Each mention is split into words; every word gets a role (first name, surname,
patronymic, initial, or a title/particle kept as it is) from the document's earlier
mentions, Faker's and Mimesis's first-name lists, patronymic endings and word order. Roles map
independently and consistently within a document (surname key -> surrogate surname,
first-name key -> surrogate first name), so `Jan Kowalski`, `Kowalski`, `KOWALSKI Jan`,
`J. Kowalski` and the inflected `Pana Kowalskiego` all become the same surrogate person.
Gender is kept where the text shows it (Herr/Frau, Pan/Pani, Mr/Mrs, female surname or
patronymic endings, a known first name); the surrogate is put into the case of the
original (Polish, Russian, Ukrainian) and Turkish suffixes after an apostrophe are
re-harmonized; letter case (UPPERCASE letterheads) is kept.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from spacy_deid.anonymize.surrogates.shapes import random_digit_like
from spacy_deid.lang.casing import match_case
from spacy_deid.lang.lexicon import lexicon
from spacy_deid.lang.morphology import (
    choose_case,
    detect_cases,
    female_patronymic,
    female_surname,
    inflect,
    is_patronymic,
    looks_like_surname,
    paradigms,
    stem_key,
    surname_class,
    turkish_suffix,
)
from spacy_deid.lang.profile import language_profile
from spacy_deid.lang.spelling import spelling_key

_MARKS = r"\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u200c"
WORD = rf"[^\W\d_](?:[^\W\d_]|[{_MARKS}])*"
TOKEN_PATTERN = re.compile(rf"(?P<word>{WORD}(?:['’](?P<suffix>{WORD}))?)|(?P<lit>.)", re.DOTALL)


@dataclass
class Word:
    """A name word of a mention with its role, key, grammatical case and Turkish suffix."""

    start: int
    end: int
    text: str
    base: str
    suffix: str = ""
    role: str = ""
    key: str = ""
    initial: bool = False


@dataclass
class NameRegistry:
    """What a document has taught about its names: roles, genders, and the surrogates."""

    role_by_key: dict[str, str] = field(default_factory=dict)
    gender_by_key: dict[str, str] = field(default_factory=dict)
    first_by_surname: dict[str, str] = field(default_factory=dict)
    patronymic_by_surname: dict[str, str] = field(default_factory=dict)
    surrogate: dict[tuple[str, str, str], str] = field(default_factory=dict)
    letters: dict[str, str] = field(default_factory=dict)
    # First letter -> the first first-name key given a surrogate with it (for initials).
    first_by_letter: dict[str, str] = field(default_factory=dict)


def _cue_words(text: str) -> list[str]:
    return [w.lower().strip(".:,;!?") for w in text.split() if w.strip(".:,;!?")]


def _longest_ending(lang: str, word: str, gender: str) -> int:
    lowered = word.lower()
    return max(
        (
            len(ending)
            for p in paradigms(lang)
            if p.role == "surname" and p.gender == gender and not p.nominative.endswith("енко")
            for ending in p.endings
            if lowered.endswith(ending) and len(lowered) > len(ending) + 1
        ),
        default=0,
    )


def surname_gender(lang: str, surname: str) -> str | None:
    """The gender a surname's ending shows (`Kowalską`, `Захаровой` -> F), if any."""
    female, male = _longest_ending(lang, surname, "F"), _longest_ending(lang, surname, "M")
    if female > male and female >= 3:
        return "F"
    if male > female and male >= 2:
        return "M"
    return None


class NameSurrogates:
    """Person-name surrogates for one document (see the module docstring)."""

    def __init__(
        self, lang: str, rng: random.Random, keyed_rng: Callable[..., random.Random] | None = None
    ) -> None:
        self.lang = lang
        self.rng = rng
        self.keyed_rng = keyed_rng
        self.lexicon = lexicon(lang)
        profile = language_profile(lang)
        cues = profile.people
        self.female_cues = set(cues["female"])
        self.male_cues = set(cues["male"])
        self.cue_after = profile.person_cues_after_name
        self.keep_words = {w.lower() for w in cues["title_words"]} | set(cues["particles"])
        self.registry = NameRegistry()
        self.avoid: set[str] = set()

    # --- reading a mention -------------------------------------------------------------

    def _key(self, word: str) -> str:
        """One key for the forms and spellings of a name word (mentions of one person)."""
        return spelling_key(self.lang, word) or stem_key(self.lang, word)

    def split(self, text: str) -> list[Word]:
        """The name words of a mention (titles, particles and punctuation are left out)."""
        words = []
        for match in TOKEN_PATTERN.finditer(text):
            if not match.group("word"):
                continue
            token = match.group("word")
            suffix = match.group("suffix") or ""
            base = token[: len(token) - len(suffix) - 1] if suffix else token
            if self.lang != "tr" and suffix:
                base, suffix = token, ""
            if base.lower() in self.keep_words and len(text.split()) > 1:
                continue
            word = Word(match.start(), match.end(), token, base, suffix)
            word.initial = len(base) == 1
            word.key = self._key(base)
            words.append(word)
        return words

    def _assign_roles(self, text: str, words: list[Word]) -> None:
        """Give every full word a role: first name, surname or patronymic."""
        full = [w for w in words if not w.initial]
        comma = text.find(",")
        for word in full:
            if is_patronymic(self.lang, word.base):
                word.role = "patronymic"
            elif comma > 0 and len(full) > 1:
                word.role = "surname" if word.start < comma else "first"
            elif word.key in self.registry.role_by_key:
                word.role = self.registry.role_by_key[word.key]
            elif self.lexicon.first_name_genders(self.lang, word.base):
                word.role = "first"
            elif looks_like_surname(self.lang, word.base):
                word.role = "surname"
        names = [w for w in full if w.role != "patronymic"]
        unresolved = [w for w in names if not w.role]
        has_surname = any(w.role == "surname" for w in names)
        if unresolved and not has_surname:
            unresolved[-1].role = "surname"
        elif not unresolved and not has_surname and len(names) > 1:
            names[-1].role = "surname"
        for word in full:
            word.role = word.role or "first"
            self.registry.role_by_key.setdefault(word.key, word.role)

    def _gender(self, words: list[Word], before: str, after: str) -> str | None:
        cue_words = _cue_words(before)[-2:] + (_cue_words(after)[:1] if self.cue_after else [])
        for cue in reversed(cue_words):
            if cue in self.female_cues:
                return "F"
            if cue in self.male_cues:
                return "M"
        for word in words:
            if word.role == "patronymic":
                return "F" if re.search(r"(вн|ичн)", word.base.lower()) else "M"
        for word in words:
            if word.role == "first":
                genders = self.lexicon.first_name_genders(self.lang, word.base)
                if len(genders) == 1:
                    return next(iter(genders))
        for word in words:
            if word.role == "surname":
                gender = surname_gender(self.lang, word.base)
                if gender:
                    return gender
        for word in words:
            if word.key in self.registry.gender_by_key:
                return self.registry.gender_by_key[word.key]
        return None

    # --- drawing surrogates -----------------------------------------------------------

    def _rng(self, *parts: str) -> random.Random:
        return self.keyed_rng(*parts) if self.keyed_rng else self.rng

    def _draw(self, names: tuple[str, ...], original: Word, *parts: str) -> str:
        """A name unlike the original: another key, another initial (so that no initial
        of the original comes back through "E." or "SevK."), neither containing the other,
        and not a word of any original in the document (see `avoid`)."""
        rng = self._rng(*parts)
        base = original.base.lower()
        choice = names[0]
        for _ in range(50):
            choice = rng.choice(names)
            lowered = choice.lower()
            if (
                self._key(choice) != original.key
                and (not base or (base not in lowered and lowered not in base
                                  and lowered[:1] != base[:1]))
                and lowered not in self.avoid
            ):
                return choice
        return choice

    def _surrogate_base(self, word: Word, gender: str) -> str:
        registry = self.registry.surrogate
        if word.role == "first":
            slot = ("first", word.key, gender)
            if slot not in registry:
                registry[slot] = self._draw(
                    self.lexicon.first[gender], word, "first", gender, word.key
                )
                self.registry.first_by_letter.setdefault(word.key[:1], word.key)
            return registry[slot]
        if word.role == "patronymic" and self.lexicon.patronymics:
            slot = ("patronymic", word.key, "M")
            if slot not in registry:
                registry[slot] = self._draw(
                    self.lexicon.patronymics, word, "patronymic", word.key
                )
            male = registry[slot]
            return female_patronymic(self.lang, male) if gender == "F" else male
        slot = ("surname", word.key, "M")
        if slot not in registry:
            pools = self.lexicon.surnames
            pool = pools.get(surname_class(self.lang, word.base)) or pools["any"]
            registry[slot] = self._draw(pool, word, "surname", word.key)
        male = registry[slot]
        return female_surname(self.lang, male) if gender == "F" else male

    def _initial(self, word: Word, words: list[Word], gender: str) -> str:
        surname = next((w for w in words if w.role == "surname"), None)
        initials = [w for w in words if w.initial]
        if surname and len(initials) > 1 and word is initials[1] and self.lang in ("ru", "uk"):
            patronymic_key = self.registry.patronymic_by_surname.get(surname.key)
            if patronymic_key is not None:
                role_word = Word(0, 0, "", patronymic_key, role="patronymic", key=patronymic_key)
                return self._surrogate_base(role_word, gender)[:1]
        first_key = self.registry.first_by_surname.get(surname.key) if surname else None
        if first_key is None:
            first_key = self.registry.first_by_letter.get(word.base[:1].lower())
        if first_key is not None:
            first = Word(0, 0, "", first_key, role="first", key=first_key)
            base = self._surrogate_base(first, gender)
            return base[:1]
        letter = word.base.lower()
        if letter not in self.registry.letters:
            pool = sorted(
                {
                    n[:1].lower()
                    for n in self.lexicon.first["M"] + self.lexicon.first["F"]
                    if n[:1].lower() != letter
                }
                or {letter}
            )
            self.registry.letters[letter] = self._rng("initial", letter).choice(pool)
        return self.registry.letters[letter]

    def surrogate(self, text: str, before: str = "", after: str = "") -> str:
        """The surrogate of one name mention; `before`/`after` are the text around it."""
        words = self.split(text)
        if not words:
            return self._other_digits(text)
        self._assign_roles(text, words)
        gender = self._gender(words, before, after)
        if gender is None:
            gender = self._rng("gender", *[w.key for w in words]).choice("FM")
        full = [w for w in words if not w.initial]
        surname = next((w for w in full if w.role == "surname"), None)
        first = next((w for w in full if w.role == "first"), None)
        for word in full:
            self.registry.gender_by_key.setdefault(word.key, gender)
        patronymic = next((w for w in full if w.role == "patronymic"), None)
        if surname and first:
            self.registry.first_by_surname.setdefault(surname.key, first.key)
        if surname and patronymic:
            self.registry.patronymic_by_surname.setdefault(surname.key, patronymic.key)
        case = choose_case([detect_cases(self.lang, w.base, w.role, gender) for w in full])
        pieces, cursor = [], 0
        for word in words:
            pieces.append(self._other_digits(text[cursor : word.start]))
            if word.initial:
                new = self._initial(word, words, gender)
                pieces.append(match_case(word.base, new, self.lang) + word.text[len(word.base) :])
            else:
                base = self._surrogate_base(word, gender)
                new = inflect(self.lang, base, word.role, gender, case)
                new = match_case(word.base, new, self.lang)
                if word.suffix:
                    new += word.text[len(word.base)] + turkish_suffix(word.suffix, word.base, base)
                pieces.append(new)
            cursor = word.end
        pieces.append(self._other_digits(text[cursor:]))
        return "".join(pieces)

    def _other_digits(self, between: str) -> str:
        """The text between name words with every digit replaced: a mislabelled span
        ("Dossier : 2057…" taken for a name) must not keep its number."""
        if not any(ch.isdigit() for ch in between):
            return between
        rng = self._rng("digits", between)
        return "".join(random_digit_like(ch, rng) if ch.isdigit() else ch for ch in between)
