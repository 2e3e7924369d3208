"""Compare two folders of metrics files, timings and timestamps aside.

A fresh clone's `spacy project run all` must reproduce the committed metric files. This
step reads every JSON file that both folders hold, drops the values that measure time or
say when and on which machine a file was made (`created`, `seconds`, `tokens_per_second`,
...), and lists every other value that differs, by file and key path. It exits with 1
when a value differs or a file is missing on one side, so it can gate a run.

Usage::

    python -m scripts.evaluation.compare_metrics metrics /tmp/fresh-clone/metrics
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

# Keys whose values are timings, dates or the machine, never a measured score.
VOLATILE_KEYS: frozenset[str] = frozenset({
    "created", "timestamp", "seconds", "seconds_median", "chars_per_s", "tokens_per_second",
    "tokens_per_second_best", "presidio_over_direct_time_ratio", "_wall_seconds", "cpu",
    "docs_per_second",
})


def stable(value: Any) -> Any:
    """`value` without the volatile keys, at any depth."""
    if isinstance(value, dict):
        return {key: stable(item) for key, item in value.items() if key not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def differences(left: Any, right: Any, path: str = "") -> Iterator[str]:
    """The key paths at which two JSON values differ."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                yield f"{path}/{key}: only in {'left' if key in left else 'right'}"
            else:
                yield from differences(left[key], right[key], f"{path}/{key}")
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            yield from differences(a, b, f"{path}[{index}]")
    elif left != right:
        yield f"{path or '/'}: {json.dumps(left)[:80]} != {json.dumps(right)[:80]}"


def compare_folders(left: Path, right: Path, pattern: str = "*.json") -> dict[str, list[str]]:
    """For every file matching `pattern` in either folder: the differences found (empty
    where the two agree)."""
    names = sorted({p.name for p in left.glob(pattern)} | {p.name for p in right.glob(pattern)})
    report = {}
    for name in names:
        if not (left / name).is_file() or not (right / name).is_file():
            report[name] = [f"only in {left if (left / name).is_file() else right}"]
            continue
        a = stable(json.loads((left / name).read_text(encoding="utf-8")))
        b = stable(json.loads((right / name).read_text(encoding="utf-8")))
        report[name] = list(differences(a, b))
    return report


def kernels_used(folder: Path, pattern: str = "*.json") -> set[str]:
    """The numeric kernels the files in `folder` record (`kernels`, or `_kernels` in
    `train_time.json`), each as JSON: runs on other kernels differ by design."""
    found = set()
    for path in folder.glob(pattern):
        data = json.loads(path.read_text(encoding="utf-8"))
        kernels = data.get("kernels", data.get("_kernels")) if isinstance(data, dict) else None
        if kernels is not None:
            found.add(json.dumps(kernels, sort_keys=True))
    return found


def main(
    left: Path = typer.Argument(..., help="A metrics folder, e.g. metrics"),
    right: Path = typer.Argument(..., help="Another, e.g. a fresh clone's metrics"),
    files: list[str] = typer.Option(["*.json"], help="File name patterns to compare"),
) -> None:
    """Print the files that agree and the differences of those that do not; exit 1 on any."""
    for folder in (left, right):
        if not folder.is_dir():
            raise typer.BadParameter(f"no metrics folder at {folder}")
    report: dict[str, list[str]] = {}
    for pattern in files:
        report.update(compare_folders(left, right, pattern))
    left_kernels, right_kernels = (set().union(*(kernels_used(folder, pattern)
                                                 for pattern in files))
                                   for folder in (left, right))
    if left_kernels != right_kernels:
        typer.echo(f"the two runs computed with other kernels: {sorted(left_kernels)} against "
                   f"{sorted(right_kernels)} (docs/workflow.md#reproducing-the-metrics)")
    differing = {name: found for name, found in report.items() if found}
    for name, found in report.items():
        typer.echo(f"{'DIFFERS' if found else 'same   '} {name}")
        for line in found[:20]:
            typer.echo(f"    {line}")
    typer.echo(f"{len(report) - len(differing)} of {len(report)} files agree "
               f"(timings and timestamps aside)")
    raise typer.Exit(1 if differing else 0)


if __name__ == "__main__":
    typer.run(main)
