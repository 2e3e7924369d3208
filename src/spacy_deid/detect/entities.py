"""Helpers shared by the rule components that add entities to `doc.ents`."""

from __future__ import annotations

from collections.abc import Iterable

from spacy.tokens import Doc, Span


def entity_tokens(doc: Doc) -> set[int]:
    """The indices of the tokens inside an entity of `doc`: taken, new spans avoid them."""
    return {i for ent in doc.ents for i in range(ent.start, ent.end)}


def add_entities(doc: Doc, spans: Iterable[Span]) -> None:
    """Add `spans` (outside the existing entities) to `doc.ents`, kept in text order."""
    spans = list(spans)
    if spans:
        doc.ents = sorted([*doc.ents, *spans], key=lambda span: span.start)
