"""Write the results tables (from `metrics/*.json`) between two markers of README.md and
of the detailed results page.

README gets one row per language for the shipped pipelines: the letters and the other
genres side by side, scores and leakage. The details page (`--details`, e.g.
`docs/results.md`) gets the shipped pipelines against the product's targets, every metrics
file as a row (cross-validation aggregates as mean ± sd) and the throughput table.
Everything outside `<!-- scores:start -->` ... `<!-- scores:end -->` is left as it is; the
commands that produced the files are listed under the tables.

Usage::

    python scripts/evaluation/readme_table.py --metrics-dir metrics --readme README.md \
        --details docs/results.md
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import srsly
import typer

from scripts.evaluation.leakage import LETTERS_LEAK_TARGET, OTHER_GENRES_LEAK_TARGET
from spacy_deid.lang import LANGUAGES

START_MARKER = "<!-- scores:start -->"
END_MARKER = "<!-- scores:end -->"
THROUGHPUT_FILE = "throughput.json"
# The suffix of the transformer pipelines' files (`metrics/<lang>_trf.json`).
TRANSFORMER = "_trf"

# MultiGraSCCo (Baroud et al. 2026), mmBERT, PHI layer, relaxed micro F1 on the reduced
# label set, sentence-level 65/15/20 split (../shared/docs/benchmarks.md).
PUBLISHED_RELAXED_MICRO_F1: dict[str, float] = {
    "de": 0.955, "en": 0.933, "fr": 0.927, "it": 0.938, "pl": 0.931,
    "ru": 0.865, "uk": 0.900, "tr": 0.763, "ar": 0.951, "fa": 0.944,
}

COLUMNS: tuple[str, ...] = (
    "lang", "setting", "docs", "strict P", "strict R", "strict F1", "strict F2",
    "strict macro F1", "type F1", "relaxed F1 (paper labels)", "relaxed macro F1 (paper labels)",
    "MultiGraSCCo relaxed F1", "file",
)


def format_score(value: Any) -> str:
    """A score as 0.123, a mean/sd record as 0.123 ± 0.045, a missing one as an en dash."""
    if isinstance(value, Mapping):
        if value.get("mean") is None:
            return "–"
        return f"{value['mean']:.3f} ± {value.get('sd', 0.0):.3f}"
    if value is None:
        return "–"
    return f"{value:.3f}"


def _score(metrics: Mapping[str, Any], label_set: str, schema: str, level: str,
           key: str) -> Any:
    """One score from a metrics record; None if absent or if the label set had no entities."""
    try:
        scores = metrics["label_sets"][label_set]["scores"][schema]
        micro = scores["micro"]
        if micro.get("possible") == 0 and micro.get("actual") == 0:
            return None
        return scores[level][key]
    except KeyError:
        return None


def is_metrics_record(data: Any) -> bool:
    """Whether `data` looks like a file written by `scripts.evaluation.evaluate` (run or
    aggregate)."""
    return isinstance(data, Mapping) and isinstance(data.get("label_sets"), Mapping)


def table_row(metrics: Mapping[str, Any], source: str) -> list[str]:
    """One table row for a metrics record read from `source`."""
    lang = metrics.get("lang")
    lang_text = ", ".join(lang) if isinstance(lang, list) else str(lang)
    setting = metrics.get("name") or ""
    if metrics.get("aggregate"):
        setting = (setting + " " if setting else "") + f"{metrics.get('n_runs', '?')}-fold CV"
    published = PUBLISHED_RELAXED_MICRO_F1.get(lang_text) if isinstance(lang, str) else None
    return [
        lang_text,
        setting or "–",
        str(metrics.get("n_docs", "–")),
        format_score(_score(metrics, "fine", "strict", "micro", "p")),
        format_score(_score(metrics, "fine", "strict", "micro", "r")),
        format_score(_score(metrics, "fine", "strict", "micro", "f1")),
        format_score(_score(metrics, "fine", "strict", "micro", "f2")),
        format_score(_score(metrics, "fine", "strict", "macro", "f1")),
        format_score(_score(metrics, "fine", "type", "micro", "f1")),
        format_score(_score(metrics, "reduced", "partial", "micro", "f1")),
        format_score(_score(metrics, "reduced", "partial", "macro", "f1")),
        format_score(published),
        f"`{source}`",
    ]


def _sort_key(item: tuple[str, Mapping[str, Any]]) -> tuple[int, str, str]:
    source, metrics = item
    lang = metrics.get("lang")
    order = LANGUAGES.index(lang) if isinstance(lang, str) and lang in LANGUAGES else len(LANGUAGES)
    return order, str(metrics.get("name") or ""), source


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a markdown table, with any `|` inside a cell escaped."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def scores_table(records: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """Markdown: the scores table, a legend, and the command behind each metrics file."""
    if not records:
        return "_No metrics yet: run the evaluation commands of project.yml._"
    ordered = sorted(records, key=_sort_key)
    lines = markdown_table(COLUMNS, [table_row(metrics, source) for source, metrics in ordered])
    lines += [
        "",
        "strict: exact span and label, on the fine GraSCCo labels; type: overlap and same "
        "label; relaxed: overlap with any label, partial overlaps at half credit (nervaluate "
        "`partial`), on the MultiGraSCCo label set (names merged, labels with <= 11 training "
        "examples dropped; each file records its label list). The published MultiGraSCCo "
        "numbers were measured on a sentence-level split, so they compare directly only with "
        "the sentence-level rows.",
        "",
        "Commands:",
        "",
    ]
    lines += [f"- `{source}`: `{metrics.get('command', '?')}` ({metrics.get('created', '?')})"
              for source, metrics in ordered]
    return "\n".join(lines)


RESULTS_HEADER: tuple[str, ...] = (
    "lang", "letters: strict P", "strict R", "strict F1", "names + IDs leaked",
    "other genres: strict F1", "names caught", "IDs caught", "names + IDs leaked",
)


def _leak_cell(report: Mapping[str, Any] | None) -> str:
    """`3 / 65 (4.6%), 2 as PHI` from a leakage report's names-and-IDs summary (the second
    count, `leaked_unreplaced`, where the report has it)."""
    if not report:
        return "–"
    row = report["names_and_ids"]
    cell = f"{row['leaked']} / {row['spans']} ({row['leak_rate']:.1%})"
    as_phi = row.get("leaked_unreplaced")
    return cell if as_phi is None else f"{cell}, {as_phi} as PHI"


def _caught_cell(source: Mapping[str, Any] | None, group: str) -> str:
    """`0.953 (61 / 64)` from a per-source summary's caught rates."""
    if not source:
        return "–"
    row = source["caught"][group]
    if not row["spans"]:
        return "–"
    return f"{format_score(row['caught'] / row['spans'])} ({row['caught']} / {row['spans']})"


def _other_source(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The per-source summary of the source that is not the record's main one (the other
    genres beside the letters)."""
    return next((row for source, row in record.get("sources", {}).items()
                 if source != record.get("source")), None)


def results_table(metrics_dir: Path, suffix: str = "") -> str:
    """Markdown: per language, the shipped pipeline (`suffix` "_trf": the transformer one) on
    the letters' and the other genres' test documents (`metrics/<lang><suffix>.json`,
    `metrics/leakage_<lang><suffix>.json`)."""
    rows, commands = [], {}
    for lang in LANGUAGES:
        path = Path(metrics_dir) / f"{lang}{suffix}.json"
        if not path.is_file():
            continue
        metrics = srsly.read_json(path)
        leakage_path = Path(metrics_dir) / f"leakage_{lang}{suffix}.json"
        leakage = srsly.read_json(leakage_path) if leakage_path.is_file() else {}
        other, other_leakage = _other_source(metrics), _other_source(leakage)
        rows.append([
            lang,
            format_score(_score(metrics, "fine", "strict", "micro", "p")),
            format_score(_score(metrics, "fine", "strict", "micro", "r")),
            format_score(_score(metrics, "fine", "strict", "micro", "f1")),
            _leak_cell(leakage),
            format_score(other["strict_micro"]["f1"]) if other else "–",
            _caught_cell(other, "names"),
            _caught_cell(other, "ids"),
            _leak_cell(other_leakage),
        ])
        commands.setdefault(metrics.get("command", "?"), None)
    workflow = "all-trf" if suffix == TRANSFORMER else "all"
    if not rows:
        return f"_No metrics yet: run `spacy project run {workflow}`._"
    lines = markdown_table(RESULTS_HEADER, rows)
    step = suffix.replace("_", "-")
    lines += ["", f"Made by `spacy project run {workflow}` (steps `evaluate{step}` and "
              f"`leakage{step}`):", ""]
    lines += [f"- `{command}`" for command in commands]
    return "\n".join(lines)


def has_transformer_results(metrics_dir: Path) -> bool:
    """Whether any language's `_trf` pipeline has been scored (`metrics/<lang>_trf.json`)."""
    return any((Path(metrics_dir) / f"{lang}{TRANSFORMER}.json").is_file() for lang in LANGUAGES)


def readme_results(metrics_dir: Path) -> str:
    """Markdown for the README: the CPU pipelines' table, and the `_trf` pipelines' under it
    once they have been scored."""
    parts = [results_table(metrics_dir)]
    if has_transformer_results(metrics_dir):
        parts += [f"The transformer pipelines `xx_deid_<lang>{TRANSFORMER}`:",
                  results_table(metrics_dir, TRANSFORMER)]
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Targets:
    """The product's targets for one kind of shipped pipeline: per-language columns (header,
    where the value comes from, threshold, whether the value must stay at or below it), the
    German cross-validation F1, the training time and, where set, the speed on one CPU core
    (the entry of `throughput<suffix>.json` and its least tokens per second)."""

    suffix: str
    title: str
    columns: tuple[tuple[str, str, float, bool], ...]
    cv_f1: float
    train_minutes: int
    train_where: str
    train_step: str
    cpu_speed: tuple[str, int] | None = None


CPU_TARGETS = Targets(
    suffix="",
    title="Against the targets (✓ met, ✗ not met):",
    columns=(
        ("letters: strict R ≥ 0.92", "letters_recall", 0.92, False),
        ("letters: names + IDs leaked ≤ 1 %", "letters_leak", LETTERS_LEAK_TARGET, True),
        ("other genres: names overlapped ≥ 0.95", "names_overlapped", 0.95, False),
        ("other genres: IDs overlapped ≥ 0.90", "ids_overlapped", 0.90, False),
        ("other genres: names + IDs leaked ≤ 2 %", "other_leak", OTHER_GENRES_LEAK_TARGET,
         True),
    ),
    cv_f1=0.89, train_minutes=45, train_where="on 2 CPU cores", train_step="train")
TRANSFORMER_TARGETS = Targets(
    suffix=TRANSFORMER,
    title=f"The transformer pipelines `xx_deid_<lang>{TRANSFORMER}` against their targets "
          "(✓ met, ✗ not met):",
    columns=(
        ("letters: strict R ≥ 0.95", "letters_recall", 0.95, False),
        ("letters: strict F1 ≥ 0.90", "letters_f1", 0.90, False),
        ("letters: names + IDs leaked ≤ 1 %", "letters_leak", LETTERS_LEAK_TARGET, True),
    ),
    cv_f1=0.90, train_minutes=10, train_where="on one GPU", train_step="train-trf",
    # `xx_deid_de_trf` on one CPU core without the GPU (`benchmark-trf`)
    cpu_speed=("xx_deid_de_trf-cpu", 1500))


def _overlapped_rate(source: Mapping[str, Any] | None, group: str) -> tuple[float, float] | None:
    """(share of gold spans any predicted span overlaps, share caught whole) of one group."""
    if not source:
        return None
    row = source["caught"][group]
    if not row["spans"]:
        return None
    return row["overlapped"] / row["spans"], row["caught"] / row["spans"]


def target_values(metrics_dir: Path, lang: str, suffix: str = "") -> dict[str, Any]:
    """Per target key, the measured value of `lang`'s shipped pipeline (`suffix` "_trf": the
    transformer one; None where a file is missing)."""
    metrics_path = Path(metrics_dir) / f"{lang}{suffix}.json"
    leakage_path = Path(metrics_dir) / f"leakage_{lang}{suffix}.json"
    metrics = srsly.read_json(metrics_path) if metrics_path.is_file() else {}
    leakage = srsly.read_json(leakage_path) if leakage_path.is_file() else {}
    other, other_leakage = _other_source(metrics), _other_source(leakage)
    sentence_path = Path(metrics_dir) / f"{lang}_sentence{suffix}.json"
    return {
        "letters_recall": _score(metrics, "fine", "strict", "micro", "r") if metrics else None,
        "letters_f1": _score(metrics, "fine", "strict", "micro", "f1") if metrics else None,
        "letters_leak": leakage["names_and_ids"]["leak_rate"] if leakage else None,
        "names_overlapped": _overlapped_rate(other, "names"),
        "ids_overlapped": _overlapped_rate(other, "ids"),
        "other_leak": other_leakage["names_and_ids"]["leak_rate"] if other_leakage else None,
        "sentence_relaxed": (_score(srsly.read_json(sentence_path), "reduced", "partial",
                                    "micro", "f1") if sentence_path.is_file() else None),
    }


def _verdict(value: float, threshold: float, at_most: bool) -> str:
    met = value <= threshold if at_most else value >= threshold
    return "✓" if met else "✗"


def _compared_score(value: float, threshold: float) -> str:
    """A score to three places, or to four where three would round it onto the threshold
    (0.9196 is not 0.920)."""
    text = f"{value:.3f}"
    return f"{value:.4f}" if float(text) == threshold and value != threshold else text


def _target_cell(value: Any, threshold: float, at_most: bool) -> tuple[str, bool | None]:
    """The cell text and whether the target is met (None when there is no value)."""
    if value is None:
        return "–", None
    if isinstance(value, tuple):
        overlapped, whole = value
        verdict = _verdict(overlapped, threshold, at_most)
        return (f"{_compared_score(overlapped, threshold)} {verdict} (whole {whole:.3f})",
                verdict == "✓")
    verdict = _verdict(value, threshold, at_most)
    text = f"{value:.1%}" if at_most else _compared_score(value, threshold)
    return f"{text} {verdict}", verdict == "✓"


def targets_table(metrics_dir: Path, targets: Targets = CPU_TARGETS) -> str:
    """Markdown: each language's shipped pipeline of one kind against its targets, with the
    number of languages that meet each, and the German cross-validation and training time
    targets; empty if there are no metrics of that kind yet."""
    header = ["lang", *(column for column, *_ in targets.columns),
              "sentence split: relaxed F1 ≥ MultiGraSCCo"]
    rows, met = [], [0] * len(header[1:])
    for lang in LANGUAGES:
        values = target_values(metrics_dir, lang, targets.suffix)
        if all(value is None for value in values.values()):
            continue
        cells = [_target_cell(values[key], threshold, at_most)
                 for _, key, threshold, at_most in targets.columns]
        published = PUBLISHED_RELAXED_MICRO_F1[lang]
        cell, ok = _target_cell(values["sentence_relaxed"], published, False)
        cells.append((cell if ok is None else f"{cell} vs {published:.3f}", ok))
        rows.append([lang, *(text for text, _ in cells)])
        met = [count + bool(ok) for count, (_, ok) in zip(met, cells, strict=True)]
    if not rows:
        return ""
    rows.append(["met in", *(f"{count} / {len(rows)}" for count in met)])
    lines = [targets.title, "", *markdown_table(header, rows)]
    lines += _cv_and_time_lines(Path(metrics_dir), targets)
    return "\n".join(lines)


def _cv_and_time_lines(metrics_dir: Path, targets: Targets) -> list[str]:
    """The bullet lines under a targets table: German cross-validation, training time and,
    for the transformer pipelines, their speed on one CPU core."""
    lines = []
    cv_name = f"de_cv{targets.suffix}.json"
    if (metrics_dir / cv_name).is_file():
        cv = srsly.read_json(metrics_dir / cv_name)
        f1 = _score(cv, "fine", "strict", "micro", "f1")
        if f1:
            folds = cv.get("n_runs", "?")
            lines += [f"- German document-level {folds}-fold CV, strict micro F1 ≥ "
                      f"{targets.cv_f1:.2f}: "
                      f"{format_score(f1)} {_verdict(f1['mean'], targets.cv_f1, False)} "
                      f"(`metrics/{cv_name}`)"]
    times_name = f"train_time{targets.suffix}.json"
    if (metrics_dir / times_name).is_file():
        times = srsly.read_json(metrics_dir / times_name)
        wall = times.get("_wall_seconds", {}).get("seconds")
        if wall is not None:
            devices = sorted({str(record["device"]) for record in times.values()
                              if isinstance(record, Mapping)
                              and record.get("device", "cpu") != "cpu"})
            where = f", measured on {', '.join(devices)}" if devices else ""
            limit = targets.train_minutes * 60
            lines += [f"- The `{targets.train_step}` step ≤ {targets.train_minutes} min "
                      f"{targets.train_where}: {wall / 60:.1f} min {_verdict(wall, limit, True)}"
                      f"{where} (`metrics/{times_name}`)"]
    throughput_name = f"throughput{targets.suffix}.json"
    if targets.cpu_speed and (metrics_dir / throughput_name).is_file():
        name, least = targets.cpu_speed
        entry = srsly.read_json(metrics_dir / throughput_name).get("pipelines", {}).get(name)
        if entry:
            speed = entry["tokens_per_second"]
            lines += [f"- `{name.removesuffix('-cpu')}` on one CPU core ≥ {least:,} tokens/s: "
                      f"{speed:,.0f} "
                      f"{_verdict(speed, least, False)} "
                      f"(`metrics/{throughput_name}`, {entry.get('cpu', 'CPU')})"]
    return ["", *lines] if lines else []


def throughput_table(data: Mapping[str, Any]) -> str:
    """Markdown table of the pipelines in a throughput.json, with their commands."""
    entries = list(data.get("pipelines", {}).values())
    if not entries:
        return ""
    rows = [[str(e.get("name")), f"{e.get('tokens_per_second', 0):,.0f}",
             str(e.get("n_tokens", "–")), str(e.get("cpu", "–")), f"`{e.get('command', '?')}`"]
            for e in entries]
    header = ("pipeline", "tokens/s (1 CPU core, median)", "tokens", "CPU", "command")
    return "\n".join(["Throughput:", "", *markdown_table(header, rows)])


def load_records(metrics_dir: Path) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """The metrics records under `metrics_dir` (path, data) and the JSON files skipped."""
    records: list[tuple[str, dict[str, Any]]] = []
    skipped: list[str] = []
    for path in sorted(Path(metrics_dir).glob("*.json")):
        if path.name == THROUGHPUT_FILE:
            continue
        try:
            data = srsly.read_json(path)
        except ValueError as err:
            raise ValueError(f"{path} is not valid JSON: {err}") from err
        if is_metrics_record(data):
            records.append((path.as_posix(), data))
        else:
            skipped.append(path.as_posix())
    return records, skipped


def build_block(metrics_dir: Path) -> tuple[str, list[str]]:
    """The full generated markdown block for `metrics_dir`, and the files skipped."""
    records, skipped = load_records(metrics_dir)
    parts = [table for table in (targets_table(metrics_dir),
                                 targets_table(metrics_dir, TRANSFORMER_TARGETS),
                                 scores_table(records)) if table]
    throughput_path = Path(metrics_dir) / THROUGHPUT_FILE
    if throughput_path.is_file():
        table = throughput_table(srsly.read_json(throughput_path))
        if table:
            parts.append(table)
    return "\n\n".join(parts), skipped


def replace_between_markers(text: str, block: str, start: str = START_MARKER,
                            end: str = END_MARKER) -> str:
    """`text` with everything between the markers `start` and `end` replaced by `block`.

    Raises a ValueError if the markers are missing, repeated or out of order.
    """
    starts, ends = text.count(start), text.count(end)
    if starts != 1 or ends != 1:
        raise ValueError(
            f"the page needs exactly one {start} and one {end} (found {starts} and {ends})")
    head, rest = text.split(start)
    if end not in rest:
        raise ValueError(f"{end} comes before {start} in the page")
    _, tail = rest.split(end)
    return f"{head}{start}\n{block.strip()}\n{end}{tail}"


def print_or_write_table(make_table: Callable[[], str], page: Path | None, start: str,
                         end: str) -> None:
    """Print the table `make_table` builds, or write it between `start` and `end` of `page`;
    a missing file, a missing metric or a page without its markers exits with code 1 and
    says why."""
    try:
        table = make_table()
        if page is None:
            typer.echo(table)
            return
        text = page.read_text(encoding="utf-8")
        page.write_text(replace_between_markers(text, table, start, end), encoding="utf-8")
    except (OSError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    typer.echo(f"{page}: table written")


def append_scores_section(text: str, heading: str = "## Scores") -> str:
    """`text` with an empty scores section (heading and markers) appended at the end."""
    body = text.rstrip("\n")
    separator = "\n\n" if body else ""
    return f"{body}{separator}{heading}\n\n{START_MARKER}\n{END_MARKER}\n"


def update_readme(readme: Path, block: str, append_if_missing: bool = True) -> bool:
    """Write `block` between the markers of `readme`; return whether the file changed."""
    readme = Path(readme)
    if not readme.is_file():
        raise FileNotFoundError(f"README not found: {readme}")
    original = readme.read_text(encoding="utf-8")
    text = original
    if append_if_missing and START_MARKER not in text and END_MARKER not in text:
        text = append_scores_section(text)
    updated = replace_between_markers(text, block)
    if updated != original:
        readme.write_text(updated, encoding="utf-8")
    return updated != original


app = typer.Typer(add_completion=False)


@app.command()
def main(
    metrics_dir: Annotated[Path, typer.Option("--metrics-dir", help="Folder of metrics JSON")
                           ] = Path("metrics"),
    readme: Annotated[Path, typer.Option("--readme", help="README to update")] = Path("README.md"),
    details: Annotated[Path | None, typer.Option(
        "--details", help="Page for the table of every metrics file, e.g. docs/results.md")
                       ] = None,
    append_if_missing: Annotated[bool, typer.Option(
        "--append-if-missing/--no-append",
        help="Append a '## Scores' section with the markers if the README has none")] = True,
) -> None:
    """Regenerate the scores table in README from the metrics files."""
    try:
        block, skipped = build_block(metrics_dir)
        pages = {readme: readme_results(metrics_dir) if details is not None else block}
        if details is not None:
            if not details.is_file():
                details.parent.mkdir(parents=True, exist_ok=True)
                details.write_text("# Results\n", encoding="utf-8")
            pages[details] = block
        changed = {page: update_readme(page, text, append_if_missing)
                   for page, text in pages.items()}
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    for path in skipped:
        print(f"Skipped {path}: not a metrics file from scripts.evaluation.evaluate",
              file=sys.stderr)
    for page, was_changed in changed.items():
        typer.echo(f"{page}: {'updated' if was_changed else 'already up to date'}")


if __name__ == "__main__":
    app()
