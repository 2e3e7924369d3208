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
    print_or_write_table,
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
    paths = [(lang, Path(folder) / f"presidio_{lang}.json") for lang in LANGUAGES]
    records = {lang: srsly.read_json(path) for lang, path in paths if path.is_file()}
    if not records:
        raise ValueError(f"no presidio_<lang>.json in {folder}")
    header = ["lang", *(f"`{variant}`" for variant in VARIANTS),
              "time through Presidio / direct"]
    rows = [[lang, *(format_score(strict_f1(record, variant)) for variant in VARIANTS),
             time_ratio(record)] for lang, record in records.items()]
    return "\n".join(markdown_table(header, rows))


app = typer.Typer(add_completion=False)


@app.command()
def main(
    folder: Annotated[Path, typer.Argument(help="metrics")],
    page: Annotated[Path | None, typer.Option(
        "--page", help="Write the table between the page's presidio markers")] = None,
) -> None:
    """Print the Presidio benchmark table, or write it into a page."""
    print_or_write_table(lambda: presidio_table(folder), page, START_MARKER, END_MARKER)


if __name__ == "__main__":
    app()
