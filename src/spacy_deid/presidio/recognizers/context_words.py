"""Context words of the recognizers, read from `context_words.yaml`.

The words that raise a match's score are data, not code: they live in one YAML file beside
this module, listed per kind of recognizer and per language like the `context` of Presidio's
`conf/default_recognizers.yaml`, so that they can be reviewed and extended without touching
the patterns. The file is read once per process.
"""

from __future__ import annotations

import functools
from importlib import resources

import yaml

CONTEXT_WORDS_FILE = "context_words.yaml"


@functools.cache
def load_context_words() -> dict[str, dict[str, tuple[str, ...]]]:
    """All context words, by kind ("phone", "fax", "date", ...) and then by language."""
    text = resources.files(__package__).joinpath(CONTEXT_WORDS_FILE).read_text(encoding="utf-8")
    return {entry["kind"]: _words_by_language(entry["kind"], entry["context"])
            for entry in yaml.safe_load(text)["recognizers"]}


def _words_by_language(kind: str, context: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    words_by_language = {}
    for lang, words in context.items():
        if not all(isinstance(word, str) for word in words):
            raise ValueError(f"{CONTEXT_WORDS_FILE}: {kind}/{lang}: every context word must be "
                             f"a quoted string, got {words!r}")
        words_by_language[lang] = tuple(words)
    return words_by_language


def context_words(kind: str, lang: str) -> list[str]:
    """The context words of `kind` in `lang`, in file order (a new list on every call)."""
    return list(load_context_words()[kind][lang])
