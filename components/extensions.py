"""Doc extension attributes used by spacy-deid, registered once, in one place."""

from __future__ import annotations

from spacy.tokens import Doc

DOC_EXTENSIONS: dict[str, object] = {
    # Anonymized text written by the `deid_anonymizer` component.
    "deid_text": None,
    # One dict per replaced span (label, original and output offsets, surrogate).
    "deid_replacements": None,
}


def register_extensions() -> None:
    """Register the Doc extensions if they are not registered yet (idempotent)."""
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
