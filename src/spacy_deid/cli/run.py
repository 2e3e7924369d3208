"""`spacy-deid run`: de-identify a file, a folder, a JSONL file or a CSV/TSV table.

Every input file gives one output file under OUTPUT (a folder is mirrored), written
whole or not at all, so a rerun skips what is done. A run manifest goes to
`OUTPUT/_spacy_deid/`. Nothing is ever written into INPUT.
"""

from __future__ import annotations

import codecs
import os
import re
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.cli.keys import KEY_ENV, RunKey, load_key, mapping_cipher
from spacy_deid.cli.manifest import ERROR, MANIFEST_DIR, OK, SKIPPED, Manifest
from spacy_deid.cli.mapping import MappingWriter
from spacy_deid.cli.options import (
    DEFAULT_CONTEXT_CHARS,
    DEFAULT_MAX_CHARS,
    ContextChars,
    KeyEnv,
    KeyFile,
    MaxChars,
    Strategy,
)
from spacy_deid.cli.paths import refuse_inside, refuse_output_in_input
from spacy_deid.cli.processing import (
    Outcome,
    annotate,
    annotate_in_processes,
    configure_anonymizer,
    load_pipeline,
    parse_strategies,
    pipeline_exists,
)
from spacy_deid.cli.progress import document_progress
from spacy_deid.cli.readers import (
    CSV,
    FORMATS,
    JSONL,
    TEXT,
    TSV,
    OpenedUnit,
    ReadSettings,
    Record,
    Unit,
    find_units,
    open_unit,
)
from spacy_deid.cli.writers import UnitWriter, make_writer

# Errors listed at the end of a run (all are in the manifest).
ERRORS_SHOWN = 20


@dataclass
class Options:
    """The options of one run that the loop needs."""

    output: Path
    settings: ReadSettings
    drop_fields: tuple[str, ...]
    key: RunKey
    mapping_dir: Path | None = None
    cipher: object = None


@dataclass
class OpenOutput:
    """The output (and, in reversible mode, the mapping) being written for one unit."""

    opened: OpenedUnit
    writer: UnitWriter
    mapping: MappingWriter | None = None
    errors: int = 0
    entries: list[dict] = field(default_factory=list)


def _check_options(input_path: Path, output: Path, fmt: str | None, encoding: str | None,
                   patient_field: str | None, patient_column: str | None,
                   patient_regex: str | None, reversible: bool, mapping_dir: Path | None
                   ) -> re.Pattern | None:
    """Refuse paths and option combinations that cannot work, before anything is read."""
    refuse_output_in_input(input_path, output)
    if output.exists() and not output.is_dir():
        raise typer.BadParameter(f"{output} is a file; OUTPUT is a folder", param_hint="OUTPUT")
    if fmt is not None and fmt not in FORMATS:
        raise typer.BadParameter(f"{fmt!r}: choose one of {', '.join(FORMATS)}",
                                 param_hint="--format")
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise typer.BadParameter(f"unknown encoding {encoding!r}",
                                     param_hint="--encoding") from None
    if sum(x is not None for x in (patient_field, patient_column, patient_regex)) > 1:
        raise typer.BadParameter("give one of --patient-field, --patient-column, "
                                 "--patient-regex", param_hint="--patient-*")
    regex = None
    if patient_regex is not None:
        try:
            regex = re.compile(patient_regex)
        except re.error as error:
            raise typer.BadParameter(f"not a regular expression: {error}",
                                     param_hint="--patient-regex") from None
        if regex.groups != 1:
            raise typer.BadParameter("the expression needs exactly one group (the patient id)",
                                     param_hint="--patient-regex")
    if reversible:
        if mapping_dir is None:
            raise typer.BadParameter("the reversible mode needs --mapping-dir, a folder kept "
                                     "apart from the shared output", param_hint="--mapping-dir")
        refuse_inside(mapping_dir, output, "--mapping-dir", "the output folder",
                      "keep the mappings apart from the output that is shared")
        if input_path.is_dir():
            refuse_inside(mapping_dir, input_path, "--mapping-dir", "the input folder",
                          "nothing is written into the input")
    return regex


def _records(units: list[Unit], settings: ReadSettings, queue: deque) -> Iterator[Record]:
    """The records of every unit, in order; each opened unit is queued before its records
    come, so the loop can finish units that have none (an error, an empty table)."""
    for unit in units:
        opened = open_unit(unit, settings)
        queue.append(opened)
        if opened.error is None:
            yield from opened.records
            opened.records = []


def _start(opened: OpenedUnit, options: Options) -> OpenOutput:
    settings = options.settings
    writer = make_writer(opened, options.output, settings.text_field, settings.text_column,
                         options.drop_fields)
    mapping = None
    if options.cipher is not None:
        header = {"output": opened.unit.relative, "format": opened.unit.format,
                  "text_field": settings.text_field, "text_column": settings.text_column,
                  "key_fingerprint": options.key.fingerprint}
        mapping = MappingWriter(options.mapping_dir, header, options.cipher)
    return OpenOutput(opened, writer, mapping)


def _finish(current: OpenOutput, manifest: Manifest) -> None:
    """Put the unit's output (and mapping) in place, then record its documents."""
    if current.writer.commit():
        if current.mapping is not None:
            current.mapping.commit()
    else:
        if current.mapping is not None:
            current.mapping.discard()
        for entry in current.entries:
            entry["output"] = None
    for entry in current.entries:
        manifest.add(entry)


def _finish_without_records(opened: OpenedUnit, options: Options, manifest: Manifest) -> None:
    """A unit none of whose records came through: an error for the whole file, or a table
    or JSONL file without documents (its output is written, empty)."""
    if opened.error is not None:
        manifest.add({"document": opened.unit.relative, "source": opened.unit.relative,
                      "status": ERROR, "encoding": opened.encoding, "error": opened.error,
                      "output": None})
        return
    _finish(_start(opened, options), manifest)


def _handle(current: OpenOutput, outcome: Outcome, options: Options, anonymizer) -> None:
    """Write one processed document and make its manifest entry (no text in it)."""
    record = outcome.record
    entry = {"document": record.document, "source": record.unit.relative,
             "index": record.index, "status": OK, "encoding": current.opened.encoding,
             "output": record.unit.relative, "output_index": None,
             "patient_ref": options.key.patient_ref(record.patient)}
    if outcome.error is not None:
        entry.update(status=ERROR, error=outcome.error, output=None)
        current.entries.append(entry)
        return
    summary = outcome.summarize(anonymizer)
    entry["output_index"] = current.writer.write(record, summary.text)
    if current.mapping is not None:
        current.mapping.add(entry["output_index"], summary.replacements)
    entry.update(characters=summary.characters, long=outcome.long,
                 seconds=round(outcome.seconds, 4), labels=summary.labels,
                 replaced=len(summary.replacements))
    if summary.language_check is not None:
        entry["language_check"] = summary.language_check
    current.entries.append(entry)


def _dry_run(units: list[Unit], complete: set[Unit], settings: ReadSettings, max_chars: int,
             pipeline: str) -> None:
    """Say what a run would do, reading the inputs but writing nothing."""
    documents = long_texts = errors = 0
    typer.echo(f"Dry run: pipeline {pipeline}; nothing is written.")
    for unit in units:
        if unit in complete:
            typer.echo(f"  skip   {unit.relative} (output exists)")
            continue
        opened = open_unit(unit, settings)
        if opened.error is not None:
            errors += 1
            typer.echo(f"  error  {unit.relative}: {opened.error}")
            continue
        good = [r for r in opened.records if r.error is None]
        documents += len(good)
        long_texts += sum(len(r.text) > max_chars for r in good)
        for record in opened.records:
            if record.error is not None:
                errors += 1
                typer.echo(f"  error  {record.document}: {record.error}")
        typer.echo(f"  write  {unit.relative} ({unit.format}, {len(good)} documents, "
                   f"{opened.encoding})")
    typer.echo(f"Would de-identify {documents} documents ({long_texts} long, in chunks) into "
               f"{len(units) - len(complete)} outputs; skip {len(complete)} complete outputs; "
               f"{errors} unreadable.")


def run(
    input_path: Annotated[Path, typer.Argument(
        metavar="INPUT", exists=True, help="A text file, a folder of them (recursive), a JSONL "
        "file or a CSV/TSV table")],
    output: Annotated[Path, typer.Argument(
        metavar="OUTPUT", help="Folder for the outputs and the run manifest (never inside INPUT)")],
    pipeline: Annotated[str, typer.Option(
        "--pipeline", "-p", help="Installed pipeline (e.g. xx_deid_de) or pipeline folder")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="Read every input file as text, jsonl, csv or tsv (default: by "
        "suffix: .jsonl/.ndjson, .csv, .tsv/.tab, else text)")] = None,
    text_field: Annotated[str, typer.Option(help="JSONL field with the text")] = "text",
    text_column: Annotated[str, typer.Option(help="CSV/TSV column with the text")] = "text",
    drop_field: Annotated[list[str] | None, typer.Option(
        help="JSONL field or CSV column to leave out of the output (repeatable), e.g. the "
        "patient id")] = None,
    patient_field: Annotated[str | None, typer.Option(
        help="JSONL field with the patient id (per-patient consistency)")] = None,
    patient_column: Annotated[str | None, typer.Option(
        help="CSV/TSV column with the patient id")] = None,
    patient_regex: Annotated[str | None, typer.Option(
        help="Regular expression with one group: the patient id in a file's path under INPUT")
    ] = None,
    encoding: Annotated[str | None, typer.Option(
        help="Encoding of the inputs (default: detected: BOM, utf-8, cp1252, latin-1)")] = None,
    glob: Annotated[str, typer.Option(help="Files to take from a folder")] = "*",
    strategy: Strategy = None,
    key_file: KeyFile = None,
    key_env: KeyEnv = KEY_ENV,
    reversible: Annotated[bool, typer.Option(
        help="Store the original -> surrogate mapping, encrypted, in --mapping-dir")] = False,
    mapping_dir: Annotated[Path | None, typer.Option(
        help="Folder for the encrypted mappings (outside OUTPUT)")] = None,
    n_process: Annotated[int, typer.Option(help="Processes for nlp.pipe")] = 1,
    batch_size: Annotated[int | None, typer.Option(help="Batch size for nlp.pipe")] = None,
    max_chars: MaxChars = DEFAULT_MAX_CHARS,
    context_chars: ContextChars = DEFAULT_CONTEXT_CHARS,
    overwrite: Annotated[bool, typer.Option(help="Redo outputs that exist")] = False,
    dry_run: Annotated[bool, typer.Option(help="Say what would be done; write nothing")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar")] = False,
) -> None:
    """De-identify documents into OUTPUT, with a run manifest (exit 1 if any failed)."""
    regex = _check_options(input_path, output, fmt, encoding, patient_field, patient_column,
                           patient_regex, reversible, mapping_dir)
    strategies = parse_strategies(strategy or [])
    if max_chars < 1 or n_process == 0 or (batch_size is not None and batch_size < 1):
        raise typer.BadParameter("--max-chars and --batch-size must be positive, --n-process "
                                 "not 0")
    settings = ReadSettings(fmt, text_field, text_column, patient_field, patient_column, regex,
                            encoding, glob)
    units = find_units(input_path, settings, reserved=MANIFEST_DIR)
    _check_patient_options(units, patient_field, patient_column, regex)
    key = load_key(key_file, key_env, required=reversible)
    cipher = mapping_cipher(key) if reversible else None
    complete = {u for u in units if (output / u.relative).exists()} if not overwrite else set()
    if dry_run:
        if not pipeline_exists(pipeline):
            raise typer.BadParameter(f"no pipeline {pipeline!r}", param_hint="--pipeline")
        _dry_run(units, complete, settings, max_chars, pipeline)
        return

    nlp, anonymizer = load_pipeline(pipeline)
    table = configure_anonymizer(anonymizer, strategies, reversible)
    if key.source == "random" and (patient_field or patient_column or regex):
        typer.echo("Note: no secret key given; documents of one patient are consistent "
                   "within this run only.", err=True)
    options = Options(output, settings, tuple(drop_field or ()), key, mapping_dir, cipher)
    manifest = Manifest(output, _pipeline_info(pipeline, nlp, anonymizer), {
        "path": str(input_path.resolve()), "kind": "folder" if input_path.is_dir() else "file",
        "files": len(units)}, {
        "format": fmt or "auto", "text_field": text_field, "text_column": text_column,
        "drop_fields": list(options.drop_fields), "patient_field": patient_field,
        "patient_column": patient_column, "patient_regex": patient_regex,
        "encoding": encoding or "detect", "glob": glob, "strategies": table,
        "reversible": reversible,
        "mapping_dir": str(mapping_dir.resolve()) if mapping_dir else None,
        "key": {"source": key.source, "fingerprint": key.fingerprint},
        "n_process": n_process, "batch_size": batch_size or nlp.batch_size,
        "max_chars": max_chars, "context_chars": context_chars, "overwrite": overwrite,
    })
    for unit in units:
        if unit in complete:
            manifest.add({"document": unit.relative, "source": unit.relative,
                          "status": SKIPPED, "reason": "output exists",
                          "output": unit.relative})
    pending = [u for u in units if u not in complete]
    started, status = time.perf_counter(), "interrupted"
    try:
        _process(pending, nlp, anonymizer, options, manifest, n_process, batch_size,
                 max_chars, context_chars, quiet)
        status = "complete"
    finally:
        path = manifest.finish(status, time.perf_counter() - started)
    _report(manifest, path)


def _check_patient_options(units: list[Unit], patient_field: str | None,
                           patient_column: str | None, regex: re.Pattern | None) -> None:
    """Each way of naming the patient fits one kind of input; refuse a mismatch rather
    than run without per-patient keys."""
    formats = {u.format for u in units}
    if regex is not None and formats - {TEXT}:
        raise typer.BadParameter("--patient-regex is for text files; use --patient-field "
                                 "(JSONL) or --patient-column (CSV/TSV)",
                                 param_hint="--patient-regex")
    if patient_field and formats - {JSONL}:
        raise typer.BadParameter("--patient-field is for JSONL input", param_hint="--patient-field")
    if patient_column and formats - {CSV, TSV}:
        raise typer.BadParameter("--patient-column is for CSV/TSV input",
                                 param_hint="--patient-column")


def _process_count(n_process: int) -> int:
    """`--n-process` as a number of processes: -1 (as in spaCy) is one per CPU."""
    return n_process if n_process > 0 else os.cpu_count() or 1


def _pipeline_info(name: str, nlp, anonymizer) -> dict:
    meta = nlp.meta
    return {"argument": name, "name": meta.get("name"), "version": meta.get("version"),
            "lang": nlp.lang, "anonymizer_lang": anonymizer.lang,
            "spacy_version": meta.get("spacy_version"), "components": list(nlp.pipe_names)}


def _process(units: list[Unit], nlp, anonymizer, options: Options, manifest: Manifest,
             n_process: int, batch_size: int | None, max_chars: int, context_chars: int,
             quiet: bool) -> None:
    """The loop: records -> outcomes (in order) -> outputs, unit by unit."""
    queue: deque[OpenedUnit] = deque()
    records = _records(units, options.settings, queue)

    def key_for(record):
        return options.key.for_patient(record.patient)

    if n_process == 1:
        outcomes = annotate(nlp, records, key_for, batch_size=batch_size, max_chars=max_chars,
                            context_chars=context_chars)
    else:
        outcomes = annotate_in_processes(nlp, anonymizer, records, key_for,
                                         n_process=_process_count(n_process),
                                         batch_size=batch_size, max_chars=max_chars,
                                         context_chars=context_chars)
    current: OpenOutput | None = None
    with document_progress(quiet) as progress:
        task = progress.add_task("De-identifying", total=_estimate(units))
        try:
            for outcome in outcomes:
                unit = outcome.record.unit
                if current is None or current.opened.unit is not unit:
                    if current is not None:
                        _finish(current, manifest)
                    while queue[0].unit is not unit:
                        _finish_without_records(queue.popleft(), options, manifest)
                    current = _start(queue.popleft(), options)
                _handle(current, outcome, options, anonymizer)
                progress.advance(task)
            if current is not None:
                _finish(current, manifest)
                current = None
            while queue:
                _finish_without_records(queue.popleft(), options, manifest)
            progress.update(task, total=progress.tasks[0].completed)
        finally:
            if current is not None:
                current.writer.discard()
                if current.mapping is not None:
                    current.mapping.discard()


def _estimate(units: list[Unit]) -> int | None:
    """Documents to expect, for the progress bar: a text file is one, a JSONL file one a
    non-blank line; None (no total) where tables are involved."""
    total = 0
    for unit in units:
        if unit.format == TEXT:
            total += 1
        elif unit.format == JSONL:
            try:
                total += sum(1 for line in unit.path.read_bytes().split(b"\n") if line.strip())
            except OSError:
                continue
        else:
            return None
    return total


def _report(manifest: Manifest, path: Path) -> None:
    totals = manifest.data["totals"]
    typer.echo(f"De-identified {totals['processed']} documents, skipped {totals['skipped']} "
               f"(output exists), {totals['errors']} errors; "
               f"{totals['documents_per_second'] or 0} documents/s.")
    failed = [e for e in manifest.documents if e["status"] == ERROR]
    for entry in failed[:ERRORS_SHOWN]:
        typer.echo(f"  error  {entry['document']}: {entry['error']}", err=True)
    if len(failed) > ERRORS_SHOWN:
        typer.echo(f"  ... and {len(failed) - ERRORS_SHOWN} more (see the manifest)", err=True)
    typer.echo(f"Manifest: {path}")
    if failed:
        raise typer.Exit(1)

