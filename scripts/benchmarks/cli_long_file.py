"""Time and peak memory of `spacy-deid run` on one long text file (20 million characters by
default), written to `metrics/command_line_long.json`.

The file is made by repeating the letters of a test split (blank line between letters) up to
the size; the command runs in a fresh process, one thread per pool, and its peak resident
memory is that child's (`getrusage(RUSAGE_CHILDREN)`). The output must have the input's
length class (nothing cut) and the manifest must report the document as done.

Usage::

    python -m scripts.benchmarks.cli_long_file training/de/pipeline corpus/splits/de/test.spacy
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated

import srsly
import typer

from scripts.benchmarks.benchmark import cpu_model
from scripts.benchmarks.scaling import build_text, read_letters
from scripts.evaluation.evaluate import command_line, timestamp

DEFAULT_CHARS = 20_000_000


def main(
    pipeline: Annotated[str, typer.Argument(help="Pipeline folder or package name")],
    data: Annotated[Path, typer.Argument(help="DocBin whose letters are repeated")],
    chars: Annotated[int, typer.Option(help="Length of the text file")] = DEFAULT_CHARS,
    output: Annotated[Path, typer.Option(help="JSON file to write")] = Path(
        "metrics/command_line_long.json"),
) -> None:
    """Run `spacy-deid run` on one long file and record time, memory and outcome."""
    text = build_text(read_letters(data), chars)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "long.txt"
        source.write_text(text, encoding="utf-8")
        size = source.stat().st_size
        del text
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "spacy_deid.cli", "run", "--pipeline",
                               pipeline, "--quiet", str(source), str(Path(tmp) / "out")],
                              env=env, check=False)
        seconds = time.perf_counter() - started
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        out = Path(tmp) / "out" / "long.txt"
        manifest = json.loads(next((Path(tmp) / "out" / "_spacy_deid").glob("run-*.json"))
                              .read_text(encoding="utf-8"))
        entry = manifest["documents"][0]
        result = {
            "pipeline": pipeline, "data": str(data), "characters": chars, "bytes": size,
            "exit_code": done.returncode, "status": entry["status"], "long": entry.get("long"),
            "replaced": entry.get("replaced"),
            "output_characters": len(out.read_text(encoding="utf-8")) if out.exists() else None,
            "seconds": round(seconds, 1), "peak_rss_mb": round(peak_mb, 1),
            "cpu": cpu_model(), "cpu_count": os.cpu_count(), "command": command_line(),
            "created": timestamp(),
        }
    srsly.write_json(output, result)
    typer.echo(f"{chars:,} characters: {result['seconds']} s, peak {result['peak_rss_mb']} MiB, "
               f"status {result['status']} -> {output}")


if __name__ == "__main__":
    typer.run(main)
