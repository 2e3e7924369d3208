"""A progress bar counting documents, with documents per second (rich, which typer uses)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Documents per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("- docs/s" if speed is None else f"{speed:.1f} docs/s", style="cyan")


def document_progress(quiet: bool = False) -> Progress:
    """A progress display on stderr (none with `quiet`)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=quiet,
    )
