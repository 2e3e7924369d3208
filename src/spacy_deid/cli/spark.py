"""`spacy-deid spark`: de-identify a Parquet, CSV/TSV or JSONL table with Spark into Parquet.

The same processing and keys as `spacy-deid run` (`spacy_deid.spark.deidentify_dataframe`),
spread over a Spark cluster's executors, or over the local cores (`--master local[4]`).
The text column is replaced by its anonymized text; every other column passes through
(`--drop-column` to leave one out), and `deid_entities` (label and offsets of each replaced
span, no text), `deid_error` and `deid_language` are added. OUTPUT is a Parquet folder;
the manifest goes to `OUTPUT/_spacy_deid/spark-<run id>.json` (Spark's readers skip folders
starting with `_`): counts per label, errors and flagged languages, never text or keys.
Under `spark-submit` or in a notebook the running Spark session is used as it is.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.cli.keys import KEY_ENV, RANDOM, load_key
from spacy_deid.cli.manifest import MANIFEST_DIR, new_run_id, now
from spacy_deid.cli.options import (
    DEFAULT_CONTEXT_CHARS,
    DEFAULT_MAX_CHARS,
    ContextChars,
    KeyEnv,
    KeyFile,
    MaxChars,
    Strategy,
)
from spacy_deid.cli.paths import refuse_output_in_input
from spacy_deid.cli.processing import configure_anonymizer, load_pipeline, parse_strategies
from spacy_deid.cli.writers import write_text_atomic

PARQUET, CSV, TSV, JSONL = "parquet", "csv", "tsv", "jsonl"
SPARK_FORMATS: tuple[str, ...] = (PARQUET, CSV, TSV, JSONL)
SUFFIXES: dict[str, str] = {".parquet": PARQUET, ".csv": CSV, ".tsv": TSV, ".tab": TSV,
                            ".jsonl": JSONL, ".ndjson": JSONL, ".json": JSONL}
ENTITIES, ERROR, LANGUAGE = "deid_entities", "deid_error", "deid_language"
FORMAT_VERSION = 1


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _is_local(path: str) -> bool:
    """Whether `path` is a local path (not a URI such as s3://, dbfs:/ or hdfs://)."""
    return "://" not in path and not path.startswith("dbfs:")


def input_format(path: str, fmt: str | None) -> str:
    """`fmt`, else by the suffix of INPUT, else by the suffix of the files of an INPUT
    folder; a usage error where neither tells."""
    if fmt is not None:
        if fmt not in SPARK_FORMATS:
            raise typer.BadParameter(f"{fmt!r}: choose one of {', '.join(SPARK_FORMATS)}",
                                     param_hint="--format")
        return fmt
    suffixes = {Path(path).suffix.lower()}
    if _is_local(path) and Path(path).is_dir():
        suffixes = {p.suffix.lower() for p in Path(path).iterdir()
                    if p.is_file() and not p.name.startswith(("_", "."))}
    found = {SUFFIXES[s] for s in suffixes if s in SUFFIXES}
    if len(found) != 1:
        raise typer.BadParameter("cannot tell the input format by its name; give --format "
                                 f"({', '.join(SPARK_FORMATS)})", param_hint="--format")
    return found.pop()


def read_input(session, path: str, fmt: str):
    """INPUT as a DataFrame: a table's columns are read as strings (as `spacy-deid run`
    reads them), JSONL one object a line, Parquet as it is."""
    if fmt == PARQUET:
        return session.read.parquet(path)
    if fmt == JSONL:
        return session.read.json(path)
    return session.read.csv(path, header=True, multiLine=True, escape='"',
                            sep="\t" if fmt == TSV else ",")


def spark_session(master: str | None):
    """The active Spark session (spark-submit, a notebook), else a new one on `master`
    (default local[*]); its Python workers run this interpreter. Returns (session,
    whether this command made it)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise typer.BadParameter("this command needs pyspark, pandas and pyarrow: "
                                 "pip install 'spacy-deid[spark]'",
                                 param_hint="spark") from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("spacy-deid")
    if master:
        builder = builder.master(master)
    return builder.getOrCreate(), True


def summarise(written, text_column: str) -> dict:
    """Totals of a written output: rows, processed, empty (null text), errors by message,
    rows flagged as another language by language, and spans per label."""
    from pyspark.sql import functions as F

    first = written.agg(
        F.count(F.lit(1)).alias("rows"),
        F.count(text_column).alias("processed"),
        F.sum(F.when(F.col(text_column).isNull() & F.col(ERROR).isNull(), 1).otherwise(0))
        .alias("null_text"),
        F.count(ERROR).alias("errors"),
    ).first()

    def counts(frame, column) -> dict[str, int]:
        rows = frame.where(column.isNotNull()).groupBy(column.alias("key")).count().collect()
        return dict(sorted((row["key"], row["count"]) for row in rows))

    entities = written.select(F.explode(ENTITIES).alias("entity"))
    return {"rows": first["rows"], "processed": first["processed"],
            "null_text": first["null_text"] or 0, "errors": first["errors"],
            "error_messages": counts(written, F.col(ERROR)),
            "other_language": counts(written, F.col(LANGUAGE)),
            "labels": counts(entities, F.col("entity.label"))}


def spark(
    input_path: Annotated[str, typer.Argument(
        metavar="INPUT", help="A Parquet, CSV/TSV or JSONL file or folder (a local path or a "
        "URI Spark reads, e.g. s3://, dbfs:/)")],
    output: Annotated[str, typer.Argument(
        metavar="OUTPUT", help="The Parquet folder to write (never inside INPUT)")],
    pipeline: Annotated[str, typer.Option(
        "--pipeline", "-p", help="Installed pipeline (e.g. xx_deid_de) or pipeline folder "
        "every executor can read")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="parquet, csv, tsv or jsonl (default: by suffix)")] = None,
    text_column: Annotated[str, typer.Option(help="Column with the text")] = "text",
    patient_column: Annotated[str | None, typer.Option(
        help="Column with the patient id (per-patient consistency)")] = None,
    drop_column: Annotated[list[str] | None, typer.Option(
        help="Column to leave out of the output (repeatable), e.g. the patient id")] = None,
    strategy: Strategy = None,
    key_file: KeyFile = None,
    key_env: KeyEnv = KEY_ENV,
    master: Annotated[str | None, typer.Option(
        help="Spark master for a new session, e.g. local[4] (default: the running session, "
        "else local[*])")] = None,
    partitions: Annotated[int | None, typer.Option(
        help="Repartition the input into this many partitions first (spread over the "
        "executors)")] = None,
    batch_size: Annotated[int, typer.Option(help="Rows per nlp.pipe batch")] = 64,
    max_chars: MaxChars = DEFAULT_MAX_CHARS,
    context_chars: ContextChars = DEFAULT_CONTEXT_CHARS,
    manifest_path: Annotated[Path | None, typer.Option(
        "--manifest", help="Where to write the manifest (default: OUTPUT/_spacy_deid/ for a "
        "local OUTPUT, else the current folder)")] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists")] = False,
) -> None:
    """De-identify a table with Spark into a Parquet folder, with a manifest of counts per
    label (exit 1 if any row failed)."""
    from spacy_deid.spark import deidentify_dataframe

    if _is_local(input_path) and _is_local(output):
        refuse_output_in_input(Path(input_path), Path(output))
        if Path(output).exists() and not overwrite:
            raise typer.BadParameter(f"{output} exists; give --overwrite to replace it",
                                     param_hint="OUTPUT")
    if batch_size < 1 or max_chars < 1 or (partitions is not None and partitions < 1):
        raise typer.BadParameter("--batch-size, --max-chars and --partitions must be positive")
    fmt = input_format(input_path, fmt)
    strategies = parse_strategies(strategy or [])
    key = load_key(key_file, key_env)
    nlp, anonymizer = load_pipeline(pipeline)
    table = configure_anonymizer(anonymizer, strategies, reversible=False)
    if key.source == RANDOM and patient_column:
        typer.echo("Note: no secret key given; documents of one patient are consistent "
                   "within this run only.", err=True)
    session, made_here = spark_session(master)
    run_id, started, clock = new_run_id(), now(), time.perf_counter()
    try:
        df = read_input(session, input_path, fmt)
        missing = [c for c in (text_column, patient_column) if c and c not in df.columns]
        if missing:
            raise typer.BadParameter(f"no column {missing[0]!r} in the input",
                                     param_hint="--text-column/--patient-column")
        if partitions is not None:
            df = df.repartition(partitions)
        try:
            result = deidentify_dataframe(
                df, text_column, pipeline, output_col=text_column, entities_col=ENTITIES,
                patient_col=patient_column, key=key, strategies=strategies, error_col=ERROR,
                language_col=LANGUAGE, batch_size=batch_size, max_chars=max_chars,
                context_chars=context_chars)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
        result = result.drop(*(drop_column or []))
        result.write.mode("overwrite" if overwrite else "errorifexists").parquet(output)
        seconds = time.perf_counter() - clock
        totals = summarise(session.read.parquet(output), text_column)
        manifest = {
            "format_version": FORMAT_VERSION, "kind": "spark", "run_id": run_id,
            "started": started, "finished": now(), "status": "complete",
            "tool": {"spacy_deid": _version("spacy-deid"), "spacy": _version("spacy"),
                     "pyspark": _version("pyspark"), "python": platform.python_version()},
            "pipeline": {"argument": pipeline, "name": nlp.meta.get("name"),
                         "version": nlp.meta.get("version"), "lang": nlp.lang,
                         "anonymizer_lang": anonymizer.lang,
                         "components": list(nlp.pipe_names)},
            "input": {"path": input_path, "format": fmt, "rows": totals["rows"]},
            "output": {"path": output, "format": PARQUET},
            "settings": {"text_column": text_column, "patient_column": patient_column,
                         "drop_columns": list(drop_column or []), "strategies": table,
                         "key": {"source": key.source, "fingerprint": key.fingerprint},
                         "master": session.sparkContext.master,
                         "default_parallelism": session.sparkContext.defaultParallelism,
                         "partitions": partitions, "batch_size": batch_size,
                         "max_chars": max_chars, "context_chars": context_chars},
            "totals": {**totals, "seconds": round(seconds, 3),
                       "rows_per_second": round(totals["rows"] / seconds, 2)
                       if seconds > 0 else None},
        }
    finally:
        if made_here:
            session.stop()
    path = write_manifest(manifest_path, output, run_id, manifest)
    totals = manifest["totals"]
    typer.echo(f"De-identified {totals['processed']} rows, {totals['null_text']} without "
               f"text, {totals['errors']} errors, {len(totals['other_language'])} other "
               f"language(s) flagged; {totals['rows_per_second'] or 0} rows/s.")
    typer.echo(f"Manifest: {path}")
    if totals["errors"]:
        raise typer.Exit(1)


def write_manifest(path: Path | None, output: str, run_id: str, manifest: dict) -> Path:
    """Write the manifest to `path`, else into `OUTPUT/_spacy_deid/` for a local OUTPUT,
    else to `spacy-deid-spark-<run id>.json` in the current folder; returns where."""
    if path is None:
        path = (Path(output) / MANIFEST_DIR / f"spark-{run_id}.json" if _is_local(output)
                else Path(f"spacy-deid-spark-{run_id}.json"))
    write_text_atomic(path, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    return path
