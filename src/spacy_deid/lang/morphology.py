"""Small inflection tables for names in Polish, Russian and Ukrainian, and Turkish suffixes.

A paradigm is a name class given by its ending in the nominative (Polish `-ska`, Russian
`-ов`) and the ending of each case. It is used three ways: to read the case of an original
mention (`Justynie` ends like a dative), to inflect a surrogate into that case, and to
pick surrogates that decline regularly (Faker names with fleeting vowels such as
`Marek -> Marka` are left out), so `Pan Nowak / Pana Nowaka` maps to
`Pan Wójcik / Pana Wójcika`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

CASES: tuple[str, ...] = ("nom", "gen", "dat", "acc", "ins", "loc")


@dataclass(frozen=True)
class Paradigm:
    """Endings of one name class, by case (see `CASES`)."""

    role: str  # "first", "surname" or "patronymic"
    gender: str  # "F" or "M"
    endings: tuple[str, ...]

    @property
    def nominative(self) -> str:
        return self.endings[0]


def _p(role: str, gender: str, *endings: str) -> Paradigm:
    return Paradigm(role, gender, tuple(endings))


def _polish() -> list[Paradigm]:
    table = [
        _p("surname", "M", t + "i", t + "iego", t + "iemu", t + "iego", t + "im", t + "im")
        for t in ("sk", "ck", "dzk")
    ]
    table += [
        _p("surname", "F", t + "a", t + "iej", t + "iej", t + "ą", t + "ą", t + "iej")
        for t in ("sk", "ck", "dzk")
    ]
    table.append(_p("surname", "M", "k", "ka", "kowi", "ka", "kiem", "ku"))
    female = {
        "ia": ("ia", "ii", "ii", "ię", "ią", "ii"),
        "ka": ("ka", "ki", "ce", "kę", "ką", "ce"),
        "ga": ("ga", "gi", "dze", "gę", "gą", "dze"),
        "ta": ("ta", "ty", "cie", "tę", "tą", "cie"),
        "da": ("da", "dy", "dzie", "dę", "dą", "dzie"),
        "ra": ("ra", "ry", "rze", "rę", "rą", "rze"),
        "la": ("la", "li", "li", "lę", "lą", "li"),
        "ła": ("ła", "ły", "le", "łę", "łą", "le"),
    }
    for c in "nwmbpfsz":
        female[c + "a"] = (c + "a", c + "y", c + "ie", c + "ę", c + "ą", c + "ie")
    female["ja"] = ("ja", "i", "i", "ję", "ją", "i")  # Maja, Mai, Maję, Mają
    table += [_p("first", "F", *endings) for endings in female.values()]
    table += [_p("surname", "F", *endings) for tail, endings in female.items()
              if tail not in ("ia", "ja")]
    male = {
        "r": ("r", "ra", "rowi", "ra", "rem", "rze"),
        "t": ("t", "ta", "towi", "ta", "tem", "cie"),
        "d": ("d", "da", "dowi", "da", "dem", "dzie"),
        "k": ("k", "ka", "kowi", "ka", "kiem", "ku"),
        "sz": ("sz", "sza", "szowi", "sza", "szem", "szu"),
        "ł": ("ł", "ła", "łowi", "ła", "łem", "le"),
        "l": ("l", "la", "lowi", "la", "lem", "lu"),
    }
    for c in "nwmbpfsz":
        male[c] = (c, c + "a", c + "owi", c + "a", c + "em", c + "ie")
    table += [_p("first", "M", *endings) for endings in male.values()]
    return table


def _russian() -> list[Paradigm]:
    table: list[Paradigm] = []
    for t in ("ов", "ев", "ёв", "ин", "ын"):
        table.append(_p("surname", "M", t, t + "а", t + "у", t + "а", t + "ым", t + "е"))
        table.append(_p("surname", "F", t + "а", t + "ой", t + "ой", t + "у", t + "ой", t + "ой"))
    for t in ("ск", "цк"):
        table.append(
            _p("surname", "M", t + "ий", t + "ого", t + "ому", t + "ого", t + "им", t + "ом")
        )
        table.append(_p("surname", "F", t + "ая", t + "ой", t + "ой", t + "ую", t + "ой", t + "ой"))
    table.append(_p("first", "F", "ия", "ии", "ии", "ию", "ией", "ии"))
    table.append(_p("first", "F", "я", "и", "е", "ю", "ей", "е"))
    for c in "бвдзлмнпрст":
        table.append(_p("first", "F", c + "а", c + "ы", c + "е", c + "у", c + "ой", c + "е"))
    for c in "гкх":
        table.append(_p("first", "F", c + "а", c + "и", c + "е", c + "у", c + "ой", c + "е"))
    table.append(_p("first", "M", "й", "я", "ю", "я", "ем", "е"))
    table.append(_p("first", "M", "ь", "я", "ю", "я", "ем", "е"))
    for c in "бвгдзклмнпрстфх":
        table.append(_p("first", "M", c, c + "а", c + "у", c + "а", c + "ом", c + "е"))
    table.append(_p("patronymic", "M", "ич", "ича", "ичу", "ича", "ичем", "иче"))
    table.append(_p("patronymic", "F", "на", "ны", "не", "ну", "ной", "не"))
    return table


def _ukrainian() -> list[Paradigm]:
    table: list[Paradigm] = []
    for t in ("ов", "ев", "ін", "їн"):
        table.append(_p("surname", "M", t, t + "а", t + "у", t + "а", t + "им", t + "і"))
        table.append(_p("surname", "F", t + "а", t + "ої", t + "ій", t + "у", t + "ою", t + "ій"))
    for t in ("ськ", "цьк"):
        table.append(
            _p("surname", "M", t + "ий", t + "ого", t + "ому", t + "ого", t + "им", t + "ому")
        )
        table.append(_p("surname", "F", t + "а", t + "ої", t + "ій", t + "у", t + "ою", t + "ій"))
    table.append(_p("surname", "M", "енко", "енка", "енку", "енка", "енком", "енкові"))
    table.append(_p("first", "F", "ія", "ії", "ії", "ію", "ією", "ії"))
    for c in "бвдзлмнпрст":
        table.append(_p("first", "F", c + "а", c + "и", c + "і", c + "у", c + "ою", c + "і"))
    # Velar stems alternate before -і: Ольга, Ольги, Ользі; Явдоха, Явдосі.
    for c, alternate in (("г", "з"), ("к", "ц"), ("х", "с")):
        table.append(
            _p("first", "F", c + "а", c + "и", alternate + "і", c + "у", c + "ою", alternate + "і")
        )
    table.append(_p("first", "M", "й", "я", "ю", "я", "єм", "ї"))
    for c in "бвдзлмнпрстф":
        table.append(_p("first", "M", c, c + "а", c + "у", c + "а", c + "ом", c + "і"))
    table.append(_p("patronymic", "M", "ович", "овича", "овичу", "овича", "овичем", "овичі"))
    table.append(_p("patronymic", "F", "івна", "івни", "івні", "івну", "івною", "івні"))
    table.append(_p("patronymic", "F", "ївна", "ївни", "ївні", "ївну", "ївною", "ївні"))
    return table


# Endings that look regular but hide a fleeting vowel or another irregularity.
IRREGULAR = {
    "pl": re.compile(r"(e[kcłń]|ie[cń])$"),
    "ru": re.compile(r"(е[лкцв]|ё.*)$"),
    "uk": re.compile(r"(е[лкць])$"),
}
SURNAME_ENDINGS = {
    "pl": re.compile(r"(sk|ck|dzk)(i|iego|iemu|im|a|iej|ą)$"),
    "ru": re.compile(r"(ов|ев|ёв|ин|ын)(|а|у|ым|е|ой)$|(ск|цк)(ий|ого|ому|им|ом|ая|ой|ую)$"),
    "uk": re.compile(
        r"(ов|ев|ін|їн)(|а|у|им|і|ої|ій|ою)$|(ськ|цьк)(ий|ого|ому|им|а|ої|ій|у|ою)$"
        r"|енк(о|а|у|ом|ові)$"
    ),
}
PATRONYMIC = {
    "ru": re.compile(r"(ович|евич|ич|овн|евн|ичн)(а|у|ем|е|ы|ой)?$"),
    "uk": re.compile(r"(ович|евич|івн|ївн)(а|у|ем|і|и|ою)?$"),
}


@cache
def paradigms(lang: str) -> tuple[Paradigm, ...]:
    """The name paradigms of `lang` (empty for languages whose names we do not inflect)."""
    builders = {"pl": _polish, "ru": _russian, "uk": _ukrainian}
    return tuple(builders[lang]()) if lang in builders else ()


def detect_cases(
    lang: str, word: str, role: str | None = None, gender: str | None = None
) -> frozenset[str]:
    """The cases `word` can be in, judged by its ending (empty when nothing matches)."""
    lowered = word.lower()
    best, cases = 0, set()
    for paradigm in paradigms(lang):
        if role and paradigm.role != role or gender and paradigm.gender != gender:
            continue
        for case, ending in zip(CASES, paradigm.endings, strict=True):
            if lowered.endswith(ending) and len(lowered) > len(ending) + 1:
                if len(ending) > best:
                    best, cases = len(ending), {case}
                elif len(ending) == best:
                    cases.add(case)
    return frozenset(cases)


def lemma_candidates(lang: str, word: str, role: str | None = None) -> set[str]:
    """The nominatives `word` may be a form of (lowercase), `word` itself included."""
    lowered = word.lower()
    found = {lowered}
    for paradigm in paradigms(lang):
        if role and paradigm.role != role:
            continue
        for ending in paradigm.endings:
            if lowered.endswith(ending) and len(lowered) > len(ending) + 1:
                found.add(lowered[: len(lowered) - len(ending)] + paradigm.nominative)
    return found


def stem_key(lang: str, word: str) -> str:
    """A key shared by the inflected forms of one name (`Justynie`, `Justyna` -> `justy`)."""
    lowered = word.lower()
    best = 0
    for paradigm in paradigms(lang):
        for ending in paradigm.endings:
            if len(ending) > best and lowered.endswith(ending) and len(lowered) - len(ending) >= 2:
                best = len(ending)
    return lowered[: len(lowered) - best] if best else lowered


def find_paradigm(lang: str, base: str, role: str, gender: str) -> Paradigm | None:
    """The paradigm a nominative `base` declines by, or None (irregular or indeclinable)."""
    lowered = base.lower()
    if lang in IRREGULAR and IRREGULAR[lang].search(lowered) and role != "patronymic":
        return None
    matches = [
        p
        for p in paradigms(lang)
        if p.role == role
        and p.gender == gender
        and lowered.endswith(p.nominative)
        and len(lowered) > len(p.nominative)
    ]
    return max(matches, key=lambda p: len(p.nominative)) if matches else None


def is_declinable(lang: str, base: str, role: str, gender: str) -> bool:
    """Whether `inflect` knows how to put `base` in every case."""
    return not paradigms(lang) or find_paradigm(lang, base, role, gender) is not None


def inflect(lang: str, base: str, role: str, gender: str, case: str) -> str:
    """Put the nominative `base` into `case`; unchanged when no paradigm fits."""
    paradigm = find_paradigm(lang, base, role, gender)
    if paradigm is None or case == "nom":
        return base
    stem = base[: len(base) - len(paradigm.nominative)]
    return stem + paradigm.endings[CASES.index(case)]


def choose_case(candidates: list[frozenset[str]]) -> str:
    """The case of a mention: the first case (in `CASES` order) all its words allow."""
    sets = [c for c in candidates if c]
    if not sets:
        return "nom"
    common = frozenset.intersection(*sets) or sets[0]
    return next(case for case in CASES if case in common)


SURNAME_CLASSES = {
    "pl": (("adjective", re.compile(r"(sk|ck|dzk)(i|a|iego|iemu|im|iej|ą)$")),),
    "ru": (
        ("adjective", re.compile(r"(ск|цк)(ий|ая|ого|ому|им|ом|ой|ую)$")),
        ("possessive", re.compile(r"(ов|ев|ёв|ин|ын)(|а|у|ым|е|ой)$")),
    ),
    "uk": (
        ("adjective", re.compile(r"(ськ|цьк)(ий|а|ого|ому|им|ої|ій|у|ою)$")),
        ("possessive", re.compile(r"(ов|ев|ін|їн)(|а|у|им|і|ої|ій|ою)$")),
        ("enko", re.compile(r"енк(о|а|у|ом|ові)$")),
    ),
}


def surname_class(lang: str, word: str) -> str:
    """The declension class of a surname (`adjective` like Kowalski, `possessive` like
    Иванов, `enko`, or `other`), so a surrogate declines (or not) like the original."""
    for name, pattern in SURNAME_CLASSES.get(lang, ()):
        if pattern.search(word.lower()):
            return name
    return "other"


def looks_like_surname(lang: str, word: str) -> bool:
    """Whether `word` has a typical surname ending (`-ski`, `-ова`, `-енко` ...)."""
    pattern = SURNAME_ENDINGS.get(lang)
    return bool(pattern and len(word) > 4 and pattern.search(word.lower()))


def is_patronymic(lang: str, word: str) -> bool:
    """Whether `word` looks like a Russian/Ukrainian patronymic (any case)."""
    pattern = PATRONYMIC.get(lang)
    return bool(pattern and len(word) > 5 and pattern.search(word.lower()))


def female_surname(lang: str, male: str) -> str:
    """The female form of a male surname (`Kowalski -> Kowalska`, `Иванов -> Иванова`)."""
    rules = {
        "pl": ((r"(sk|ck|dzk)i$", r"\1a"),),
        "ru": ((r"(ск|цк)ий$", r"\1ая"), (r"(ов|ев|ёв|ин|ын)$", r"\1а")),
        "uk": ((r"(ськ|цьк)ий$", r"\1а"), (r"(ов|ев|ін|їн)$", r"\1а")),
    }
    for pattern, replacement in rules.get(lang, ()):
        if re.search(pattern, male):
            return re.sub(pattern, replacement, male)
    return male


def female_patronymic(lang: str, male: str) -> str:
    """The female patronymic from the same father's name (`Петрович -> Петровна`)."""
    if lang == "uk":
        if male.endswith("йович"):
            return male[: -len("йович")] + "ївна"
        return re.sub(r"(ович|евич)$", "івна", male)
    return re.sub(r"ич$", "на", male)


# Turkish vowel harmony for case suffixes written after an apostrophe (Ankara'da, Yılmaz'ın).
_BACK, _FRONT, _ROUNDED = set("aıouAIOU"), set("eiöüEİÖÜ"), set("ouöüOUÖÜ")
_VOWELS = _BACK | _FRONT
_VOICELESS = set("çfhkpsştÇFHKPSŞT")


def _last_vowel(word: str) -> str:
    return next((ch for ch in reversed(word) if ch in _VOWELS), "e")


def _harmonize(suffix: str, base: str) -> str:
    previous = _last_vowel(base)
    out = []
    for index, ch in enumerate(suffix):
        lower = ch.lower()
        if lower in "ae":
            new = "a" if previous in _BACK else "e"
        elif lower in "ıiuü":
            back, rounded = previous in _BACK, previous in _ROUNDED
            new = {(True, False): "ı", (True, True): "u", (False, False): "i", (False, True): "ü"}[
                (back, rounded)
            ]
        elif lower in "dt" and index == 0:
            new = "t" if base[-1:] in _VOICELESS else "d"
        else:
            out.append(ch)
            continue
        out.append(new.upper() if ch.isupper() else new)
        if new in _VOWELS:
            previous = new
    return "".join(out)


def turkish_suffix(suffix: str, old_base: str, new_base: str) -> str:
    """Re-harmonize a case suffix moved from `old_base` onto `new_base` (buffer n/y too)."""
    if not suffix:
        return suffix
    old_vowel_end = old_base[-1:].lower() in "aeıioöuü"
    new_vowel_end = new_base[-1:].lower() in "aeıioöuü"
    if (
        old_vowel_end
        and not new_vowel_end
        and suffix[0].lower() in "ny"
        and len(suffix) > 1
        and suffix[1].lower() in "aeıiuü"
    ):
        suffix = suffix[1:]
    elif not old_vowel_end and new_vowel_end:
        if re.fullmatch(r"[ıiuü]n(?:[ıiuü]n|[dt][ae]n?)?", suffix.lower()):
            suffix = "n" + suffix
        elif re.fullmatch(r"[ıiuüae]", suffix.lower()) or suffix.lower().startswith(("la", "le")):
            suffix = "y" + suffix
    return _harmonize(suffix, new_base)
