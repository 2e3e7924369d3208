"""The cross-genre table of docs/generalisation.md, made from `metrics/cross_genre/`.

`spacy project run compare-genres` scores the multilingual NER trained on the letters alone
(`<lang>_letters_only.json`) and on the letters and the multi-genre documents
(`<lang>_both.json`) on both sources' test documents; this writes one row per language
between `<!-- cross-genre:start -->` and `<!-- cross-genre:end -->` of the page, or prints
it without `--page`.
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

START_MARKER = "<!-- cross-genre:start -->"
END_MARKER = "<!-- cross-genre:end -->"
VARIANTS: tuple[tuple[str, str], ...] = (("letters_only", "letters only"), ("both", "both"))
# (source, measure, column title); the measures are strict micro F1 and the share of the
# gold person names and IDs caught whole
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("letters", "f1", "letters F1"), ("synthetic", "f1", "other genres F1"),
    ("synthetic", "names", "names caught"), ("synthetic", "ids", "IDs caught"))


def source_measure(metrics: Mapping[str, Any], source: str, measure: str) -> float | None:
    """Strict micro F1 (`f1`) or the caught share of `names`/`ids` of one source."""
    scores = metrics.get("sources", {}).get(source)
    if not scores:
        return None
    if measure == "f1":
        return scores["strict_micro"]["f1"]
    row = scores["caught"][measure]
    return row["caught"] / row["spans"] if row["spans"] else None


def cross_genre_table(folder: Path) -> str:
    """Markdown: per language, each column for the letters-only and the both-sources model."""
    header = ["lang"] + [f"{title}: {variant}" for _, _, title in COLUMNS
                         for _, variant in VARIANTS]
    rows = []
    for lang in LANGUAGES:
        paths = {key: Path(folder) / f"{lang}_{key}.json" for key, _ in VARIANTS}
        if not all(path.is_file() for path in paths.values()):
            continue
        records = {key: srsly.read_json(path) for key, path in paths.items()}
        rows.append([lang] + [format_score(source_measure(records[key], source, measure))
                              for source, measure, _ in COLUMNS for key, _ in VARIANTS])
    if not rows:
        raise ValueError(f"no pair of <lang>_letters_only.json and <lang>_both.json in {folder}")
    return "\n".join(markdown_table(header, rows))


app = typer.Typer(add_completion=False)


@app.command()
def main(
    folder: Annotated[Path, typer.Argument(help="metrics/cross_genre")],
    page: Annotated[Path | None, typer.Option(
        "--page", help="Write the table between the page's cross-genre markers")] = None,
) -> None:
    """Print the cross-genre table, or write it into a page."""
    print_or_write_table(lambda: cross_genre_table(folder), page, START_MARKER, END_MARKER)


if __name__ == "__main__":
    app()
