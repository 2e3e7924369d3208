"""Saving and loading what a rule component learned, as one JSON file in the pipeline.

Components that learn word lists from training documents (`deid_name_cues`,
`deid_name_forms`, `deid_name_extent`, `deid_id_cues`) keep them in
`<component>/<data_file>` when the pipeline is saved, so that a packaged `xx_deid_*`
pipeline carries them. A component using this mixin sets
`data_file` and `factory`, and implements `learned()` and `load_learned(data)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import srsly


class LearnedData:
    """spaCy's serialisation methods over `learned()` / `load_learned()` and one JSON file."""

    data_file: str
    factory: str

    def learned(self) -> dict[str, Any]:
        raise NotImplementedError

    def load_learned(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        return srsly.json_dumps(self.learned(), sort_keys=True).encode("utf8")

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> LearnedData:
        self.load_learned(srsly.json_loads(data))
        return self

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        # keys sorted: learned mappings are built from sets, whose order changes from one
        # process to the next, and a saved pipeline should not
        (path / self.data_file).write_text(
            srsly.json_dumps(self.learned(), indent=2, sort_keys=True) + "\n", encoding="utf8")

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> LearnedData:
        data_path = Path(path) / self.data_file
        if not data_path.exists():
            raise ValueError(f"{self.factory}: {data_path} is missing; the component was "
                             f"saved without what it learned")
        self.load_learned(srsly.read_json(data_path))
        return self
