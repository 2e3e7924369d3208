"""Inline-tag text (`<LABEL>text</LABEL>`) to and from entity spans.

This is the format of the MultiGraSCCo translations and of the LLM translation
component. Parsing is strict: unbalanced, nested or unknown tags raise an
`InlineTagError` naming the source and the position, so no annotation is lost
silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spacy_deid.schema import PHI_LABELS

TAG_PATTERN = re.compile(r"<(/?)([A-Z][A-Z_]*)>")


@dataclass(frozen=True, order=True)
class CharSpan:
    """An annotation by character offsets into a plain text."""

    start: int
    end: int
    label: str


class InlineTagError(ValueError):
    """Malformed inline-tag text; the message names the source and the position."""

    def __init__(self, message: str, source: str, text: str, offset: int) -> None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        super().__init__(f"{source}:{line}:{column} (offset {offset}): {message}")
        self.source = source
        self.offset = offset
        self.line = line
        self.column = column


def parse_inline_tags(
    tagged: str, source: str = "<text>", labels: Iterable[str] = PHI_LABELS
) -> tuple[str, list[CharSpan]]:
    """Strip the tags from `tagged`; return the plain text and the spans they marked."""
    known = frozenset(labels)
    plain: list[str] = []
    spans: list[CharSpan] = []
    cursor = 0
    length = 0
    open_label: str | None = None
    open_at = 0
    open_offset = 0
    for match in TAG_PATTERN.finditer(tagged):
        closing, label = match.group(1) == "/", match.group(2)
        if label not in known:
            raise InlineTagError(f"unknown label <{closing and '/' or ''}{label}>", source,
                                 tagged, match.start())
        plain.append(tagged[cursor : match.start()])
        length += match.start() - cursor
        cursor = match.end()
        if not closing:
            if open_label is not None:
                raise InlineTagError(
                    f"tag <{label}> nested inside <{open_label}> opened at offset {open_offset}",
                    source, tagged, match.start())
            open_label, open_at, open_offset = label, length, match.start()
        elif open_label is None:
            raise InlineTagError(f"closing tag </{label}> without an opening tag", source,
                                 tagged, match.start())
        elif label != open_label:
            raise InlineTagError(f"closing tag </{label}> does not match <{open_label}>",
                                 source, tagged, match.start())
        else:
            if length == open_at:
                raise InlineTagError(f"empty <{label}> annotation", source, tagged,
                                     match.start())
            spans.append(CharSpan(open_at, length, label))
            open_label = None
    if open_label is not None:
        raise InlineTagError(f"tag <{open_label}> is never closed", source, tagged, open_offset)
    plain.append(tagged[cursor:])
    return "".join(plain), spans


def render_inline_tags(text: str, spans: Sequence[CharSpan], source: str = "<text>") -> str:
    """Write `spans` into `text` as inline tags (the inverse of `parse_inline_tags`)."""
    clash = TAG_PATTERN.search(text)
    if clash:
        raise InlineTagError("text already contains something that reads as a tag", source,
                             text, clash.start())
    ordered = sorted(spans)
    pieces: list[str] = []
    cursor = 0
    for span in ordered:
        if span.start < cursor:
            raise InlineTagError(f"span {span.label} overlaps the previous span", source, text,
                                 span.start)
        if not 0 <= span.start < span.end <= len(text):
            raise InlineTagError(f"span {span.label} [{span.start}, {span.end}) is out of range",
                                 source, text, min(span.start, len(text)))
        pieces += [text[cursor : span.start], f"<{span.label}>", text[span.start : span.end],
                   f"</{span.label}>"]
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)
