"""Markup, control characters and invisible format characters in clinical text.

Text copied out of web forms, e-mail or hospital systems carries HTML/XML tags (`<b>`,
`</nachname>`, `<br/>`), character entities (`&amp;`, `&#160;`), control characters (NUL,
BEL, ...) and invisible format characters (zero-width space, bidi marks, embeddings and
isolates). None of them is part of a name, a date or any other identifier. The tokenizer
splits them off as tokens of their own (`spacy_deid.lang.tokenizer`), so that a name beside
them is a name token as usual, and the anonymizer keeps them out of every span it replaces
(`trim_span`), so that they come back unchanged.

The zero-width non-joiner and joiner (U+200C, U+200D) and the soft hyphen (U+00AD) are not
in the set: they are parts of words (Persian writes the non-joiner inside words).
"""

from __future__ import annotations

import re

# A whole tag without white space inside: "<b>", "</nachname>", "<br/>", "<h1>", "<w:t>".
TAG = r"</?[A-Za-z][\w:.-]*/?>"
# The end of a tag whose attributes stood before it, glued to the next word: `x'>Dr`.
TAG_END = r"[\"']/?>"
# Character entities: named, decimal and hexadecimal ("&amp;", "&#160;", "&#x27;").
ENTITY = r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"
# C0 and C1 control characters except tab, line feed, vertical tab, form feed and carriage
# return (the tokenizer's own white space).
CONTROL = r"[\x00-\x08\x0e-\x1f\x7f-\x9f]"
# Bidi marks (left-to-right, right-to-left, Arabic letter mark).
BIDI_MARKS = r"[\u200e\u200f\u061c]"
# Zero-width space, word joiner, byte-order mark, bidi embeddings, overrides and isolates.
ZERO_WIDTH = r"[\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]"
INVISIBLE = rf"{BIDI_MARKS}|{ZERO_WIDTH}"

# Any one piece of markup or one such character.
MARKUP = f"{TAG}|{ENTITY}|{CONTROL}|{INVISIBLE}"
# Markup and white space at the start / at the end of a span.
LEADING_RE = re.compile(rf"(?:{MARKUP}|{TAG_END}|\s)+")
TRAILING_RE = re.compile(rf"(?:{MARKUP}|</?[A-Za-z][\w:.-]*|\s)+$")


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """`start`, `end` moved inwards past markup, control and invisible characters and white
    space at either edge of `text[start:end]`; `(start, start)` if nothing else is left."""
    piece = text[start:end]
    leading = LEADING_RE.match(piece)
    if leading:
        start += leading.end()
        piece = piece[leading.end():]
    trailing = TRAILING_RE.search(piece)
    if trailing:
        end = start + trailing.start()
    return start, max(start, end)
