"""Verify the vendored corpus against the checksums in project.yml (nothing is downloaded)."""

from __future__ import annotations

from pathlib import Path

import srsly
import typer
from weasel.util import get_checksum


def main(project_file: Path = typer.Argument(Path("project.yml"), help="The project file")) -> None:
    """Fail with a message naming the asset if a vendored asset is missing or changed."""
    root = project_file.parent
    failures = []
    for asset in srsly.read_yaml(project_file).get("assets", []):
        dest = root / asset["dest"]
        if not dest.exists():
            failures.append(f"{asset['dest']}: missing (vendored from {asset.get('url')})")
        elif asset.get("checksum") and get_checksum(dest) != asset["checksum"]:
            failures.append(f"{asset['dest']}: checksum differs from project.yml")
        else:
            typer.echo(f"ok  {asset['dest']}")
    if failures:
        typer.echo("\n".join(failures), err=True)
        raise typer.Exit(code=1)


if __name__ == "__main__":
    typer.run(main)
