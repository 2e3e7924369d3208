"""Writing a run's outputs: one file per input file, complete or not at all.

Every output is written to a hidden `.NAME.partial` file beside it and renamed into place
when the whole input file is done, so that an output that exists is complete: a rerun
skips it (resumable), and an interrupted run leaves only `.partial` files, which the next
run overwrites. Outputs are UTF-8; JSONL objects and CSV rows keep every other field.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from spacy_deid.cli.readers import DELIMITERS, JSONL, TEXT, OpenedUnit, Record


class AtomicFile:
    """A file written under a temporary name and renamed into place by `commit`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.temp = path.with_name(f".{path.name}.partial")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = self.temp.open("w", encoding="utf-8", newline="")

    def commit(self) -> None:
        """Close the file and move it to its name (atomic on one file system)."""
        self.handle.close()
        os.replace(self.temp, self.path)

    def discard(self) -> None:
        """Close and remove the temporary file; nothing appears under the name."""
        self.handle.close()
        self.temp.unlink(missing_ok=True)


def write_text_atomic(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file (see `AtomicFile`)."""
    target = AtomicFile(path)
    try:
        target.handle.write(text)
    except BaseException:
        target.discard()
        raise
    target.commit()


class UnitWriter:
    """The output of one input file. `write` returns the document's position in the
    output (JSONL line or CSV data row, from 1; None for a text file)."""

    def __init__(self, opened: OpenedUnit, output_root: Path, drop: tuple[str, ...]) -> None:
        self.unit = opened.unit
        self.drop = drop
        self.file = AtomicFile(output_root / opened.unit.relative)
        self.written = 0
        self.setup(opened)

    def setup(self, opened: OpenedUnit) -> None:
        """Start the file (e.g. a CSV header)."""

    def write(self, record: Record, text: str) -> int | None:
        raise NotImplementedError

    def commit(self) -> bool:
        """Put the output in place; False (and nothing written) where there is nothing to
        write, i.e. a text file whose document failed."""
        self.file.commit()
        return True

    def discard(self) -> None:
        self.file.discard()


class TextWriter(UnitWriter):
    """A text file in, a text file out (an empty text gives an empty file)."""

    def write(self, record: Record, text: str) -> int | None:
        self.file.handle.write(text)
        self.written += 1
        return None

    def commit(self) -> bool:
        if not self.written:
            self.discard()
            return False
        return super().commit()


class JsonlWriter(UnitWriter):
    """One JSON object a line: the input's object, its text field anonymized."""

    def __init__(self, opened: OpenedUnit, output_root: Path, drop: tuple[str, ...],
                 text_field: str) -> None:
        self.text_field = text_field
        super().__init__(opened, output_root, drop)

    def write(self, record: Record, text: str) -> int | None:
        value = {k: v for k, v in record.fields.items() if k not in self.drop}
        value[self.text_field] = text
        self.file.handle.write(json.dumps(value, ensure_ascii=False) + "\n")
        self.written += 1
        return self.written


class TableWriter(UnitWriter):
    """A CSV/TSV table with the input's header and delimiter, the text column anonymized."""

    def __init__(self, opened: OpenedUnit, output_root: Path, drop: tuple[str, ...],
                 text_column: str) -> None:
        self.text_column = text_column
        super().__init__(opened, output_root, drop)

    def setup(self, opened: OpenedUnit) -> None:
        header = opened.header or []
        self.keep = [i for i, name in enumerate(header) if name not in self.drop]
        self.text_at = header.index(self.text_column) if self.text_column in header else None
        self.writer = csv.writer(self.file.handle, delimiter=DELIMITERS[opened.unit.format])
        if header:
            self.writer.writerow([header[i] for i in self.keep])

    def write(self, record: Record, text: str) -> int | None:
        row = list(record.fields)
        row[self.text_at] = text
        self.writer.writerow([row[i] for i in self.keep])
        self.written += 1
        return self.written


def make_writer(opened: OpenedUnit, output_root: Path, text_field: str, text_column: str,
                drop: tuple[str, ...] = ()) -> UnitWriter:
    """The writer for the unit's format."""
    if opened.unit.format == TEXT:
        return TextWriter(opened, output_root, drop)
    if opened.unit.format == JSONL:
        return JsonlWriter(opened, output_root, drop, text_field)
    return TableWriter(opened, output_root, drop, text_column)
