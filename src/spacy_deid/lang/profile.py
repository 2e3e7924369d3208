"""One profile per supported language: everything spacy-deid knows of it, from one file.

Each language's tables live in `spacy_deid/lang/profiles/<lang>.json`: its country and
script, its Faker and Mimesis locales, its extra tokenizer rules, its person cues, titles and
first names, its place names and ward words, its month names and the function words and
letters that identify it. `language_profile(lang)` reads that file once and every component
reads the language's knowledge through it. Rules that need code (name declension, Turkish
casing, date orders) stay in code; so do the regular expressions shared by all languages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from spacy_deid.lang import validate_language
from spacy_deid.lang.scripts import SCRIPT_ALPHABETS

PROFILES_FOLDER = "profiles"
RIGHT_TO_LEFT_SCRIPTS = frozenset({"arabic"})


@dataclass(frozen=True)
class TokenizerRules:
    """A language's affix rules added to spaCy's own (`spacy_deid.lang.tokenizer`).

    The rules are regular expressions in which `{ALPHA}`, `{ALPHA_LOWER}` and `{ALPHA_UPPER}`
    stand for spaCy's letter classes; `keep_token_match` is False where spaCy's token_match
    would keep a token whole that must be split (Turkish "2007'den")."""

    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    infixes: tuple[str, ...]
    keep_token_match: bool


@dataclass(frozen=True)
class LanguageProfile:
    """What spacy-deid knows of one language.

    - `code`, `country` (the country the corpus was adapted to), `script` ("latin",
      "cyrillic" or "arabic"), `faker_locale` (surrogates), `mimesis_locales` (more known
      first names, recognised but never generated);
    - `tokenizer`: the language's extra tokenizer rules;
    - `people`: words before a name that show the person's gender (`female`, `male`),
      medical and academic `titles` (kept inside name spans, used as NAME_TITLE surrogates)
      and their `title_words`, name `particles` kept as they are, `professions`, and where
      Faker's lists lack them common first names (`first_female`, `first_male`), which both
      find names and serve as surrogates, optionally `surname_forms`, regular
      expressions for a word that has a family name's form (Arabic `ال…ي`), and optionally
      `staff`: lower-case words for nurses, midwives, therapists, pharmacists and other
      staff who are not doctors, with their common inflected forms ("pielęgniarką",
      "hemşiremiz") and abbreviations without the dot the tokenizer splits off ("schw"),
      given where the script has case (a capitalised word after one is a name; in Arabic
      and Persian most staff words stand as often before a specialty), and in Arabic the
      nurse's (a name follows one within a short field label), and optionally `relatives`:
      lower-case words for family members with their common inflected forms ("wife",
      "córką", "kızı"), given where the script has case, the words for a sister left out
      where they also name a nurse ("Schwester");
      `person_cues_after_name` is True where those cues follow the name (Turkish);
    - `capitalises_nouns`: True where every noun is written with a capital (German), so that
      a capital alone does not mark a name;
    - `places`: real place names and templates ({city} and {n} are filled in) for `cities`,
      `states`, `streets`, `hospitals`, `organizations` and optionally `countries`, and
      `unit_words`: lower-case words for a ward, room, bed, theatre or clinic;
    - `months`: month names per grammatical form or calendar, its first month first (a date
      is written back with the same form of its new month); `month_patterns`: regular
      expressions for the month names and abbreviations a date may be written with, matched
      case-insensitively (`spacy_deid.presidio.recognizers.dates`);
    - `age_cues`: regular expressions for the words that make a number an age, matched
      case-insensitively: `before` it (`aged`, `w wieku`) or `after` it (`-year-old`,
      `yaşında`); the plain words for `years` (`ans`, `лет`), which make an age only after a
      person word, with a `person_link` word between (`Patiente de 55 ans`), or in brackets
      (`spacy_deid.presidio.recognizers.ages`);
    - `cue_words`, `cue_letters`: frequent function words and the letters that tell the
      language apart from others of its script (`spacy_deid.lang.identify`).
    """

    code: str
    country: str
    script: str
    faker_locale: str
    mimesis_locales: tuple[str, ...]
    tokenizer: TokenizerRules
    people: Mapping[str, tuple[str, ...]]
    person_cues_after_name: bool
    capitalises_nouns: bool
    places: Mapping[str, tuple[str, ...]]
    months: Mapping[str, tuple[str, ...]]
    month_patterns: tuple[str, ...]
    age_cues: Mapping[str, tuple[str, ...]]
    cue_words: tuple[str, ...]
    cue_letters: tuple[str, ...]

    @property
    def titles(self) -> tuple[str, ...]:
        """The language's medical and academic titles ("Dr.", "Prof. Dr.")."""
        return self.people["titles"]

    @property
    def particles(self) -> tuple[str, ...]:
        """Name particles, kept as they are inside a name ("von", "أبو")."""
        return self.people.get("particles", ())

    @property
    def surname_forms(self) -> tuple[str, ...]:
        """Regular expressions for words shaped like a family name (none in most languages)."""
        return self.people.get("surname_forms", ())

    @property
    def staff_words(self) -> tuple[str, ...]:
        """Lower-case words for staff who are not doctors ("nurse"; none in some languages)."""
        return self.people.get("staff", ())

    @property
    def relative_words(self) -> tuple[str, ...]:
        """Lower-case words for family members ("husband"; none in some languages)."""
        return self.people.get("relatives", ())

    @property
    def unit_words(self) -> tuple[str, ...]:
        """Lower-case words for a ward, room, bed, theatre or clinic."""
        return self.places["unit_words"]

    @property
    def right_to_left(self) -> bool:
        """Whether the language is written from right to left."""
        return self.script in RIGHT_TO_LEFT_SCRIPTS

    @property
    def alphabet(self) -> str:
        """The letters of the language's script that same-shape surrogates draw from."""
        return SCRIPT_ALPHABETS[self.script.upper()]


def _frozen_lists(table: Mapping[str, list[str]]) -> Mapping[str, tuple[str, ...]]:
    """A read-only mapping of `table`, its lists made tuples, its order kept."""
    return MappingProxyType({key: tuple(values) for key, values in table.items()})


def _tokenizer_rules(data: Mapping[str, object]) -> TokenizerRules:
    return TokenizerRules(
        prefixes=tuple(data["prefixes"]),
        suffixes=tuple(data["suffixes"]),
        infixes=tuple(data["infixes"]),
        keep_token_match=bool(data["token_match"]),
    )


def read_profile_data(lang: str) -> dict:
    """The parsed `profiles/<lang>.json` of a supported language."""
    path = resources.files("spacy_deid.lang").joinpath(PROFILES_FOLDER, f"{lang}.json")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def language_profile(lang: str) -> LanguageProfile:
    """The profile of `lang` (cached); a ValueError names the supported codes otherwise."""
    data = read_profile_data(validate_language(lang))
    return LanguageProfile(
        code=data["code"],
        country=data["country"],
        script=data["script"],
        faker_locale=data["faker_locale"],
        mimesis_locales=tuple(data["mimesis_locales"]),
        tokenizer=_tokenizer_rules(data["tokenizer"]),
        people=_frozen_lists(data["people"]),
        person_cues_after_name=bool(data["person_cues_after_name"]),
        capitalises_nouns=bool(data["capitalises_nouns"]),
        places=_frozen_lists(data["places"]),
        months=_frozen_lists(data["months"]),
        month_patterns=tuple(data["month_patterns"]),
        age_cues=_frozen_lists(data["age_cues"]),
        cue_words=tuple(data["language_cues"]["words"]),
        cue_letters=tuple(data["language_cues"]["letters"]),
    )
