"""The tables of docs/rules.md, made from the files `ablate_rules` writes.

`python -m scripts.evaluation.ablation_tables metrics/rule_ablation.json` prints, for every
rule component, the mean change over the languages when it is switched off (negative: the
component helps), per source; with `--recase`, for a file scored with every text in one case
(`metrics/rule_ablation_lower.json`, `_upper.json`), what `deid_recase` changes in each
language instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from statistics import fmean
from typing import Annotated, Any

import srsly
import typer

from scripts.evaluation.readme_table import markdown_table

SOURCES: tuple[tuple[str, str], ...] = (("letters", "letters"), ("synthetic", "other genres"))
MEASURES: tuple[tuple[str, str], ...] = (("r", "R"), ("p", "P"), ("names_caught", "names"),
                                         ("ids_caught", "IDs"))
RECASE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("letters", "f1", "letters F1"), ("letters", "names_caught", "letters names caught"),
    ("synthetic", "f1", "other genres F1"),
    ("synthetic", "names_caught", "other genres names caught"),
    ("synthetic", "ids_caught", "other genres IDs caught"))


def measure(scores: Mapping[str, Any], key: str) -> float | None:
    """A strict micro score ("r", "p", "f1") or a caught share of one source's scores."""
    value = scores["strict_micro"][key] if key in ("r", "p", "f1") else scores[key]
    return None if value is None else float(value)


def mean_change(languages: Mapping[str, Any], variant: str, source: str, key: str) -> float:
    """Mean over the languages of `variant` minus all components on, for one measure;
    languages where the source has nothing to measure are left out."""
    changes = []
    for variants in languages.values():
        if source not in variants["all"]:
            continue
        on, off = measure(variants["all"][source], key), measure(variants[variant][source], key)
        if on is not None and off is not None:
            changes.append(off - on)
    return fmean(changes) if changes else 0.0


def ablation_table(languages: Mapping[str, Any]) -> str:
    """Markdown: each variant's mean change per source and measure."""
    header = ["switched off"] + [f"{name} {label}" for _, name in SOURCES
                                 for _, label in MEASURES]
    variants = [name for name in next(iter(languages.values())) if name != "all"]
    rows = [[variant_name(variant)] + [signed(mean_change(languages, variant, source, key))
                                       for source, _ in SOURCES for key, _ in MEASURES]
            for variant in variants]
    return "\n".join(markdown_table(header, rows))


def signed(change: float) -> str:
    """A change to three decimals with its sign; one that rounds to zero is "+0.000"."""
    return f"{round(change, 3) + 0.0:+.3f}"


def variant_name(variant: str) -> str:
    """"without deid_recase" -> "without `deid_recase`"; "ner only" as it is."""
    component = variant.removeprefix("without ")
    return variant if component == variant else f"without `{component}`"


def recase_table(languages: Mapping[str, Any]) -> str:
    """Markdown: per language, without -> with `deid_recase`, for each recase column."""
    header = ["lang"] + [label for _, _, label in RECASE_COLUMNS]
    rows = []
    for lang, variants in languages.items():
        cells = []
        for source, key, _ in RECASE_COLUMNS:
            off = measure(variants["without deid_recase"][source], key)
            on = measure(variants["all"][source], key)
            digits = 3 if key == "f1" else 2
            cells.append("–" if off is None or on is None
                         else f"{off:.{digits}f} → {on:.{digits}f}")
        rows.append([lang, *cells])
    return "\n".join(markdown_table(header, rows))


def main(
    ablation_file: Annotated[Path, typer.Argument(help="A file of `ablate_rules`")],
    recase: Annotated[bool, typer.Option(
        help="Per language, without -> with deid_recase (a lower- or upper-case file)")] = False,
) -> None:
    """Print the markdown table of an ablation file."""
    if not ablation_file.exists():
        typer.echo(f"Error: no file {ablation_file}", err=True)
        raise typer.Exit(code=1)
    languages = srsly.read_json(ablation_file).get("languages")
    if not languages:
        typer.echo(f"Error: {ablation_file} holds no language's scores", err=True)
        raise typer.Exit(code=1)
    typer.echo(recase_table(languages) if recase else ablation_table(languages))


if __name__ == "__main__":
    typer.run(main)
