"""Doc extension attributes used by spacy-deid, registered once, in one place."""

from __future__ import annotations

from spacy.tokens import Doc, Span

DOC_EXTENSIONS: dict[str, object] = {
    # Anonymized text written by the `deid_anonymizer` component.
    "deid_text": None,
    # One dict per replaced span (label, original and output offsets, surrogate).
    "deid_replacements": None,
    # The language the text reads as, set by `deid_language_check`: a dict with `lang`,
    # `confidence`, `expected` (the pipeline's language) and `mismatch`.
    "deid_language": None,
    # A secret key for this Doc only (e.g. HMAC(key, patient id), set by `spacy-deid run`):
    # `deid_anonymizer` uses it instead of its configured `secret_key`, so one patient's
    # documents share surrogates and date offset; the anonymizer clears it after use.
    "deid_secret_key": None,
    # Outcome of the LLM translation task (`spacy_deid.AnnotatedTranslation.v1`) on a source Doc:
    # a JSON-able dict (status, target text and spans, attempts, validation errors), so that
    # spacy-llm's on-disk cache keeps it; `translation_task.target_doc` builds the target Doc.
    "deid_translation": None,
}


SPAN_EXTENSIONS: dict[str, object] = {
    # Confidence of a detection (e.g. a Presidio recognizer score) set by
    # `deid_presidio_patterns`; None for entities that carry no score (statistical NER).
    "deid_score": None,
}


def register_extensions() -> None:
    """Register the Doc and Span extensions if they are not registered yet (idempotent)."""
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
    for name, default in SPAN_EXTENSIONS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)
