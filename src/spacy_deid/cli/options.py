"""Options that `spacy-deid run` and `spacy-deid spark` share, defined once so that both
commands name and explain them the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.chunking import DEFAULT_CONTEXT_CHARS, DEFAULT_MAX_CHARS
from spacy_deid.cli.keys import KEY_ENV

Strategy = Annotated[list[str] | None, typer.Option(
    help="LABEL=surrogate|mask|redact|tag|keep (repeatable)")]
KeyFile = Annotated[Path | None, typer.Option(
    help="File holding the secret key (default: environment variable, else a random key for "
    "this run)")]
KeyEnv = Annotated[str, typer.Option(help="Environment variable with the secret key")]
MaxChars = Annotated[int, typer.Option(
    help="Longer texts are detected in chunks (spacy_deid.chunking)")]
ContextChars = Annotated[int, typer.Option(help="Context on each side of a chunk")]

__all__ = ["DEFAULT_CONTEXT_CHARS", "DEFAULT_MAX_CHARS", "KEY_ENV", "ContextChars", "KeyEnv",
           "KeyFile", "MaxChars", "Strategy"]
