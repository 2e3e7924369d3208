"""Language data shipped as JSON in `spacy_deid/lang/resources/`."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def load_resource(name: str) -> dict:
    """Load a JSON file shipped in `spacy_deid/lang/resources/` (cached)."""
    path = resources.files("spacy_deid.lang").joinpath("resources", name)
    text = path.read_text(encoding="utf-8")
    return json.loads(text)
