"""Reading a run's documents: a text file, a folder of them, a JSONL file or a CSV/TSV
table, in whatever encoding a hospital's export came in.

A file (a `Unit`) gives one output file; a table or JSONL file holds many documents
(`Record`s). What cannot be read becomes a record with an `error` (a message that never
quotes the text), so that a run reports it and goes on.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

TEXT, JSONL, CSV, TSV = "text", "jsonl", "csv", "tsv"
FORMATS: tuple[str, ...] = (TEXT, JSONL, CSV, TSV)
FORMATS_BY_SUFFIX: dict[str, str] = {
    ".jsonl": JSONL, ".ndjson": JSONL, ".csv": CSV, ".tsv": TSV, ".tab": TSV,
}
DELIMITERS: dict[str, str] = {CSV: ",", TSV: "\t"}
BYTE_ORDER_MARKS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Tried in order when no encoding is given and no byte order mark says; latin-1 reads any
# bytes, so it comes last.
FALLBACK_ENCODINGS: tuple[str, ...] = ("utf-8", "cp1252", "latin-1")
# Clinical notes in a table cell can be longer than csv's default limit of 128 KiB.
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


class InputError(Exception):
    """A file or document that cannot be read; the message never quotes its text."""


@dataclass(frozen=True)
class ReadSettings:
    """How to read the input (the `run` command's options)."""

    format: str | None = None
    text_field: str = "text"
    text_column: str = "text"
    patient_field: str | None = None
    patient_column: str | None = None
    patient_regex: re.Pattern | None = None
    encoding: str | None = None
    glob: str = "*"


@dataclass(frozen=True)
class Unit:
    """One input file, read as `format`; `relative` (a POSIX path) names it under the
    input folder and names its output under OUTPUT."""

    path: Path
    relative: str
    format: str


@dataclass
class Record:
    """One document: its text, the fields passed through with it (a JSONL object or a CSV
    row), its patient id, or an `error`. `index` is its JSONL line or CSV data row (from
    1); None for a text file."""

    unit: Unit
    index: int | None = None
    text: str | None = None
    fields: dict | list | None = None
    patient: str | None = None
    error: str | None = None

    @property
    def document(self) -> str:
        """The document's name in the manifest: the file, with `:line` or `:row`."""
        return self.unit.relative if self.index is None else f"{self.unit.relative}:{self.index}"


@dataclass
class OpenedUnit:
    """A decoded input file: its encoding, a CSV header, or an error for the whole file."""

    unit: Unit
    encoding: str | None = None
    header: list[str] | None = None
    error: str | None = None
    records: list[Record] = field(default_factory=list)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """(text, encoding): `encoding` if given, else by byte order mark, else the first of
    `FALLBACK_ENCODINGS` that decodes; bytes with NUL and no byte order mark are binary."""
    if encoding:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as error:
            raise InputError(f"not valid {encoding} (byte {error.start})") from None
    for mark, name in BYTE_ORDER_MARKS:
        if data.startswith(mark):
            try:
                return data.decode(name), name
            except UnicodeDecodeError as error:
                raise InputError(f"not valid {name} (byte {error.start})") from None
    if b"\x00" in data:
        raise InputError("a binary file (NUL bytes), not text")
    for name in FALLBACK_ENCODINGS:
        try:
            return data.decode(name), name
        except UnicodeDecodeError:
            continue
    raise InputError("no encoding fits")  # not reached: latin-1 decodes any bytes


def unit_format(path: Path, settings: ReadSettings) -> str:
    """The format of a file: `settings.format`, else by its suffix, else text."""
    return settings.format or FORMATS_BY_SUFFIX.get(path.suffix.lower(), TEXT)


def find_units(input_path: Path, settings: ReadSettings, reserved: str | None = None
               ) -> list[Unit]:
    """The files to read: `input_path` itself, or every file under the folder that matches
    `settings.glob` (recursively, hidden files and folders left out, sorted); a top-level
    name equal to `reserved` (the manifest folder) is left out too."""
    if not input_path.is_dir():
        return [Unit(input_path, input_path.name, unit_format(input_path, settings))]
    units = []
    for path in sorted(input_path.rglob(settings.glob)):
        relative = path.relative_to(input_path)
        if any(part.startswith(".") for part in relative.parts) or not path.is_file():
            continue
        if reserved and relative.parts[0] == reserved:
            continue
        units.append(Unit(path, relative.as_posix(), unit_format(path, settings)))
    return units


def patient_from_name(unit: Unit, regex: re.Pattern | None) -> tuple[str | None, str | None]:
    """(patient id, error) from the file's relative path by the regex's one group."""
    if regex is None:
        return None, None
    match = regex.search(unit.relative)
    if not match or not match.group(1):
        return None, "no patient id in the file's path (--patient-regex does not match)"
    return match.group(1), None


def open_unit(unit: Unit, settings: ReadSettings) -> OpenedUnit:
    """Read and decode `unit` and parse its documents (errors are kept, not raised)."""
    opened = OpenedUnit(unit)
    try:
        data = unit.path.read_bytes()
    except OSError as error:
        opened.error = f"cannot read the file: {error.strerror or type(error).__name__}"
        return opened
    try:
        text, opened.encoding = decode(data, settings.encoding)
    except InputError as error:
        opened.error = str(error)
        return opened
    if unit.format == TEXT:
        patient, error = patient_from_name(unit, settings.patient_regex)
        opened.records = [Record(unit, text=text if error is None else None, patient=patient,
                                 error=error)]
    elif unit.format == JSONL:
        opened.records = list(_jsonl_records(unit, text, settings))
    else:
        _read_table(opened, text, settings)
    return opened


def _jsonl_records(unit: Unit, text: str, settings: ReadSettings) -> Iterator[Record]:
    # Split on line feeds only: JSON strings may hold other line separators (U+2028).
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        record = Record(unit, index=number)
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            record.error = f"not valid JSON (column {error.colno})"
            yield record
            continue
        if not isinstance(value, dict):
            record.error = "not a JSON object"
        elif not isinstance(value.get(settings.text_field), str):
            record.error = (f"no text field {settings.text_field!r}"
                            if settings.text_field not in value
                            else f"field {settings.text_field!r} is not a string")
        else:
            record.text, record.fields = value[settings.text_field], value
            record.patient, record.error = _patient_value(
                value.get(settings.patient_field), settings.patient_field, "field"
            )
            if record.error:
                record.text = None
        yield record


def _patient_value(value: object, name: str | None, kind: str) -> tuple[str | None, str | None]:
    if name is None:
        return None, None
    if value is None or not str(value).strip():
        return None, f"no patient id in {kind} {name!r}"
    return str(value).strip(), None


def _read_table(opened: OpenedUnit, text: str, settings: ReadSettings) -> None:
    unit = opened.unit
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS[unit.format])
    try:
        header = next(rows, None)
        if header is None:
            opened.header = []
            return
        if header and header[0].startswith("\ufeff"):
            header[0] = header[0][1:]
        opened.header = header
        for name, option in ((settings.text_column, "--text-column"),
                             (settings.patient_column, "--patient-column")):
            if name is not None and name not in header:
                opened.error = f"no column {name!r} ({option}) in the header"
                return
        text_at = header.index(settings.text_column)
        patient_at = header.index(settings.patient_column) if settings.patient_column else None
        for number, row in enumerate(rows, 1):
            if not row:
                continue
            record = Record(unit, index=number)
            if len(row) != len(header):
                record.error = f"{len(row)} fields where the header has {len(header)}"
            else:
                record.patient, record.error = _patient_value(
                    row[patient_at] if patient_at is not None else None,
                    settings.patient_column, "column",
                )
                if record.error is None:
                    record.text, record.fields = row[text_at], row
            opened.records.append(record)
    except csv.Error as error:
        opened.error = f"not a valid table ({type(error).__name__} near row {rows.line_num})"
