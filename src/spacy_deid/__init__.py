"""spacy-deid: multilingual de-identification of clinical text with spaCy."""

from spacy_deid.extensions import register_extensions

register_extensions()

__all__ = ["register_extensions"]
