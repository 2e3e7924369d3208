"""Train one NER pipeline per language (and the multilingual `xx` one) with `spacy train`.

Each language gets its own tokenizer rules through `nlp.tokenizer.lang`; the time per
language is printed and written to `metrics/train_time.json`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import srsly
import typer

from scripts.kernels import numeric_kernels
from spacy_deid.lang import parse_language_codes

# The code of the model trained on every language's documents together (`<splits>/xx`).
MULTILINGUAL = "xx"


def train_command(config: Path, splits_dir: Path, output_dir: Path, lang: str, gpu_id: int,
                  overrides: list[str]) -> list[str]:
    """The `spacy train` command line for one language."""
    return [sys.executable, "-m", "spacy", "train", str(config),
            "--output", str(output_dir / lang),
            "--paths.train", str(splits_dir / lang / "train.spacy"),
            "--paths.dev", str(splits_dir / lang / "dev.spacy"),
            "--nlp.tokenizer.lang", lang,
            "--gpu-id", str(gpu_id), *overrides]


def split_overrides(items: list[str]) -> list[str]:
    """`--a.b=1` options as the separate arguments `spacy train` takes: `--a.b`, `1`."""
    return [part for item in items for part in item.split("=", 1)]


def overrides_for(lang: str, overrides: list[str], multilingual_overrides: list[str]) -> list[str]:
    """The config overrides of one training: the multilingual `xx` model gets its own after
    the common ones (the CLI keeps the last value of a setting given twice)."""
    return [*overrides, *multilingual_overrides] if lang == MULTILINGUAL else list(overrides)


def longest_first(codes: list[str]) -> list[str]:
    """The training order: the multilingual model (many more steps) first, so that the
    per-language trainings fill the other worker meanwhile."""
    return sorted(codes, key=lambda code: code != MULTILINGUAL)


def one_thread_env() -> dict[str, str]:
    """Environment for a training process that keeps to one core (so jobs can run side by side)."""
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    return env


def device_name(gpu_id: int) -> str:
    """What a training ran on, for the times file: "cpu", or the CUDA device's name."""
    if gpu_id < 0:
        return "cpu"
    try:
        import torch

        return torch.cuda.get_device_name(gpu_id)
    except (ImportError, RuntimeError, AssertionError):
        return f"cuda:{gpu_id}"


def train_language(command: list[str], lang: str, log_dir: Path) -> float:
    """Run one training, its log in `log_dir/<lang>.log`; return the seconds it took."""
    log_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with open(log_dir / f"{lang}.log", "w", encoding="utf-8") as log:
        completed = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                   env=one_thread_env())
    if completed.returncode != 0:
        raise RuntimeError(f"training {lang} failed (exit {completed.returncode}); "
                           f"see {log_dir / f'{lang}.log'}")
    return round(time.perf_counter() - started, 1)


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/cpu.cfg"),
    splits_dir: Path = typer.Argument(..., help="Folder with <lang>/{train,dev}.spacy"),
    output_dir: Path = typer.Argument(..., help="Where to write <lang>/model-best"),
    langs: str = typer.Option(..., help="Space- or comma-separated language codes"),
    gpu_id: int = typer.Option(-1, help="GPU id, -1 for CPU"),
    jobs: int = typer.Option(2, help="Trainings run side by side (CPU only)"),
    times_file: Path = typer.Option(Path("metrics/train_time.json"),
                                    help="Where to record times"),
    override: list[str] = typer.Option([],
                                       help="Config overrides, e.g. --training.max_steps=500"),
    multilingual_override: list[str] = typer.Option(
        [], help="Config overrides for the multilingual `xx` model only, after --override"),
) -> None:
    """Train every language, `jobs` at a time, failing loudly if one fails."""
    codes = longest_first(parse_language_codes(langs))
    missing = [code for code in codes if not (splits_dir / code / "train.spacy").exists()]
    if missing:
        raise typer.BadParameter(f"no training data for {', '.join(missing)} in {splits_dir}")
    times = srsly.read_json(times_file) if times_file.exists() else {}
    overrides = split_overrides(override)
    multilingual_overrides = split_overrides(multilingual_override)
    workers = 1 if gpu_id >= 0 else max(1, jobs)
    device = device_name(gpu_id)

    def run(lang: str) -> tuple[str, float]:
        typer.echo(f"training {lang} (log: {output_dir / 'logs' / f'{lang}.log'}) ...", err=True)
        command = train_command(config, splits_dir, output_dir, lang, gpu_id,
                                overrides_for(lang, overrides, multilingual_overrides))
        seconds = train_language(command, lang, output_dir / "logs")
        typer.echo(f"{lang} trained in {seconds} s", err=True)
        return lang, seconds

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for lang, seconds in pool.map(run, codes):
            times[lang] = {"seconds": seconds, "config": str(config), "gpu_id": gpu_id,
                           "device": device, "jobs": workers}
    wall = round(time.perf_counter() - started, 1)
    times["_wall_seconds"] = {"langs": codes, "seconds": wall, "jobs": workers}
    times["_kernels"] = numeric_kernels()
    times_file.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(times_file, times)
    typer.echo(f"trained {len(codes)} pipelines in {wall:.0f} s wall time", err=True)


if __name__ == "__main__":
    typer.run(main)
