"""Document-level k-fold cross-validation for one language (GraSCCo_PHI's published setting).

For each fold: split (fold k is test, the next fold dev, the rest train; the same documents
in every language), train, assemble, evaluate; then aggregate mean ± sd over the folds.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import typer


def run(*args: str) -> None:
    """Run a workflow step in a subprocess, failing loudly."""
    subprocess.run([sys.executable, *args], check=True)


def run_fold(config: Path, lang: str, train_on: str, fold: int, n_folds: int, seed: int,
             max_steps: int, work_dir: Path, metrics_dir: Path) -> Path:
    """Split, train, assemble and evaluate one fold; return its metrics file."""
    splits = work_dir / f"fold{fold}" / "splits"
    models = work_dir / f"fold{fold}" / "models"
    run("-m", "scripts.split", "corpus/docbin", str(splits), "--mode", "kfold",
        "--n-folds", str(n_folds), "--fold", str(fold), "--seed", str(seed))
    run("-m", "scripts.train", str(config), str(splits), str(models), "--langs", train_on,
        "--jobs", "1", "--times-file", str(work_dir / f"fold{fold}" / "train_time.json"),
        f"--override=--training.max_steps={max_steps}")
    if train_on != lang:
        run("-m", "scripts.retokenize", str(models / train_on / "model-best"), str(models),
            "--langs", lang)
    run("-m", "scripts.assemble", str(models), str(splits), "--langs", lang)
    output = metrics_dir / f"{lang}_fold{fold}.json"
    run("scripts/evaluate.py", "evaluate", str(models / lang / "pipeline"),
        str(splits / lang / "test.spacy"), "--lang", lang, "--output", str(output),
        "--train", str(splits / lang / "train.spacy"), "--name", f"{n_folds}-fold-{fold}")
    return output


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/cpu.cfg"),
    lang: str = typer.Option("de", help="Language to cross-validate"),
    train_lang: str = typer.Option("", help="Train on this split folder instead (e.g. xx)"),
    n_folds: int = typer.Option(5, help="Number of folds"),
    seed: int = typer.Option(0, help="Random seed of the fold assignment"),
    max_steps: int = typer.Option(2000, help="Training steps per fold"),
    jobs: int = typer.Option(2, help="Folds run side by side"),
    work_dir: Path = typer.Option(Path("training/cv"), help="Where folds are written"),
    metrics_dir: Path = typer.Option(Path("metrics"), help="Where metrics are written"),
) -> None:
    """Train and score one model per fold, `jobs` at a time, and write `<lang>_cv.json`."""
    train_on = train_lang or lang

    def fold_job(fold: int) -> Path:
        typer.echo(f"fold {fold + 1}/{n_folds} started", err=True)
        output = run_fold(config, lang, train_on, fold, n_folds, seed, max_steps, work_dir,
                          metrics_dir)
        typer.echo(f"fold {fold + 1}/{n_folds} done: {output}", err=True)
        return output

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        fold_files = [str(path) for path in pool.map(fold_job, range(n_folds))]
    run("scripts/evaluate.py", "aggregate", *fold_files, "--output",
        str(metrics_dir / f"{lang}_cv.json"))


if __name__ == "__main__":
    typer.run(main)
