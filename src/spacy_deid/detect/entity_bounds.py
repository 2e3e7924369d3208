"""The `deid_entity_bounds` component: an entity ends at a paragraph break.

No annotated PHI span in the corpus crosses a blank line, but the statistical NER now and
then runs one across it: a hospital header on into the report title and the patient line
("… Epilepsi Ünitesi ⏎⏎ TABURCULUK RAPORU Hasta: Yılmaz, Ayşe"). The words after the
break then carry a wrong label, and when a later detector drops the overlong span, they
are not protected at all. This component cuts every entity at its first blank line and
trims whitespace from its edges (a surrogate must not swallow the layout); what follows
the break is left free for the rule-based detectors after it. Place it right after the
NER.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

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


class EntityBounds:
    """Cut entities at paragraph breaks and trim their whitespace (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, doc: Doc) -> Doc:
        bounded = [within_paragraph(ent) for ent in doc.ents]
        if any(new is not old for new, old in zip(bounded, doc.ents, strict=True)):
            doc.ents = [span for span in bounded if span is not None]
        return doc


@Language.factory("deid_entity_bounds", assigns=["doc.ents"], requires=["doc.ents"])
def make_entity_bounds(nlp: Language, name: str) -> EntityBounds:
    """Factory of `deid_entity_bounds` (no settings)."""
    return EntityBounds(name)
