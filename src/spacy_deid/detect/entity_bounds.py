"""The `deid_entity_bounds` component: an entity ends at a paragraph break, and a code
written without whitespace is one ID.

No annotated PHI span in the corpus crosses a blank line, but the statistical NER now and
then runs one across it: a hospital header on into the report title and the patient line
("… Epilepsi Ünitesi ⏎⏎ TABURCULUK RAPORU Hasta: Yılmaz, Ayşe"). The words after the
break then carry a wrong label, and when a later detector drops the overlong span, they
are not protected at all. This component cuts every entity at its first blank line and
trims whitespace from its edges (a surrogate must not swallow the layout); what follows
the break is left free for the rule-based detectors after it.

The second NER only fills the gaps the first one left, so a code the first found in part
comes out in pieces ("PE3-" + "137260", "RAD-" + "2024-0857316"). No two annotated IDs
touch without whitespace between them, so two IDs that touch are joined into one. For the
same reason an ID that covers part of a code word of letters, digits and hyphens grows over
the whole word ("S5-2024-" + "067138"); a slash or a dash between two codes ("207/A",
"08574/1–08574/6") can separate two annotated IDs and stops it. No annotated entity of
another label touches an ID either, so where one does, its letters, digits and hyphens
written together with the ID are the ID's ("KV-" + "4471-20913" read as a postal code),
unless it is a date or an age: those are written together with other words in ranges and
suffixes ("02.03-09.03.2025", "40-letnia"). Other touching entities stay apart: a date range
("03-06/2022") may be annotated in part.
Place it right after the NERs and `deid_date_shapes` (whose IDs it then joins).
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from spacy_deid.detect.entities import grow_entities

# A line break, optional spaces or tabs, and another line break: an empty line.
PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n")


def within_paragraph(ent: Span) -> Span | None:
    """`ent` up to its first blank line, without whitespace at its edges; None when no
    whole token is left."""
    text = ent.text
    paragraph_break = PARAGRAPH_BREAK.search(text)
    kept = text[: paragraph_break.start()] if paragraph_break else text
    start = ent.start_char + len(kept) - len(kept.lstrip())
    end = ent.start_char + len(kept.rstrip())
    if (start, end) == (ent.start_char, ent.end_char):
        return ent
    if end <= start:
        return None
    return ent.doc.char_span(start, end, label=ent.label_, alignment_mode="contract")


def are_pieces_of_one_id(first: Span, second: Span) -> bool:
    """Whether `first` and `second` are both IDs and touch (no character between them)."""
    return first.label_ == second.label_ == "ID" and first.end_char == second.start_char


def is_code_piece(token: Token) -> bool:
    """A token that can be part of a code word: letters, digits and hyphens only."""
    return all(char.isalnum() or char == "-" for char in token.text)


def whole_code_word(ent: Span, taken: set[int]) -> Span:
    """An ID grown over the tokens written without space before and after it that are
    letters, digits or hyphens and belong to no other entity; a hyphen stays outside
    at either edge."""
    doc = ent.doc
    start, end = ent.start, ent.end
    while (start > 0 and not doc[start - 1].whitespace_ and start - 1 not in taken
           and is_code_piece(doc[start - 1])):
        start -= 1
    while (end < len(doc) and not doc[end - 1].whitespace_ and end not in taken
           and is_code_piece(doc[end])):
        end += 1
    while start < ent.start and doc[start].text == "-":
        start += 1
    while end > ent.end and doc[end - 1].text == "-":
        end -= 1
    if (start, end) == (ent.start, ent.end):
        return ent
    return Span(doc, start, end, label="ID")


def join_touching_ids(ents: list[Span]) -> list[Span]:
    """`ents` (in text order) with the IDs that touch joined into one."""
    joined: list[Span] = []
    for ent in ents:
        if joined and are_pieces_of_one_id(joined[-1], ent):
            joined[-1] = Span(ent.doc, joined[-1].start, ent.end, label="ID")
        else:
            joined.append(ent)
    return joined


def code_run_before(doc: Doc, end: int, start: int) -> int:
    """The first of the tokens from `start` to `end` that, written without space up to
    `end`, are all code pieces."""
    first = end
    while (first > start and is_code_piece(doc[first - 1])
           and (first == end or not doc[first - 1].whitespace_)):
        first -= 1
    return first


def code_run_after(doc: Doc, start: int, end: int) -> int:
    """The end of the tokens from `start` to `end` that, written without space from
    `start`, are all code pieces."""
    last = start
    while last < end and is_code_piece(doc[last]) and (last == start
                                                       or not doc[last - 1].whitespace_):
        last += 1
    return last


# Dates and ages are written together with other words (ranges "02.03-09.03.2025", "40-letnia").
KEEP_THEIR_DIGITS = frozenset({"DATE", "AGE"})


def are_written_together(first: Span, second: Span) -> bool:
    """Whether nothing but hyphens stands between `first` and `second`, without space."""
    doc = first.doc
    return not doc[first.end - 1].whitespace_ and all(
        token.text == "-" and not token.whitespace_ for token in doc[first.end : second.start])


def without_code_touching_an_id(ents: list[Span]) -> list[Span]:
    """`ents` (in text order) with the code pieces of another entity written together with
    an ID given up to it (the ID then grows over them); an entity left empty is dropped."""
    kept = list(ents)
    for i in range(len(kept) - 1):
        first, second = kept[i], kept[i + 1]
        labels = {first.label_, second.label_} if first is not None else set()
        if ("ID" not in labels or len(labels) == 1 or labels & KEEP_THEIR_DIGITS
                or not are_written_together(first, second)):
            continue
        doc = first.doc
        if second.label_ == "ID":
            end = code_run_before(doc, first.end, first.start)
            kept[i] = Span(doc, first.start, end, label=first.label_) if end > first.start else None
        else:
            start = code_run_after(doc, second.start, second.end)
            kept[i + 1] = (Span(doc, start, second.end, label=second.label_)
                           if start < second.end else None)
    return [ent for ent in kept if ent is not None]


class EntityBounds:
    """Cut entities at paragraph breaks, trim their whitespace, join the IDs that touch and
    grow IDs over their whole code word (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, doc: Doc) -> Doc:
        bounded = [span for span in map(within_paragraph, doc.ents) if span is not None]
        joined = grow_entities(without_code_touching_an_id(join_touching_ids(bounded)), {"ID"},
                               whole_code_word)
        if joined != list(doc.ents):
            doc.ents = joined
        return doc


@Language.factory("deid_entity_bounds", assigns=["doc.ents"], requires=["doc.ents"])
def make_entity_bounds(nlp: Language, name: str) -> EntityBounds:
    """Factory of `deid_entity_bounds` (no settings)."""
    return EntityBounds(name)
