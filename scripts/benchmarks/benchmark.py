"""Throughput of a trained pipeline on one CPU core (or a GPU fed by one core), in tokens
per second.

Pins the process to one core and every thread pool (torch, OpenMP/BLAS through
numpy) to one thread, warms the pipeline up, then times `nlp.pipe` over the texts of a
DocBin several times and records the median and best rate in `metrics/throughput.json`
(one entry per pipeline name, replaced on rerun, with the command that measured it).

Usage::

    python -m scripts.benchmarks.benchmark training/de/model-best test.spacy --name de-cpu
    python -m scripts.benchmarks.benchmark training/de/model-best test.spacy --name de-gpu \
        --gpu-id 0
"""

from __future__ import annotations

import os

# Thread pools read these when numpy/torch load, so they are set before those imports.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"

import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any  # noqa: E402

import srsly  # noqa: E402
import typer  # noqa: E402

from scripts.evaluation.evaluate import (  # noqa: E402
    command_line,
    cpu_model,
    load_pipeline,
    select_device,
    timestamp,
    transformer_precisions,
)


def limit_to_one_core() -> dict[str, Any]:
    """Pin this process to one CPU core and torch to one thread; report what was set."""
    settings: dict[str, Any] = {"threads": 1}
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        settings["cpu_affinity"] = [core]
    try:
        import torch
    except ImportError:  # torch is only needed by transformer pipelines
        torch = None
    if torch is not None:
        torch.set_num_threads(1)
        settings["torch_threads"] = torch.get_num_threads()
    return settings


def read_texts(path: Path) -> list[str]:
    """The texts of the Docs in a DocBin, with a clear error for a missing/unreadable file."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    if not Path(path).is_file():
        raise FileNotFoundError(f"DocBin not found: {path}")
    try:
        return [doc.text for doc in DocBin().from_disk(path).get_docs(Vocab())]
    except Exception as err:
        raise ValueError(f"Could not read {path} as a spaCy DocBin: {err}") from err


def time_pipe(nlp: Any, texts: Sequence[str], batch_size: int,
              clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
    """Run `nlp.pipe` over `texts` once; return (tokens processed, seconds taken)."""
    start = clock()
    n_tokens = sum(len(doc) for doc in nlp.pipe(texts, batch_size=batch_size))
    return n_tokens, clock() - start


def measure_throughput(nlp: Any, texts: Sequence[str], repeats: int = 3, warmup: int = 20,
                       batch_size: int = 64,
                       clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """Warm up on the first `warmup` texts, then time `repeats` passes over all texts."""
    if not texts:
        raise ValueError("No texts to benchmark on")
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    list(nlp.pipe(texts[: max(warmup, 1)], batch_size=batch_size))
    runs = [time_pipe(nlp, texts, batch_size, clock) for _ in range(repeats)]
    n_tokens = runs[0][0]
    seconds = [elapsed for _, elapsed in runs]
    rates = [n_tokens / elapsed if elapsed > 0 else float("inf") for elapsed in seconds]
    return {
        "n_docs": len(texts),
        "n_tokens": n_tokens,
        "batch_size": batch_size,
        "repeats": repeats,
        "seconds": seconds,
        "tokens_per_second": statistics.median(rates),
        "tokens_per_second_best": max(rates),
    }


def update_throughput_file(path: Path, entry: Mapping[str, Any]) -> dict[str, Any]:
    """Insert or replace `entry` (keyed by its "name") in the throughput JSON at `path`."""
    path = Path(path)
    data: dict[str, Any] = {"pipelines": {}}
    if path.is_file():
        data = srsly.read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("pipelines"), dict):
            raise ValueError(f"{path} is not a throughput file (no 'pipelines' object)")
    data["pipelines"][entry["name"]] = dict(entry)
    data["pipelines"] = dict(sorted(data["pipelines"].items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(path, data)
    return data


def benchmark_pipeline(model: Path, data: Path, name: str | None = None, repeats: int = 3,
                       warmup: int = 20, batch_size: int = 64, gpu_id: int = -1,
                       cpu_precision: str | None = None) -> dict[str, Any]:
    """Load the pipeline on the chosen device, limit it to one core, and return its
    throughput entry (with the precision each transformer encoder ran in)."""
    settings = limit_to_one_core()
    import spacy

    settings.update(select_device(gpu_id))
    nlp = load_pipeline(model, cpu_precision)
    texts = read_texts(Path(data))
    precisions = transformer_precisions(nlp)
    if precisions:
        settings["encoder_precision"] = precisions
    result = measure_throughput(nlp, texts, repeats=repeats, warmup=warmup,
                                batch_size=batch_size)
    return {
        "name": name or Path(model).resolve().name,
        "model": str(model),
        "data": str(data),
        "components": list(nlp.pipe_names),
        **result,
        **settings,
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
        "command": command_line(),
        "created": timestamp(),
    }


app = typer.Typer(add_completion=False)


@app.command()
def main(
    model: Annotated[Path, typer.Argument(help="Trained pipeline directory (spacy.load)")],
    data: Annotated[Path, typer.Argument(help="DocBin whose texts are processed")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Throughput JSON to update")
                      ] = Path("metrics/throughput.json"),
    name: Annotated[str | None, typer.Option(
        "--name", help="Entry name (default: the pipeline directory's name)")] = None,
    repeats: Annotated[int, typer.Option("--repeats", help="Timed passes over the data")] = 3,
    warmup: Annotated[int, typer.Option("--warmup", help="Texts processed before timing")] = 20,
    batch_size: Annotated[int, typer.Option("--batch-size", help="nlp.pipe batch size")] = 64,
    gpu_id: Annotated[int, typer.Option("--gpu-id", help="GPU id, -1 for the CPU")] = -1,
    cpu_precision: Annotated[str | None, typer.Option(
        "--cpu-precision", help="Transformer encoders on a CPU: auto, float32 or bfloat16 "
        "(default: as the pipeline's config says)")] = None,
) -> None:
    """Measure the throughput of MODEL on the texts of DATA (one core, or a GPU) and
    record it."""
    try:
        entry = benchmark_pipeline(model, data, name, repeats, warmup, batch_size, gpu_id,
                                   cpu_precision)
        update_throughput_file(output, entry)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    typer.echo(f"{entry['name']}: {entry['tokens_per_second']:,.0f} tokens/s on "
               f"{entry['device']} with one core "
               f"({entry['n_tokens']} tokens x {repeats}) -> {output}")


if __name__ == "__main__":
    app()
