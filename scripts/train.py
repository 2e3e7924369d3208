"""Train one NER pipeline per language (and the multilingual `xx` one) with `spacy train`.

Each language gets its own tokenizer rules through `nlp.tokenizer.lang`; the time per
language is printed and written to `metrics/train_time.json`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import srsly
import typer


def train_command(config: Path, splits_dir: Path, output_dir: Path, lang: str, gpu_id: int,
                  overrides: list[str]) -> list[str]:
    """The `spacy train` command line for one language."""
    return [sys.executable, "-m", "spacy", "train", str(config),
            "--output", str(output_dir / lang),
            "--paths.train", str(splits_dir / lang / "train.spacy"),
            "--paths.dev", str(splits_dir / lang / "dev.spacy"),
            "--nlp.tokenizer.lang", lang,
            "--gpu-id", str(gpu_id), *overrides]


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/cpu.cfg"),
    splits_dir: Path = typer.Argument(..., help="Folder with <lang>/{train,dev}.spacy"),
    output_dir: Path = typer.Argument(..., help="Where to write <lang>/model-best"),
    langs: str = typer.Option(..., help="Space- or comma-separated language codes"),
    gpu_id: int = typer.Option(-1, help="GPU id, -1 for CPU"),
    times_file: Path = typer.Option(Path("metrics/train_time.json"),
                                    help="Where to record times"),
    override: list[str] = typer.Option([],
                                       help="Config overrides, e.g. --training.max_steps=500"),
) -> None:
    """Train every language in turn, failing loudly if one fails."""
    codes = [code for code in langs.replace(",", " ").split() if code]
    missing = [code for code in codes if not (splits_dir / code / "train.spacy").exists()]
    if missing:
        raise typer.BadParameter(f"no training data for {', '.join(missing)} in {splits_dir}")
    times = srsly.read_json(times_file) if times_file.exists() else {}
    overrides = [part for item in override for part in item.split("=", 1)]
    for number, lang in enumerate(codes, start=1):
        typer.echo(f"[{number}/{len(codes)}] training {lang} ...", err=True)
        started = time.perf_counter()
        subprocess.run(train_command(config, splits_dir, output_dir, lang, gpu_id, overrides),
                       check=True)
        seconds = round(time.perf_counter() - started, 1)
        times[lang] = {"seconds": seconds, "config": str(config), "gpu_id": gpu_id}
        typer.echo(f"[{number}/{len(codes)}] {lang} trained in {seconds} s", err=True)
        times_file.parent.mkdir(parents=True, exist_ok=True)
        srsly.write_json(times_file, times)
    total = sum(times[lang]["seconds"] for lang in codes)
    typer.echo(f"trained {len(codes)} pipelines in {total:.0f} s", err=True)


if __name__ == "__main__":
    typer.run(main)
