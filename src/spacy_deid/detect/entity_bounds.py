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
"08574/1–08574/6") can separate two annotated IDs and stops it. Other touching entities
stay apart: a date range ("03-06/2022") may be annotated in part. Place it right after the
NERs and `deid_date_shapes` (whose IDs it then joins).
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


class EntityBounds:
    """Cut entities at paragraph breaks, trim their whitespace, join the IDs that touch and
    grow IDs over their whole code word (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, doc: Doc) -> Doc:
        bounded = [span for span in map(within_paragraph, doc.ents) if span is not None]
        joined = grow_entities(join_touching_ids(bounded), {"ID"}, whole_code_word)
        if joined != list(doc.ents):
            doc.ents = joined
        return doc


@Language.factory("deid_entity_bounds", assigns=["doc.ents"], requires=["doc.ents"])
def make_entity_bounds(nlp: Language, name: str) -> EntityBounds:
    """Factory of `deid_entity_bounds` (no settings)."""
    return EntityBounds(name)
