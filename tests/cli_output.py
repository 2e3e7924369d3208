"""Read a typer CliRunner result as plain words.

Typer prints errors inside a rich panel whose width follows the terminal, so a message
may be wrapped at any space and framed by box characters; tests compare words, not layout.
"""

from __future__ import annotations

import re

from click.testing import Result

BOX_CHARACTERS = re.compile(r"[\u2500-\u257f]")


def plain_output(result: Result) -> str:
    """The output with panel borders removed and all runs of whitespace made one space."""
    return " ".join(BOX_CHARACTERS.sub(" ", result.output).split())
