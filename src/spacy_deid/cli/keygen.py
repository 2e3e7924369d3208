"""`spacy-deid keygen`: a new random secret key in a file only its owner can read."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.cli.keys import KEY_ENV, new_key


def keygen(
    path: Annotated[Path, typer.Argument(metavar="KEY_FILE", help="Where to write the key")],
) -> None:
    """Write a new 256-bit secret key to KEY_FILE (mode 600; an existing file is kept)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise typer.BadParameter(f"{path} exists; a key is never overwritten",
                                 param_hint="KEY_FILE") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(new_key() + "\n")
    typer.echo(f"Wrote a new key to {path}. Keep it apart from the outputs; use it with "
               f"--key-file or the environment variable {KEY_ENV}.")
