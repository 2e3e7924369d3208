"""Document-level k-fold cross-validation for one language (GraSCCo_PHI's published setting).

For each fold: split (fold k is test, the next fold dev, the rest train; the same documents
in every language), train, assemble, evaluate; then aggregate mean ± sd over the folds.

With `--training-split-only`, the folds are cut from the training documents of the document
split instead (letters and multi-genre documents; document i in fold i mod k; the held-out
fold is the test set, the document split's dev set picks the checkpoint), so that no test
document is seen: a place to find and count leaks while designing rules, written with the
suffix `_trainfolds`. With `--leakage`, each fold's leakage report is written too and the
names and IDs leaked are summed.

With `--train-lang xx`, each fold trains one model on every language's fold documents (a
letter is held out in every language at once) and that model is the language's only NER, as
in `xx_deid_<lang>_trf`: `spacy project run cv-trf` cross-validates the transformer NER
(`configs/transformer.cfg`, `--gpu-id 0`, `--suffix _trf` → `metrics/de_cv_trf.json`).
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import srsly
import typer
from spacy.tokens import DocBin

from scripts.corpus.split import check_fold, load_docs

# File name suffix of the folds over the training split only.
TRAINING_FOLDS = "_trainfolds"


def file_suffix(training_split_only: bool, suffix: str) -> str:
    """What the fold files' names carry after the language: `_trainfolds` for folds over the
    training split, then `suffix` (`_trf`)."""
    return (TRAINING_FOLDS if training_split_only else "") + suffix


def leakage_file(metrics_dir: Path, lang: str, suffix: str, fold: int) -> Path:
    """Where the leakage report of one fold goes."""
    return metrics_dir / f"leakage_{lang}{suffix}_fold{fold}.json"


def run(module: str, *args: str) -> None:
    """Run a workflow step's module (`scripts.evaluation.evaluate`) in a subprocess, failing
    loudly."""
    subprocess.run([sys.executable, "-m", module, *args], check=True)


def write_training_folds(splits_dir: Path, lang: str, n_folds: int, fold: int,
                         output_dir: Path) -> None:
    """Write `output_dir/<lang>/{train,dev,test}.spacy` for one fold over the training
    documents of the document split in `splits_dir`: document i is in fold i mod `n_folds`,
    fold `fold` is the test set, the others train; dev is the document split's own dev set."""
    check_fold(n_folds, fold)
    documents = load_docs(splits_dir / lang / "train.spacy")
    if len(documents) < n_folds:
        raise typer.BadParameter(f"{lang}: {len(documents)} training documents cannot make "
                                 f"{n_folds} folds")
    folds = {"train": [doc for i, doc in enumerate(documents) if i % n_folds != fold],
             "test": [doc for i, doc in enumerate(documents) if i % n_folds == fold],
             "dev": load_docs(splits_dir / lang / "dev.spacy")}
    (output_dir / lang).mkdir(parents=True, exist_ok=True)
    for split, docs in folds.items():
        DocBin(docs=docs, store_user_data=True).to_disk(output_dir / lang / f"{split}.spacy")


def sum_leakage(reports: list[dict]) -> dict:
    """The names and IDs (and all PHI spans) leaked over the folds' leakage reports."""
    spans = sum(report["names_and_ids"]["spans"] for report in reports)
    leaked = sum(report["names_and_ids"]["leaked"] for report in reports)
    return {"folds": len(reports),
            "names_and_ids": {"spans": spans, "leaked": leaked,
                              "leak_rate": leaked / spans if spans else 0.0},
            "spans": sum(report["spans"] for report in reports),
            "leaked": sum(report["leaked"] for report in reports)}


def run_fold(config: Path, lang: str, train_on: str, fold: int, n_folds: int, seed: int,
             overrides: list[str], work_dir: Path, metrics_dir: Path,
             training_split_only: bool, leakage: bool, gpu_id: int = -1,
             suffix: str = "", reuse_models: bool = False) -> Path:
    """Split, train (`overrides`: settings of the training config, as `train` takes them),
    assemble and evaluate one fold (and write its leakage report when `leakage`) on GPU
    `gpu_id` (-1: the CPU); return its metrics file, named with `suffix`. With
    `reuse_models`, a fold whose model an earlier run trained is not trained again."""
    splits = work_dir / f"fold{fold}" / "splits"
    models = work_dir / f"fold{fold}" / "models"
    names = file_suffix(training_split_only, suffix)
    device = ("--gpu-id", str(gpu_id)) if gpu_id >= 0 else ()
    if training_split_only:
        write_training_folds(Path("corpus/splits"), lang, n_folds, fold, splits)
    else:
        run("scripts.corpus.split", "corpus/docbin", str(splits), "--mode", "kfold",
            "--n-folds", str(n_folds), "--fold", str(fold), "--seed", str(seed))
    if not (reuse_models and (models / train_on / "model-best").is_dir()):
        run("scripts.training.train", str(config), str(splits), str(models), "--langs",
            train_on, "--jobs", "1", "--times-file",
            str(work_dir / f"fold{fold}" / "train_time.json"), *device,
            *(f"--override={setting}" for setting in overrides))
    only_ner = () if train_on == lang else ("--ner-model", str(models / train_on / "model-best"))
    run("scripts.pipelines.assemble", str(models), str(splits), "--langs", lang, *only_ner,
        "--suffix", suffix)
    output = metrics_dir / f"{lang}{names}_fold{fold}.json"
    run("scripts.evaluation.evaluate", "evaluate", str(models / lang / "pipeline"),
        str(splits / lang / "test.spacy"), "--lang", lang, "--output", str(output),
        "--train", str(splits / lang / "train.spacy"), "--name", f"{n_folds}-fold{names}-{fold}",
        *device)
    if leakage:
        run("scripts.evaluation.leakage", "pipeline", str(models / lang / "pipeline"),
            str(splits / lang / "test.spacy"), "--lang", lang, "--output",
            str(leakage_file(metrics_dir, lang, names, fold)), *device)
    return output


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/cpu.cfg"),
    lang: str = typer.Option("de", help="Language to cross-validate"),
    train_lang: str = typer.Option("", help="Train on this split folder instead (e.g. xx)"),
    n_folds: int = typer.Option(5, help="Number of folds"),
    seed: int = typer.Option(0, help="Random seed of the fold assignment"),
    max_steps: int = typer.Option(2000, help="Training steps per fold"),
    override: list[str] = typer.Option(
        [], help="Config overrides for every fold, e.g. --paths.encoder=training/encoder"),
    jobs: int = typer.Option(2, help="Folds run side by side"),
    work_dir: Path = typer.Option(Path("training/cv"), help="Where folds are written"),
    metrics_dir: Path = typer.Option(Path("metrics"), help="Where metrics are written"),
    training_split_only: bool = typer.Option(
        False, help="Folds over the document split's training documents only (no test "
        "document)"),
    leakage: bool = typer.Option(False, help="Also write each fold's leakage report and "
                                 "the sum over the folds"),
    gpu_id: int = typer.Option(-1, help="GPU id for training and scoring, -1 for the CPU"),
    suffix: str = typer.Option("", help="Appended to every file name and to the pipelines' "
                               "meta name, e.g. _trf (de_cv_trf.json)"),
    reuse_models: bool = typer.Option(
        False, help="Keep the model an earlier run trained for a fold (same work dir, same "
        "training settings): after a change to the rules, the folds are only assembled and "
        "scored again"),
) -> None:
    """Train and score one model per fold, `jobs` at a time (one at a time on a GPU), and
    write `<lang>_cv<suffix>.json` (`<lang>_trainfolds<suffix>.json` over the training split
    only)."""
    train_on = train_lang or lang
    if training_split_only and train_on != lang:
        raise typer.BadParameter("--training-split-only trains the language's own model; "
                                 "leave out --train-lang")
    summary = (TRAINING_FOLDS if training_split_only else "_cv") + suffix
    names = file_suffix(training_split_only, suffix)
    overrides = [f"--training.max_steps={max_steps}", *override]

    def fold_job(fold: int) -> Path:
        typer.echo(f"fold {fold + 1}/{n_folds} started", err=True)
        output = run_fold(config, lang, train_on, fold, n_folds, seed, overrides, work_dir,
                          metrics_dir, training_split_only, leakage, gpu_id, suffix,
                          reuse_models)
        typer.echo(f"fold {fold + 1}/{n_folds} done: {output}", err=True)
        return output

    workers = 1 if gpu_id >= 0 else max(1, jobs)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        fold_files = [str(path) for path in pool.map(fold_job, range(n_folds))]
    run("scripts.evaluation.evaluate", "aggregate", *fold_files, "--output",
        str(metrics_dir / f"{lang}{summary}.json"))
    if leakage:
        reports = [srsly.read_json(leakage_file(metrics_dir, lang, names, fold))
                   for fold in range(n_folds)]
        srsly.write_json(metrics_dir / f"leakage_{lang}{summary}.json",
                         {"lang": lang, **sum_leakage(reports)})


if __name__ == "__main__":
    typer.run(main)
