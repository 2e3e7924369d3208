"""Path checks shared by the commands: nothing is ever written into the input."""

from __future__ import annotations

from pathlib import Path

import typer


def is_within(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or lies inside it (both resolved, so links and `..` count)."""
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def refuse_inside(path: Path, folder: Path, what: str, where: str, hint: str) -> None:
    """Stop with a usage error when `path` is `folder` or inside it (`what` names the
    option, `where` the folder, for the message)."""
    if is_within(path, folder):
        raise typer.BadParameter(
            f"{path} is {where} or inside it; {hint}", param_hint=what
        )


def refuse_output_in_input(input_path: Path, output: Path, what: str = "OUTPUT") -> None:
    """A command's output must not be the input, lie inside an input folder, or (for an
    input file) be the folder whose file of the same name it would overwrite."""
    hint = "choose a folder outside the input, so that no input file can be overwritten"
    if input_path.is_dir():
        refuse_inside(output, input_path, what, f"the input folder {input_path}", hint)
    elif output.resolve() in (input_path.resolve(), input_path.resolve().parent):
        raise typer.BadParameter(
            f"{output} would hold an output named like the input file {input_path.name}; "
            f"{hint}",
            param_hint=what,
        )
