"""Reversible mode: the replacements of each document (original -> surrogate, with their
places in the output), encrypted, kept apart from the shareable output.

One mapping file per output file, `<mapping dir>/<output path>.deid-map`: a first line of
plain JSON saying which output it belongs to and how to find the text in it (no text, no
key), then one line per document, `{"index": n, "token": "..."}`, where the token is a
Fernet token (AES-128-CBC with HMAC-SHA256, from `cryptography`) of the document's
replacement records. Only the holder of the run's secret key can read the originals.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from spacy_deid.cli.writers import AtomicFile

SUFFIX = ".deid-map"
FORMAT_VERSION = 1
# The parts of a replacement record the mapping keeps.
FIELDS: tuple[str, ...] = ("label", "out_start", "out_end", "surrogate", "original")


class MappingError(Exception):
    """A mapping that does not fit the output it is applied to (edited or wrong file)."""


class MappingWriter:
    """The encrypted mapping of one output file, written like the output (atomically)."""

    def __init__(self, mapping_root: Path, header: dict, cipher) -> None:
        self.cipher = cipher
        self.file = AtomicFile(mapping_root / (header["output"] + SUFFIX))
        self.file.handle.write(json.dumps({"format_version": FORMAT_VERSION, **header}) + "\n")

    def add(self, index: int | None, replacements: list[dict]) -> None:
        """Store one document's replacement records (the fields in `FIELDS`)."""
        records = [{name: r[name] for name in FIELDS} for r in replacements]
        token = self.cipher.encrypt(json.dumps(records, ensure_ascii=False).encode("utf-8"))
        self.file.handle.write(json.dumps({"index": index, "token": token.decode("ascii")}) + "\n")

    def commit(self) -> None:
        self.file.commit()

    def discard(self) -> None:
        self.file.discard()


def mapping_files(mapping_root: Path) -> list[Path]:
    """Every mapping file under `mapping_root`, sorted."""
    return sorted(path for path in mapping_root.rglob(f"*{SUFFIX}") if path.is_file())


def read_mapping(path: Path, cipher) -> tuple[dict, Iterator[tuple[int | None, list[dict]]]]:
    """(header, (index, replacement records) per document); a wrong key raises
    `cryptography.fernet.InvalidToken`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])

    def documents() -> Iterator[tuple[int | None, list[dict]]]:
        for line in lines[1:]:
            entry = json.loads(line)
            records = json.loads(cipher.decrypt(entry["token"].encode("ascii")))
            yield entry["index"], records

    return header, documents()


def restore(text: str, records: list[dict]) -> str:
    """`text` with every surrogate put back to its original; a `MappingError` where the
    output no longer holds the surrogate at its recorded place."""
    pieces: list[str] = []
    cursor = 0
    for record in sorted(records, key=lambda r: r["out_start"]):
        start, end = record["out_start"], record["out_end"]
        if start < cursor or text[start:end] != record["surrogate"]:
            raise MappingError(
                f"the output differs from the mapping at characters {start}-{end} "
                f"({record['label']}); was it edited?"
            )
        pieces += [text[cursor:start], record["original"]]
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)
