"""Helpers shared by the rule components that add entities to `doc.ents`."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence

from spacy.tokens import Doc, Span


def entity_tokens(doc: Doc) -> set[int]:
    """The indices of the tokens inside an entity of `doc`: taken, new spans avoid them."""
    return span_tokens(doc.ents)


def span_tokens(spans: Iterable[Span]) -> set[int]:
    """The indices of the tokens inside any of `spans`."""
    return {i for span in spans for i in range(span.start, span.end)}


def grow_entities(ents: Iterable[Span], labels: Collection[str],
                  grow: Callable[[Span, set[int]], Span]) -> list[Span]:
    """`ents` in order, each one with a label in `labels` replaced by `grow(ent, taken)`;
    `taken` holds the tokens of every entity as grown so far, the entity's own included,
    so that no two entities grow over the same token."""
    ents = list(ents)
    taken = span_tokens(ents)
    grown = []
    for ent in ents:
        if ent.label_ in labels:
            ent = grow(ent, taken)
            taken.update(range(ent.start, ent.end))
        grown.append(ent)
    return grown


def add_entities(doc: Doc, spans: Iterable[Span]) -> None:
    """Add `spans` (outside the existing entities) to `doc.ents`, kept in text order."""
    spans = list(spans)
    if spans:
        doc.ents = sorted([*doc.ents, *spans], key=lambda span: span.start)


def merge_entities(existing: Iterable[Span], found: Iterable[Span],
                   wins: Callable[[Span, Sequence[Span]], bool]) -> list[Span]:
    """`existing` entities with the `found` spans merged in, in text order: a found span is
    added where it overlaps no entity, and replaces the entities it overlaps where
    `wins(span, overlapping)`. Both are non-overlapping spans; each found span is weighed
    against the existing entities it overlaps that are still kept, looked up by bisection
    over their token offsets."""
    entities = sorted(existing, key=lambda ent: ent.start)
    starts = [ent.start for ent in entities]
    ends = [ent.end for ent in entities]
    removed: set[int] = set()
    added: list[Span] = []
    for span in found:
        first = bisect_right(ends, span.start)
        indices = [i for i in range(first, bisect_left(starts, span.end, lo=first))
                   if i not in removed]
        overlapping = [entities[i] for i in indices]
        if not overlapping:
            added.append(span)
        elif wins(span, overlapping):
            removed.update(indices)
            added.append(span)
    kept = [ent for i, ent in enumerate(entities) if i not in removed]
    return sorted(kept + added, key=lambda ent: ent.start)
