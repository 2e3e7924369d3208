"""Character spans onto token-aligned entity spans, with an account of every adjustment.

Every gold span must become an entity: a span whose edges fall inside a token is
first trimmed of surrounding white space, then expanded to the token edges
(counted as *adjusted*); a span that still cannot be placed, because it would
overlap another, is counted as *lost* with its position (never its text).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span

from spacy_deid.translate.inline_tags import CharSpan


@dataclass
class AlignmentReport:
    """Counts of gold spans in, kept exactly, adjusted to token edges, and lost."""

    spans_in: int = 0
    kept: int = 0
    adjusted: int = 0
    lost: int = 0
    lost_positions: list[str] = field(default_factory=list)
    adjusted_labels: Counter = field(default_factory=Counter)

    def add(self, other: AlignmentReport) -> None:
        """Accumulate another report into this one."""
        self.spans_in += other.spans_in
        self.kept += other.kept
        self.adjusted += other.adjusted
        self.lost += other.lost
        self.lost_positions += other.lost_positions
        self.adjusted_labels.update(other.adjusted_labels)


def _trim_whitespace(text: str, span: CharSpan) -> CharSpan:
    start, end = span.start, span.end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return CharSpan(start, end, span.label)


def align_spans(doc: Doc, spans: Iterable[CharSpan], source: str = "<text>") -> AlignmentReport:
    """Set `doc.ents` from character spans, reporting kept / adjusted / lost spans."""
    report = AlignmentReport()
    placed: list[Span] = []
    taken: set[int] = set()
    text = doc.text  # built once: Doc.text joins every token
    for span in sorted(spans):
        report.spans_in += 1
        trimmed = _trim_whitespace(text, span)
        entity = doc.char_span(trimmed.start, trimmed.end, label=span.label)
        exact = entity is not None and trimmed == span
        if entity is None:
            entity = doc.char_span(trimmed.start, trimmed.end, label=span.label,
                                   alignment_mode="expand")
        tokens = set(range(entity.start, entity.end)) if entity is not None else set()
        if entity is None or len(entity) == 0 or tokens & taken:
            report.lost += 1
            report.lost_positions.append(f"{source}[{span.start}:{span.end}] {span.label}")
            continue
        taken |= tokens
        placed.append(entity)
        if exact:
            report.kept += 1
        else:
            report.adjusted += 1
            report.adjusted_labels[span.label] += 1
    doc.ents = sorted(placed, key=lambda ent: ent.start)
    return report


def doc_char_spans(doc: Doc) -> list[CharSpan]:
    """The entities of `doc` as character spans."""
    return [CharSpan(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents]


def make_doc(tokenizer: Callable[[str], Doc], text: str, spans: Iterable[CharSpan],
             source: str = "<text>") -> tuple[Doc, AlignmentReport]:
    """Tokenize `text` and set its entities from `spans`; return the Doc and the report."""
    doc = tokenizer(text)
    report = align_spans(doc, spans, source)
    return doc, report
