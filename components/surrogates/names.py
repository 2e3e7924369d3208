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

import importlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from mimesis.constants import DATADIR as MIMESIS_DATA

from ..name_spelling import spelling_key
from .common import (
    FAKER_LOCALE_BY_LANGUAGE,
    MIMESIS_LOCALES_BY_LANGUAGE,
    load_resource,
    match_case,
)
from .morphology import (
    choose_case,
    detect_cases,
    female_patronymic,
    female_surname,
    inflect,
    is_declinable,
    is_patronymic,
    lemma_candidates,
    looks_like_surname,
    paradigms,
    stem_key,
    surname_class,
    turkish_suffix,
)
from .shapes import random_digit_like

_MARKS = r"\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u200c"
WORD = rf"[^\W\d_](?:[^\W\d_]|[{_MARKS}])*"
TOKEN_PATTERN = re.compile(rf"(?P<word>{WORD}(?:['’](?P<suffix>{WORD}))?)|(?P<lit>.)", re.DOTALL)


@dataclass
class Lexicon:
    """First names by gender, surnames and patronymics for one language, from Faker; and
    Mimesis's first names, which are only recognised (with their gender), never generated."""

    first: dict[str, tuple[str, ...]]
    surnames: dict[str, tuple[str, ...]]
    patronymics: tuple[str, ...]
    gender_by_name: dict[str, set[str]]
    other_gender_by_name: dict[str, set[str]]

    def first_name_genders(self, lang: str, word: str, other_lists: bool = True) -> set[str]:
        """The genders of the known first names `word` can be a form of (empty if none);
        with `other_lists`, Mimesis's first names count too."""
        genders: set[str] = set()
        for lemma in lemma_candidates(lang, word.replace("ё", "е"), "first"):
            genders |= self.gender_by_name.get(lemma, set())
            if other_lists:
                genders |= self.other_gender_by_name.get(lemma, set())
        return genders


def _names(provider: type, *attributes: str) -> tuple[str, ...]:
    values: list[str] = []
    for attribute in attributes:
        names = getattr(provider, attribute, ())
        values += list(names.keys() if isinstance(names, dict) else names)
    return tuple(dict.fromkeys(name for name in values if name and " " not in name.strip()))


def mimesis_first_names(lang: str) -> dict[str, tuple[str, ...]]:
    """First names by gender ("F", "M") in Mimesis's person data for `lang`'s locales. They
    only tell that a word is a first name, and of which gender: surrogates come from Faker."""
    names: dict[str, list[str]] = {"F": [], "M": []}
    for locale in MIMESIS_LOCALES_BY_LANGUAGE[lang]:
        path = MIMESIS_DATA / locale / "person.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8")).get("names", {})
            names["F"] += (name.strip() for name in data.get("female", []))
            names["M"] += (name.strip() for name in data.get("male", []))
    return {gender: tuple(dict.fromkeys(name for name in found if name and " " not in name))
            for gender, found in names.items()}


def genders_by_name(first: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Lower-cased first name -> its genders, from first names by gender."""
    genders: dict[str, set[str]] = {}
    for gender, names in first.items():
        for name in names:
            genders.setdefault(name.lower(), set()).add(gender)
    return genders


@cache
def lexicon(lang: str) -> Lexicon:
    """Names of `lang` from Faker's person provider, limited to regularly declining ones."""
    provider = importlib.import_module(
        f"faker.providers.person.{FAKER_LOCALE_BY_LANGUAGE[lang]}"
    ).Provider
    first = {"F": _names(provider, "first_names_female"), "M": _names(provider, "first_names_male")}
    surnames = _names(provider, "last_names_male", "male_last_names", "last_names")
    if lang == "pl":
        surnames += _names(provider, "unisex_last_names")
    extra = load_resource("people.json")[lang]
    first = {
        "F": first["F"] + tuple(extra.get("first_female", ())),
        "M": first["M"] + tuple(extra.get("first_male", ())),
    }
    gender_by_name = genders_by_name(first)
    usable_first = {
        g: tuple(n for n in names if is_declinable(lang, n, "first", g)) or names
        for g, names in first.items()
    }
    pools: dict[str, list[str]] = {}
    for name in surnames:
        kind = surname_class(lang, name)
        regular = is_declinable(lang, name, "surname", "M") and (
            kind in ("other", "enko")
            or is_declinable(lang, female_surname(lang, name), "surname", "F")
        )
        if regular or kind == "other" and lang != "pl":
            pools.setdefault(kind, []).append(name)
    pools["any"] = [n for pool in pools.values() for n in pool] or list(surnames)
    patronymics = tuple(n for n in _names(provider, "middle_names_male") if n.endswith("ич"))
    return Lexicon(
        usable_first, {k: tuple(v) for k, v in pools.items()}, patronymics, gender_by_name,
        genders_by_name(mimesis_first_names(lang)),
    )


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
        cues = load_resource("people.json")[lang]
        self.female_cues = set(cues["female"])
        self.male_cues = set(cues["male"])
        self.cue_after = bool(cues.get("after"))
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
            first_key = next(
                (
                    k
                    for (role, k, _), _v in self.registry.surrogate.items()
                    if role == "first" and k[:1] == word.base[:1].lower()
                ),
                None,
            )
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
