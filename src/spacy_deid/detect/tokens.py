"""Token helpers shared by the rule components: name-like words, lines, field labels, neighbours."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from spacy.tokens import Doc, Span, Token

from spacy_deid.schema import PERSON_LABELS


def may_start_name(word: str) -> bool:
    """Capitalised, uppercase, a number, or in a script without case (Arabic, Persian)."""
    first = word[:1]
    return first.isupper() or first.isdigit() or (first.isalpha() and not first.islower())


def opens_line(doc: Doc, i: int) -> bool:
    """Whether token `i` is the first word of its line."""
    return i == 0 or "\n" in doc[i - 1].text_with_ws


COMMAS = frozenset({",", "\u060c"})


NAME_WORD = re.compile(r"^\w+(?:[-'\u2019\u200c]\w+)*\.?$")


def is_name_word(text: str) -> bool:
    """Letters (with inner hyphens, apostrophes or ZWNJ, a final dot), no digits."""
    return NAME_WORD.match(text) is not None and not any(c.isdigit() for c in text)


def is_short_capitals(token: Token, longest: int = 3) -> bool:
    """A word of capitals only, `longest` letters or fewer: an abbreviation, a role or a
    degree ("MBA", "MD", "RN"; with 4, "FRCP"), rarely a name."""
    return token.is_upper and len(token) <= longest


def is_name_like(token: Token, taken: set[int], excluded: set[str]) -> bool:
    """Letters, outside the `taken` tokens, not one of the `excluded` (lower-cased) words,
    capitalised where case exists: a token that may be (part of) a name."""
    if token.i in taken or token.is_space or not is_name_word(token.text):
        return False
    return token.lower_ not in excluded and may_start_name(token.text)


def field_label(doc: Doc, colon: int) -> str | None:
    """The cue key of a field label ending at the colon token `colon` ("hasta:"), if the
    word before it is not whitespace or another colon."""
    if doc[colon].text != ":":
        return None
    i = next_word(doc, colon - 1, -1)
    if i < 0 or doc[i].text == ":":
        return None
    return f"{doc[i].lower_}:"


def ends_line(doc: Doc, end: int) -> bool:
    """Whether only one `,` and whitespace stand between token `end` and the line's end."""
    if end < len(doc) and doc[end].text in COMMAS:
        end += 1
    return end >= len(doc) or (doc[end].is_space and "\n" in doc[end].text)


def next_word(doc: Doc, i: int, step: int, skip: frozenset[str] = frozenset()) -> int:
    """Index of the first token from `i` in direction `step` that is neither whitespace nor
    one of `skip` (only one `skip` token is passed); -1 or len(doc) when there is none."""
    skipped = False
    while 0 <= i < len(doc):
        if doc[i].is_space:
            i += step
        elif doc[i].text in skip and not skipped:
            skipped = True
            i += step
        else:
            break
    return i


def entity_index(doc: Doc) -> dict[int, Span]:
    """Token index -> the entity it belongs to."""
    return {i: ent for ent in doc.ents for i in range(ent.start, ent.end)}


def name_particles(people: Iterable[Span], min_count: int) -> set[str]:
    """Lower-case words seen at least `min_count` times inside the person names `people`
    ("von", "de"): particles, which may stand inside a name."""
    counts = Counter(token.lower_ for ent in people for token in ent
                     if token.is_lower and token.is_alpha)
    return {word for word, count in counts.items() if count >= min_count}


def learn_common_words(docs: Iterable[Doc], min_count: int,
                       also_in_names: bool = False) -> set[str]:
    """Lower-cased words seen at least `min_count` times outside any entity and, unless
    `also_in_names`, never inside a person name: ordinary words of the letters, never
    taken for names."""
    outside: Counter = Counter()
    in_names: set[str] = set()
    for doc in docs:
        entity_of = entity_index(doc)
        for token in doc:
            if token.i not in entity_of:
                outside[token.lower_] += 1
            elif entity_of[token.i].label_ in PERSON_LABELS:
                in_names.add(token.lower_)
    return {word for word, count in outside.items() if count >= min_count
            and (also_in_names or word not in in_names)}
