"""Long documents: detect in paragraph-sized chunks, anonymize the whole text at once.

A pipeline's memory and some components' time grow with the length of one `Doc`, and
spaCy refuses texts beyond `nlp.max_length`. `process_long` cuts a long text at paragraph
boundaries (blank lines, else line breaks, else spaces), runs the detectors on each chunk
with some context on both sides, keeps every entity that starts inside a chunk whole (even
where it runs into the next chunk's text), and then runs the anonymizer once over the whole
text, so that one person keeps one surrogate across the document. A text no longer than
`max_chars` goes through the pipeline unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import filter_spans

ANONYMIZER_FACTORY = "deid_anonymizer"
DEFAULT_MAX_CHARS = 100_000
# Characters of text before and after a chunk that the detectors see but do not own.
DEFAULT_CONTEXT_CHARS = 1_000
# Where to cut, best first: between paragraphs, between lines, between words.
BOUNDARIES: tuple[str, ...] = ("\n\n", "\n", " ")


def chunk_bounds(text: str, max_chars: int) -> list[tuple[int, int]]:
    """(start, end) offsets of consecutive chunks of at most `max_chars` characters that
    cover `text`, each cut after the last paragraph break in reach, else the last line break,
    else the last space, else at `max_chars`."""
    if max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, got {max_chars}")
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = min(start + max_chars, len(text))
        if end < len(text):
            end = _cut_point(text, start, end)
        bounds.append((start, end))
        start = end
    return bounds


def _cut_point(text: str, start: int, end: int) -> int:
    """The offset after the best boundary in `text[start:end]` (see `BOUNDARIES`)."""
    for boundary in BOUNDARIES:
        found = text.rfind(boundary, start, end)
        if found > start:
            return found + len(boundary)
    return end


def anonymizer_names(nlp: Language) -> list[str]:
    """Names of the pipeline's components made by the anonymizer factory."""
    return [name for name in nlp.pipe_names
            if nlp.get_pipe_meta(name).factory == ANONYMIZER_FACTORY]


def detect_in_chunks(nlp: Language, text: str, max_chars: int = DEFAULT_MAX_CHARS,
                     context_chars: int = DEFAULT_CONTEXT_CHARS) -> Iterator[tuple[int, int, str]]:
    """(start, end, label) of every entity the pipeline's detectors find in `text`, chunk
    by chunk; an entity belongs to the chunk it starts in and is kept whole."""
    detectors_off = anonymizer_names(nlp)
    with nlp.select_pipes(disable=detectors_off):
        for start, end in chunk_bounds(text, max_chars):
            window_start = max(0, start - context_chars)
            window_end = min(len(text), end + context_chars)
            doc = nlp(text[window_start:window_end])
            for ent in doc.ents:
                ent_start = window_start + ent.start_char
                if start <= ent_start < end:
                    yield ent_start, window_start + ent.end_char, ent.label_


def process_long(nlp: Language, text: str | Doc, max_chars: int = DEFAULT_MAX_CHARS,
                 context_chars: int = DEFAULT_CONTEXT_CHARS) -> Doc:
    """`nlp(text)` for a text of any length: a text longer than `max_chars` is detected in
    chunks (`detect_in_chunks`) and anonymized as a whole; nothing is cut off or refused.
    `text` may be a Doc from `nlp.make_doc` whose extensions (e.g. `deid_secret_key`) the
    anonymizer is to see; its text is detected the same way."""
    full_text = text.text if isinstance(text, Doc) else text
    if len(full_text) <= max_chars:
        return nlp(text)
    found = detect_in_chunks(nlp, full_text, max_chars, context_chars)
    doc = text if isinstance(text, Doc) else nlp.tokenizer(text)
    spans = []
    for start, end, label in found:
        span = doc.char_span(start, end, label=label, alignment_mode="expand")
        if span is not None:
            spans.append(span)
    doc.ents = filter_spans(spans)
    for name in anonymizer_names(nlp):
        doc = nlp.get_pipe(name)(doc)
    return doc
