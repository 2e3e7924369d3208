"""The texts one recognizer of `build_recognizers(lang)` matches, for the recognizer tests."""

from __future__ import annotations

from spacy_deid.presidio.recognizers import build_recognizers


def matches(lang: str, name: str, text: str) -> list[str]:
    """The matched texts, in text order, of the recognizer whose name starts with `name`."""
    recognizer = next(r for r in build_recognizers(lang) if r.name.startswith(name))
    results = recognizer.analyze(text, recognizer.supported_entities)
    return [text[r.start:r.end] for r in sorted(results, key=lambda r: r.start)]
