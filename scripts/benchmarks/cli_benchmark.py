"""Documents per second of `spacy-deid run` with one process and with two (`--n-process`),
and the speed-up, in `metrics/command_line.json`.

The documents are the paragraphs of the German multi-genre notes in
`corpus/synthetic_clinical/de` (inline tags stripped), cycled to `--docs` rows of a JSONL
file with a patient id per row (per-patient keys, as in production). Each run is a fresh
`spacy-deid run` process into an empty output folder; its manifest's documents per second
(processing only, the pipeline load left out) is the measure. `--repeats` rounds, one
process and two taking turns so that both meet the same load; the best of each counts.
`machine_check_speed_up` records what two plain Python processes gained over one before
each round: the ceiling of any speed-up on the machine at that time.

Usage::

    python -m scripts.benchmarks.cli_benchmark training/de/pipeline \
        --output metrics/command_line.json
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import srsly
import typer

from scripts.benchmarks.benchmark import cpu_model
from scripts.benchmarks.spark_benchmark import DEFAULT_CORPUS, machine_check, paragraphs
from scripts.evaluation.evaluate import command_line, timestamp

KEY = "command-line-benchmark-key-not-secret-0123456789"
PROCESSES: tuple[int, ...] = (1, 2)
TARGET_SPEED_UP = 1.8


def write_notes(path: Path, texts: list[str], docs: int) -> None:
    """`docs` JSONL rows (id, patient, text), the texts cycled."""
    with path.open("w", encoding="utf-8") as file_:
        for number in range(docs):
            row = {"id": number, "patient": f"P{number % 50}",
                   "text": texts[number % len(texts)]}
            file_.write(json.dumps(row, ensure_ascii=False) + "\n")


def run_once(pipeline: str, notes: Path, key_file: Path, n_process: int, batch_size: int,
             workdir: Path) -> float:
    """Documents per second of one `spacy-deid run` (from its manifest)."""
    output = Path(tempfile.mkdtemp(dir=workdir))
    subprocess.run([sys.executable, "-m", "spacy_deid.cli", "run", "--pipeline", pipeline,
                    "--quiet", "--n-process", str(n_process), "--batch-size", str(batch_size),
                    "--patient-field", "patient", "--key-file", str(key_file), str(notes),
                    str(output / "out")], check=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    manifest = json.loads(next((output / "out" / "_spacy_deid").glob("run-*.json"))
                          .read_text(encoding="utf-8"))
    if manifest["totals"]["errors"]:
        raise RuntimeError(f"{manifest['totals']['errors']} documents failed")
    return manifest["totals"]["documents_per_second"]


def main(
    pipeline: Annotated[str, typer.Argument(help="Pipeline folder or package name")],
    output: Annotated[Path, typer.Option(help="JSON file to write")] = Path(
        "metrics/command_line.json"),
    corpus: Annotated[Path, typer.Option(help="Folder of tagged .txt documents")] = DEFAULT_CORPUS,
    docs: Annotated[int, typer.Option(help="Documents per run")] = 2000,
    batch_size: Annotated[int, typer.Option(help="--batch-size of each run")] = 64,
    repeats: Annotated[int, typer.Option(help="Rounds of one and two processes")] = 2,
) -> None:
    """Time `spacy-deid run` with one and two processes and write the speed-up."""
    texts = paragraphs(corpus)
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        notes, key_file = workdir / "notes.jsonl", workdir / "deid.key"
        write_notes(notes, texts, docs)
        key_file.write_text(KEY, encoding="utf-8")
        for _ in range(repeats):
            check = machine_check()
            rates = {str(n): run_once(pipeline, notes, key_file, n, batch_size, workdir)
                     for n in PROCESSES}
            rounds.append({"machine_check_speed_up": check, "documents_per_second": rates})
            typer.echo(f"round: {rates} (machine check {check})")
    best = {str(n): max(r["documents_per_second"][str(n)] for r in rounds) for n in PROCESSES}
    speed_up = round(best["2"] / best["1"], 2)
    srsly.write_json(output, {
        "pipeline": pipeline, "documents": docs, "distinct_texts": len(texts),
        "batch_size": batch_size, "rounds": rounds, "documents_per_second": best,
        "speed_up": speed_up, "target_speed_up": TARGET_SPEED_UP,
        "meets_target": speed_up >= TARGET_SPEED_UP, "cpu_count": os.cpu_count(),
        "cpu": cpu_model(), "command": command_line(), "created": timestamp()})
    typer.echo(f"speed-up {speed_up} -> {output}")


if __name__ == "__main__":
    typer.run(main)
