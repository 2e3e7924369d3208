"""Time and peak memory of a pipeline on long documents, from 10,000 characters doubling up
to 10 million, on one CPU core.

Each text is made by repeating the real letters of a test split (blank line between
letters) and cutting at the size; it goes through `spacy_deid.chunking.process_long`,
which detects in chunks and anonymizes the whole text at once. Every size is measured in a
fresh subprocess (pinned to one core, every thread pool at one thread), so that its peak
resident memory (`VmHWM`) is its own: loading the pipeline, building the text and
processing it; the resident memory before processing is recorded beside it. The
pipeline is warmed up on one letter before the clock starts. A size is not started when
the rate of the size before predicts it would take longer than `--max-seconds`.

The result, with the targets (10 MB in at most 10 minutes and 2 GB of resident memory),
the machine and the package versions, goes to `metrics/scaling.json`.

Usage::

    python -m scripts.benchmarks.scaling training/de/pipeline corpus/splits/de/test.spacy \
        --output metrics/scaling.json
"""

from __future__ import annotations

import os

# Thread pools read these when numpy/torch load, so they are set before those imports.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"

import json  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any  # noqa: E402

import srsly  # noqa: E402
import typer  # noqa: E402

DEFAULT_START_CHARS = 10_000
DEFAULT_MAX_CHARS = 10_000_000
TARGET_SECONDS_10MB = 600
TARGET_PEAK_RSS_MB = 2048
LETTER_SEPARATOR = "\n\n"


def sizes(start: int, maximum: int) -> list[int]:
    """`start`, doubled while below `maximum`, then `maximum` itself."""
    if start < 1 or maximum < start:
        raise ValueError(f"need 1 <= start <= maximum, got start={start}, maximum={maximum}")
    found = []
    size = start
    while size < maximum:
        found.append(size)
        size *= 2
    return [*found, maximum]


def read_letters(path: Path) -> list[str]:
    """The texts of the letters in a DocBin (all its documents if it records no letters)."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from scripts.corpus.sources import LETTERS, source_of

    if not Path(path).is_file():
        raise FileNotFoundError(f"DocBin not found: {path}")
    docs = list(DocBin().from_disk(path).get_docs(Vocab()))
    letters = [doc.text for doc in docs if source_of(doc) == LETTERS] or [d.text for d in docs]
    letters = [text for text in letters if text.strip()]
    if not letters:
        raise ValueError(f"{path} holds no text")
    return letters


def build_text(letters: list[str], n_chars: int) -> str:
    """The letters repeated in order, a blank line between them, cut at `n_chars`."""
    block = LETTER_SEPARATOR.join(letters) + LETTER_SEPARATOR
    return (block * (n_chars // len(block) + 1))[:n_chars]


def memory_mb(field: str) -> float | None:
    """A memory field of /proc/self/status (VmRSS, VmHWM) in MiB; None off Linux."""
    status = Path("/proc/self/status")
    if not status.is_file():
        return None
    for line in status.read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return None


def peak_rss_mb() -> float:
    """This process's peak resident memory in MiB (VmHWM, else getrusage)."""
    peak = memory_mb("VmHWM")
    if peak is not None:
        return peak
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 1024 / 1024


def measure_size(model: Path, data: Path, n_chars: int, max_chars: int,
                 context_chars: int) -> dict[str, Any]:
    """Process one text of `n_chars` characters (in this process) and report its cost."""
    from scripts.benchmarks.benchmark import limit_to_one_core

    settings = limit_to_one_core()
    import spacy

    from spacy_deid.chunking import process_long

    letters = read_letters(data)
    nlp = spacy.load(model)
    process_long(nlp, letters[0], max_chars, context_chars)  # warm-up, not timed
    text = build_text(letters, n_chars)
    rss_before = memory_mb("VmRSS")
    start = time.perf_counter()
    doc = process_long(nlp, text, max_chars, context_chars)
    seconds = time.perf_counter() - start
    return {
        "chars": len(text),
        "seconds": round(seconds, 3),
        "chars_per_second": round(len(text) / seconds) if seconds > 0 else None,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "rss_before_mb": None if rss_before is None else round(rss_before, 1),
        "n_tokens": len(doc),
        "n_entities": len(doc.ents),
        "n_replacements": len(doc._.deid_replacements or []),
        "chunked": len(text) > max_chars,
        **settings,
    }


def run_size(model: Path, data: Path, n_chars: int, max_chars: int, context_chars: int,
             timeout: float | None) -> dict[str, Any]:
    """`measure_size` in a fresh Python process, so that its peak memory is its own."""
    command = [sys.executable, "-m", "scripts.benchmarks.scaling", str(Path(model).resolve()),
               str(Path(data).resolve()), "--only-chars", str(n_chars),
               "--max-chars", str(max_chars), "--context-chars", str(context_chars)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False, cwd=Path(__file__).resolve().parents[2])
    except subprocess.TimeoutExpired:
        return {"chars": n_chars, "error": f"timed out after {timeout:.0f} s"}
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no error output"]
        return {"chars": n_chars, "error": f"exit code {done.returncode}: {tail[0]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def scaling_run(model: Path, data: Path, start_chars: int = DEFAULT_START_CHARS,
                max_total_chars: int = DEFAULT_MAX_CHARS, max_chars: int | None = None,
                context_chars: int | None = None,
                max_seconds: float = 1200.0) -> dict[str, Any]:
    """Measure every size (see `sizes`) in its own process; stop before a size that the
    last rate predicts to take longer than `max_seconds`, or after a failed size."""
    from scripts.benchmarks.benchmark import cpu_model
    from scripts.evaluation.evaluate import command_line, run_environment, timestamp
    from spacy_deid.chunking import DEFAULT_CONTEXT_CHARS
    from spacy_deid.chunking import DEFAULT_MAX_CHARS as CHUNK_CHARS

    if not Path(model).exists():
        raise FileNotFoundError(f"Pipeline directory not found: {model}")
    max_chars = CHUNK_CHARS if max_chars is None else max_chars
    context_chars = DEFAULT_CONTEXT_CHARS if context_chars is None else context_chars
    letters = read_letters(data)
    results: list[dict[str, Any]] = []
    skipped: list[int] = []
    for n_chars in sizes(start_chars, max_total_chars):
        last = results[-1] if results else None
        if last and ("error" in last or last["seconds"] * n_chars / last["chars"] > max_seconds):
            skipped.append(n_chars)
            continue
        result = run_size(model, data, n_chars, max_chars, context_chars, timeout=max_seconds * 2)
        results.append(result)
        shown = (f"{result['seconds']:8.1f} s  {result['chars_per_second']:>9,} chars/s  "
                 f"peak {result['peak_rss_mb']:7.1f} MiB" if "error" not in result
                 else result["error"])
        typer.echo(f"{n_chars:>12,} chars: {shown}", err=True)
    measured = [r for r in results if "error" not in r]
    largest = measured[-1] if measured else None
    return {
        "pipeline": str(model),
        "data": str(data),
        "n_letters": len(letters),
        "letters_chars": sum(len(text) for text in letters),
        "chunk_chars": max_chars,
        "context_chars": context_chars,
        "sizes": results,
        "skipped_sizes": skipped,
        "max_seconds": max_seconds,
        "targets": {
            "seconds_for_10mb": TARGET_SECONDS_10MB,
            "peak_rss_mb": TARGET_PEAK_RSS_MB,
            "largest_measured_chars": largest["chars"] if largest else None,
            "met_at_largest": bool(
                largest and largest["peak_rss_mb"] <= TARGET_PEAK_RSS_MB
                and largest["seconds"] * 10_000_000 / largest["chars"] <= TARGET_SECONDS_10MB),
        },
        "threads": 1,
        "cpu": cpu_model(),
        "python": platform.python_version(),
        **run_environment(),
        "command": command_line(),
        "created": timestamp(),
    }


app = typer.Typer(add_completion=False)


@app.command()
def main(
    model: Annotated[Path, typer.Argument(help="Assembled pipeline directory (spacy.load)")],
    data: Annotated[Path, typer.Argument(help="DocBin whose letters are repeated")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Scaling JSON to write")
                      ] = Path("metrics/scaling.json"),
    start_chars: Annotated[int, typer.Option("--start-chars", help="Smallest text size")
                           ] = DEFAULT_START_CHARS,
    max_total_chars: Annotated[int, typer.Option("--max-total-chars",
                                                 help="Largest text size")] = DEFAULT_MAX_CHARS,
    max_chars: Annotated[int | None, typer.Option(
        "--max-chars", help="process_long chunk size (default: its own)")] = None,
    context_chars: Annotated[int | None, typer.Option(
        "--context-chars", help="process_long context (default: its own)")] = None,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", help="Skip sizes predicted to take longer than this")] = 1200.0,
    only_chars: Annotated[int | None, typer.Option(
        "--only-chars", hidden=True,
        help="Measure this one size in this process and print it as JSON (per-size run)")
    ] = None,
) -> None:
    """Time MODEL through process_long on texts of doubling size made from the letters of
    DATA (one core, a fresh process per size) and write the result to OUTPUT."""
    if only_chars is not None:
        from spacy_deid.chunking import DEFAULT_CONTEXT_CHARS
        from spacy_deid.chunking import DEFAULT_MAX_CHARS as CHUNK_CHARS

        typer.echo(json.dumps(measure_size(
            model, data, only_chars, CHUNK_CHARS if max_chars is None else max_chars,
            DEFAULT_CONTEXT_CHARS if context_chars is None else context_chars)))
        return
    try:
        result = scaling_run(model, data, start_chars, max_total_chars, max_chars,
                             context_chars, max_seconds)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, result)
    typer.echo(f"{len(result['sizes'])} sizes -> {output}")


if __name__ == "__main__":
    app()
