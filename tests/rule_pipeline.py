"""A small rule-based German pipeline saved to disk, for the command-line and Spark tests:
an entity_ruler for two patient names and dotted dates (and any extra patterns), then
`deid_anonymizer` (surrogates), with the spacy_deid German tokenizer."""

from __future__ import annotations

from pathlib import Path

import spacy

PATTERNS = [
    {"label": "NAME_PATIENT", "pattern": [{"TEXT": "Anna"}, {"TEXT": "Berg"}]},
    {"label": "NAME_PATIENT", "pattern": [{"TEXT": "Max"}, {"TEXT": "Huber"}]},
    {"label": "DATE", "pattern": [{"TEXT": {"REGEX": r"^\d{1,2}\.\d{1,2}\.\d{4}$"}}]},
]


def save_rule_pipeline(path: Path, extra_patterns: list[dict] | None = None) -> Path:
    """Save the pipeline to `path` and return `path`."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns(PATTERNS + list(extra_patterns or []))
    nlp.add_pipe("deid_anonymizer", config={"lang": "de"})
    nlp.to_disk(path)
    return path
