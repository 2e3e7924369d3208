"""The `deid_user_names` component: login names and initials made from a detected name.

Electronic reports, forms and messages sign with the login of the person who wrote,
checked or typed them ("Benutzer: fmorgenstock", "signed by kbialas", "(emarchetti)",
"sultanov_rf", "sh.niknam"). A login identifies its owner as well as the name does,
yet it is no word the NER can read. Logins are made from their owner's name: initials and
whole name words in some order, in Latin letters, with separators (`.`, `_`, `-`), a
number or a role ("rad_", "PROF-") around them. So when a person's name is in `doc.ents`,
a Latin word of the same document that spells some of that name's words, at least one of
them whole (`min_whole` letters or more) and at least two in all, is their login
(NAME_USERNAME). Initials alone ("NG" for Nicolò Gavelli, "mtoe" for M. Trautwein-Öztürk)
count only in brackets within `window` tokens after the name, since short capitals are
common abbreviations. With `min_shortened`, a name word in a script with case may also be
spelt by its first `min_shortened` letters or more ("anordh" for Abby Nordholm), in a login
without capitals. Names in any script are spelt in Latin letters as
`spacy_deid.lang.romanize` allows. An ordinary word that happens to spell a named person's
initial and surname ("brain" where a "B. Rain" is named) is taken for a login too: a
false alarm costs less than a leak. Existing entities win, except a title that is the role
in front of a login ("PROF" of "PROF-htarcan" read as NAME_TITLE): the login takes its place.
Otherwise new spans only fill gaps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_deid.detect.entities import entity_tokens, merge_entities, span_tokens
from spacy_deid.lang.casing import has_case
from spacy_deid.lang.romanize import initial_pattern, latin_pattern
from spacy_deid.lang.scripts import LETTER_RUN
from spacy_deid.schema import PERSON_LABELS

LABEL = "NAME_USERNAME"
TITLE = "NAME_TITLE"
# A Latin word with optional separators and digits, not part of an e-mail address, a web
# address or a path.
LOGIN = re.compile(r"(?<![\w@/.\-])(?!www\.)[A-Za-z][A-Za-z0-9]*(?:[._\-][A-Za-z0-9]+)*"
                   r"(?![\w@/]|[.\-]\w)")
SEPARATOR = re.compile(r"[._\-]")
MAX_NAME_WORDS = 5
MAX_LOGIN_LENGTH = 40


@dataclass(frozen=True)
class NameWord:
    """One word of a person's name: the patterns of its whole spelling, of its shortened
    spellings (its first letters) and of its initial."""

    whole: re.Pattern[str] | None
    shortened: tuple[re.Pattern[str], ...]
    initial: re.Pattern[str] | None


@cache
def name_word(word: str, min_whole: int, min_shortened: int = 0) -> NameWord:
    """The spelling patterns of `word`; words under `min_whole` letters are initials only.
    With `min_shortened`, its first `min_shortened` letters or more stand for it too
    ("anordh" for Abby Nordholm); 0 turns that off."""
    initial = initial_pattern(word)
    whole = latin_pattern(word) if len(word) >= min_whole else None
    return NameWord(re.compile(whole) if whole else None,
                    shortened_patterns(word, min_whole, min_shortened),
                    re.compile(initial) if initial else None)


def shortened_patterns(word: str, min_whole: int,
                       min_shortened: int) -> tuple[re.Pattern[str], ...]:
    """The patterns of the first `min_shortened` letters or more of `word` (short of the
    whole word); none when `min_shortened` is 0 or the word's script has no case: the Latin
    spelling of an Arabic or Persian name leaves its short vowels open, so its first letters
    match too many words ("Tavor")."""
    if not min_shortened or not has_case(word):
        return ()
    sizes = range(max(min_shortened, min_whole), len(word))
    patterns = dict.fromkeys(latin_pattern(word[:size]) for size in sizes)
    return tuple(re.compile(pattern) for pattern in patterns if pattern)


def spellings(word: NameWord, shortened: bool = True) -> list[tuple[re.Pattern[str], bool]]:
    """The patterns of `word`, each with whether it spells the word whole (or, with
    `shortened`, by its first letters)."""
    found = [(pattern, True) for pattern in (word.whole, *(word.shortened if shortened else ()))
             if pattern]
    return found + ([(word.initial, False)] if word.initial else [])


def spells_name(text: str, words: tuple[NameWord, ...], initials_only: bool,
                min_whole: int, shortened: bool = True) -> bool:
    """Whether `text` (lower-case Latin letters) spells two or more of `words`, each once,
    in any order, each whole (in `min_whole` letters or more; shortened too with
    `shortened`) or by its initial; at least one whole unless `initials_only`."""

    @cache
    def rest(start: int, used: frozenset[int], whole_used: bool) -> bool:
        if start == len(text):
            return len(used) >= 2 and (whole_used or initials_only)
        for index, word in enumerate(words):
            if index in used:
                continue
            for pattern, whole in spellings(word, shortened):
                shortest = start + (min_whole if whole else 1)
                for end in range(shortest, len(text) + 1):
                    if (pattern.fullmatch(text, start, end)
                            and rest(end, used | {index}, whole_used or whole)):
                        return True
        return False

    return rest(0, frozenset(), False)


def login_readings(login: str) -> list[str]:
    """The letters of each run of a login's parts (digits dropped): "rad_ayilmazkaya" gives
    "rad", "ayilmazkaya" and "radayilmazkaya", so a role or number around the name is
    allowed."""
    parts = [re.sub(r"\d", "", part).lower() for part in SEPARATOR.split(login)]
    runs = ("".join(parts[first:last])
            for first in range(len(parts)) for last in range(first + 1, len(parts) + 1))
    return [run for run in runs if run]


def in_brackets(doc: Doc, span: Span) -> bool:
    """Whether `span` stands alone in round brackets."""
    return (span.start > 0 and span.end < len(doc)
            and doc[span.start - 1].text == "(" and doc[span.end].text == ")")


class UserNames:
    """Mark logins and initials made from detected person names (see the module docstring)."""

    def __init__(self, name: str, min_whole: int, window: int, min_shortened: int = 0) -> None:
        if min_whole < 2:
            raise ValueError(f"deid_user_names: min_whole must be >= 2, not {min_whole}")
        if min_shortened and min_shortened < min_whole:
            raise ValueError(f"deid_user_names: min_shortened must be 0 (off) or >= min_whole "
                             f"({min_whole}), not {min_shortened}")
        if window < 0:
            raise ValueError(f"deid_user_names: window must be >= 0, not {window}")
        self.name = name
        self.min_whole = min_whole
        self.window = window
        self.min_shortened = min_shortened

    def people(self, doc: Doc) -> list[tuple[Span, tuple[NameWord, ...]]]:
        """Each detected person name with the spelling patterns of its words."""
        people = []
        for ent in doc.ents:
            if ent.label_ not in PERSON_LABELS:
                continue
            words = tuple(dict.fromkeys(word.lower() for word in LETTER_RUN.findall(ent.text)))
            if 2 <= len(words) <= MAX_NAME_WORDS:
                people.append((ent, tuple(name_word(word, self.min_whole, self.min_shortened)
                                            for word in words)))
        return people

    def is_login(self, doc: Doc, span: Span,
                 people: list[tuple[Span, tuple[NameWord, ...]]],
                 any_whole: re.Pattern[str]) -> bool:
        """Whether `span` spells a detected person's name as a login does."""
        readings = login_readings(span.text)
        bracketed = in_brackets(doc, span)
        # a capitalised word is more often a name or a brand ("Tavor") than a login
        shortened = not any(char.isupper() for char in span.text)
        if not bracketed and not any(any_whole.search(reading) for reading in readings):
            return False
        tried = set()  # a name mentioned several times is tried once
        for ent, words in people:
            initials_only = (bracketed and ent.end <= span.start - 1
                             and span.start - 1 - ent.end <= self.window)
            if (words, initials_only) in tried:
                continue
            tried.add((words, initials_only))
            if any(spells_name(reading, words, initials_only, self.min_whole, shortened)
                   for reading in readings):
                return True
        return False

    def __call__(self, doc: Doc) -> Doc:
        people = self.people(doc)
        if not people:
            return doc
        any_whole = re.compile("|".join(sorted({
            pattern.pattern for _, words in people for word in words
            for pattern, whole in spellings(word) if whole})) or "(?!)")
        titles = [ent for ent in doc.ents if ent.label_ == TITLE]
        taken = entity_tokens(doc) - span_tokens(titles)
        found = []
        for match in LOGIN.finditer(doc.text):
            if len(match.group()) > MAX_LOGIN_LENGTH:
                continue
            span = doc.char_span(match.start(), match.end(), label=LABEL)
            if span is None or any(i in taken for i in range(span.start, span.end)):
                continue
            if self.is_login(doc, span, people, any_whole):
                found.append(span)
                taken.update(range(span.start, span.end))
        if found:
            doc.ents = merge_entities(doc.ents, found, only_titles_overlapped)
        return doc


def only_titles_overlapped(login: Span, overlapping: Sequence[Span]) -> bool:
    """Whether a login may take the place of the entities it overlaps: titles only."""
    return all(ent.label_ == TITLE for ent in overlapping)


@Language.factory(
    "deid_user_names",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"min_whole": 3, "window": 6, "min_shortened": 0},
)
def make_user_names(nlp: Language, name: str, min_whole: int, window: int,
                    min_shortened: int) -> UserNames:
    """Factory of `deid_user_names` (settings: `min_whole`, the fewest letters of a name word
    spelt whole; `window`, the most tokens between a name and its initials in brackets;
    `min_shortened`, the fewest first letters that stand for a name word, 0 for none)."""
    return UserNames(name, min_whole, window, min_shortened)
