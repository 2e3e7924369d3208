"""Document-level k-fold cross-validation for one language (GraSCCo_PHI's published setting).

For each fold: split (fold k is test, the next fold dev, the rest train; the same documents
in every language), train, assemble, evaluate; then aggregate mean ± sd over the folds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import typer


def run(*args: str) -> None:
    """Run a workflow step in a subprocess, failing loudly."""
    subprocess.run([sys.executable, *args], check=True)


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/cpu.cfg"),
    lang: str = typer.Option("de", help="Language to cross-validate"),
    train_lang: str = typer.Option("", help="Train on this split folder instead (e.g. xx)"),
    n_folds: int = typer.Option(5, help="Number of folds"),
    seed: int = typer.Option(0, help="Random seed of the fold assignment"),
    max_steps: int = typer.Option(2000, help="Training steps per fold"),
    work_dir: Path = typer.Option(Path("training/cv"), help="Where folds are written"),
    metrics_dir: Path = typer.Option(Path("metrics"), help="Where metrics are written"),
) -> None:
    """Train and score one model per fold and write `<lang>_cv.json`."""
    train_on = train_lang or lang
    fold_files = []
    for fold in range(n_folds):
        typer.echo(f"== fold {fold + 1}/{n_folds}", err=True)
        splits = work_dir / f"fold{fold}" / "splits"
        models = work_dir / f"fold{fold}" / "models"
        run("-m", "scripts.split", "corpus/docbin", str(splits), "--mode", "kfold",
            "--n-folds", str(n_folds), "--fold", str(fold), "--seed", str(seed))
        run("-m", "scripts.train", str(config), str(splits), str(models), "--langs", train_on,
            "--times-file", str(work_dir / "train_time.json"),
            f"--override=--training.max_steps={max_steps}")
        if train_on != lang:
            (models / lang).mkdir(parents=True, exist_ok=True)
            run("-m", "scripts.retokenize", str(models / train_on / "model-best"),
                str(models / lang / "model-best"), "--lang", lang)
        run("-m", "scripts.assemble", str(models), "--langs", lang)
        output = metrics_dir / f"{lang}_fold{fold}.json"
        run("scripts/evaluate.py", "evaluate", str(models / lang / "pipeline"),
            str(splits / lang / "test.spacy"), "--lang", lang, "--output", str(output),
            "--train", str(splits / lang / "train.spacy"), "--name", f"{n_folds}-fold-{fold}")
        fold_files.append(str(output))
    run("scripts/evaluate.py", "aggregate", *fold_files, "--output",
        str(metrics_dir / f"{lang}_cv.json"))


if __name__ == "__main__":
    typer.run(main)
