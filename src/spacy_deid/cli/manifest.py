"""The run manifest: what a run did, for audit, without any text.

`OUTPUT/_spacy_deid/run-<run id>.json` holds the pipeline (name, version), the settings,
totals, and one entry per document: its name (file path, with `:line` or `:row` for JSONL
and tables), status, counts per label, time, error message and the language check when the
pipeline sets `doc._.deid_language`. It never holds original text, surrogates or keys: the
messages of `readers` and `processing` never quote text, and language-check results are
reduced to short scalar values (`safe_language_check`).
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import secrets
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from spacy_deid.cli.writers import write_text_atomic

MANIFEST_DIR = "_spacy_deid"
FORMAT_VERSION = 1
# A language check's values longer than this are dropped: they could be text.
MAX_VALUE_CHARS = 40
OK, SKIPPED, ERROR = "ok", "skipped", "error"


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def now() -> str:
    """The current time, UTC, ISO 8601 to the second."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def new_run_id() -> str:
    """A unique run id that sorts in time order (UTC, to the microsecond, so that runs
    within one second sort too) with a random suffix."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    return f"{stamp}-{secrets.token_hex(3)}"


def safe_language_check(value: object) -> object:
    """A JSON-able copy of a language-check result with only short scalar values (a
    string longer than `MAX_VALUE_CHARS` is dropped), so that no text can slip in."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, str):
        return value if len(value) <= MAX_VALUE_CHARS else None
    if isinstance(value, dict):
        return {str(k)[:MAX_VALUE_CHARS]: v for k, v in value.items()
                if isinstance(v, bool | int | float) or v is None
                or (isinstance(v, str) and len(v) <= MAX_VALUE_CHARS)}
    if isinstance(value, list | tuple):
        return [safe_language_check(v) for v in value[:10]]
    return None


class Manifest:
    """The manifest of one run, built as documents are done and written at the end (and
    when the run stops early, with status `interrupted`)."""

    def __init__(self, output_root: Path, pipeline: dict, input_info: dict, settings: dict
                 ) -> None:
        self.run_id = new_run_id()
        self.path = output_root / MANIFEST_DIR / f"run-{self.run_id}.json"
        self.data: dict = {
            "format_version": FORMAT_VERSION,
            "run_id": self.run_id,
            "started": now(),
            "finished": None,
            "status": "running",
            "tool": {"spacy_deid": _version("spacy-deid"), "spacy": _version("spacy"),
                     "python": platform.python_version()},
            "pipeline": pipeline,
            "input": input_info,
            "output": {"path": str(output_root.resolve())},
            "settings": settings,
            "totals": {},
            "documents": [],
        }
        self.labels: Counter = Counter()

    @property
    def documents(self) -> list[dict]:
        return self.data["documents"]

    def add(self, entry: dict) -> None:
        """Add one document's entry (see the module docstring)."""
        self.documents.append(entry)
        self.labels.update(entry.get("labels", {}))

    def finish(self, status: str, seconds: float) -> Path:
        """Set totals and status and write the manifest; returns its path."""
        statuses = Counter(entry["status"] for entry in self.documents)
        done = statuses[OK]
        self.data["finished"] = now()
        self.data["status"] = status
        self.data["totals"] = {
            "documents": len(self.documents),
            "processed": done,
            "skipped": statuses[SKIPPED],
            "errors": statuses[ERROR],
            "labels": dict(sorted(self.labels.items())),
            "seconds": round(seconds, 3),
            "documents_per_second": round(done / seconds, 2) if seconds > 0 else None,
        }
        checks = [e["language_check"] for e in self.documents
                  if isinstance(e.get("language_check"), dict)]
        if checks:  # documents that read as another language than the pipeline's
            self.data["totals"]["language_mismatches"] = sum(bool(c.get("mismatch"))
                                                             for c in checks)
        write_text_atomic(self.path, json.dumps(self.data, ensure_ascii=False, indent=2) + "\n")
        return self.path


def manifest_paths(output_root: Path) -> list[Path]:
    """The run manifests in OUTPUT, oldest first."""
    folder = output_root / MANIFEST_DIR
    return sorted(folder.glob("run-*.json")) if folder.is_dir() else []


def load_manifest(output_root: Path, run_id: str | None = None) -> dict:
    """The manifest of run `run_id`, or of the latest run; FileNotFoundError if none."""
    paths = manifest_paths(output_root)
    if run_id is not None:
        paths = [p for p in paths if p.stem == f"run-{run_id}"]
    if not paths:
        which = f"run {run_id}" if run_id else "any run"
        raise FileNotFoundError(f"no manifest of {which} in {output_root / MANIFEST_DIR}")
    return json.loads(paths[-1].read_text(encoding="utf-8"))
