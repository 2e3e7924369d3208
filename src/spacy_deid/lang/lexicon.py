"""First names by gender, surnames and patronymics per language, from Faker and Mimesis.

Detection asks whether a word is a known first name; surrogates draw new names from it.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache

from mimesis.constants import DATADIR as MIMESIS_DATA

from spacy_deid.lang.morphology import (
    female_surname,
    is_declinable,
    lemma_candidates,
    surname_class,
)
from spacy_deid.lang.profile import language_profile


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


def is_first_name(lang: str, word: str) -> bool:
    """A first name of the language's own lists (Faker's and the profile's), in any form the
    surrogate morphology leads back to it; Mimesis's longer lists, which hold ordinary words
    too, do not count."""
    return bool(lexicon(lang).first_name_genders(lang, word, other_lists=False))


def is_first_or_double_name(lang: str, word: str) -> bool:
    """A first name (`is_first_name`) or a double first name of two of them ("Jan-Hendrik")."""
    if is_first_name(lang, word):
        return True
    parts = word.split("-")
    return len(parts) == 2 and all(parts) and all(is_first_name(lang, part) for part in parts)


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
    for locale in language_profile(lang).mimesis_locales:
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
        f"faker.providers.person.{language_profile(lang).faker_locale}"
    ).Provider
    first = {"F": _names(provider, "first_names_female"), "M": _names(provider, "first_names_male")}
    surnames = _names(provider, "last_names_male", "male_last_names", "last_names")
    if lang == "pl":
        surnames += _names(provider, "unisex_last_names")
    extra = language_profile(lang).people
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
