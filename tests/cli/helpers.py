"""Helpers for the `spacy-deid` command tests: input files and the run manifest."""

from __future__ import annotations

import json
from pathlib import Path

from spacy_deid.cli.manifest import manifest_paths

KEY = "a-test-key-of-enough-length-0123456789"


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def manifest(output: Path) -> dict:
    """The latest run manifest in `output`."""
    return json.loads(manifest_paths(output)[-1].read_text(encoding="utf-8"))


def entries(output: Path) -> dict[str, dict]:
    """The latest manifest's document entries by document name."""
    return {e["document"]: e for e in manifest(output)["documents"]}
