"""The table of docs/presidio.md, made from `metrics/presidio_<lang>.json`.

The `benchmark` step scores each pipeline without `deid_presidio_patterns` (`ner`), the
recognizers alone (`presidio`) and both merged (`merged`), and times some languages through
Presidio's engines against the pipeline called directly; this writes one row per language
between `<!-- presidio:start -->` and `<!-- presidio:end -->` of the page, or prints it
without `--page`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import srsly
import typer

from scripts.evaluation.readme_table import (
    format_score,
    markdown_table,
    replace_between_markers,
)
from spacy_deid.lang import LANGUAGES

START_MARKER = "<!-- presidio:start -->"
END_MARKER = "<!-- presidio:end -->"
VARIANTS: tuple[str, ...] = ("ner", "presidio", "merged")


def strict_f1(record: Mapping[str, Any], variant: str) -> float | None:
    """Strict micro F1 over all labels of one variant, None where it was not scored."""
    scores = record.get("scores", {}).get(variant)
    return scores["all_labels"]["strict"]["f1"] if scores else None


def time_ratio(record: Mapping[str, Any]) -> str:
    """Seconds through Presidio over seconds direct, or an en dash where not timed."""
    ratio = (record.get("throughput") or {}).get("presidio_over_direct_time_ratio")
    return "–" if ratio is None else f"{ratio:.3f}"


def presidio_table(folder: Path) -> str:
    """Markdown: per language, strict F1 of each variant and the time ratio."""
    header = ["lang", *(f"`{variant}`" for variant in VARIANTS),
              "time through Presidio / direct"]
    rows = []
    for lang in LANGUAGES:
        path = Path(folder) / f"presidio_{lang}.json"
        if not path.is_file():
            continue
        record = srsly.read_json(path)
        rows.append([lang, *(format_score(strict_f1(record, variant)) for variant in VARIANTS),
                     time_ratio(record)])
    if not rows:
        raise ValueError(f"no presidio_<lang>.json in {folder}")
    return "\n".join(markdown_table(header, rows))


app = typer.Typer(add_completion=False)


@app.command()
def main(
    folder: Annotated[Path, typer.Argument(help="metrics")],
    page: Annotated[Path | None, typer.Option(
        "--page", help="Write the table between the page's presidio markers")] = None,
) -> None:
    """Print the Presidio benchmark table, or write it into a page."""
    try:
        table = presidio_table(folder)
        if page is None:
            typer.echo(table)
            return
        text = page.read_text(encoding="utf-8")
        page.write_text(replace_between_markers(text, table, START_MARKER, END_MARKER),
                        encoding="utf-8")
    except (OSError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    typer.echo(f"{page}: presidio table written")


if __name__ == "__main__":
    app()
