"""The Python blocks of README.md, and an installed-package stand-in for running them.

`python_blocks()` returns every ```python block of the README in order. `install_package`
makes a pipeline saved with `nlp.to_disk` importable and loadable under a package name
(`spacy.load("xx_deid_de")`, `spacy.util.is_package`), as `pip install` of a pipeline
wheel would, without building one."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks() -> list[str]:
    """The code of every ```python block of README.md."""
    return PYTHON_BLOCK.findall(README.read_text(encoding="utf-8"))


def install_package(site: Path, name: str, pipeline_dir: Path) -> None:
    """Write package `name` under `site` (which the caller puts on sys.path): a module whose
    `load(**overrides)` loads `pipeline_dir`, and its distribution metadata."""
    package = site / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import spacy\n\n\n"
        f"def load(**overrides):\n    return spacy.load({str(pipeline_dir)!r}, **overrides)\n",
        encoding="utf-8")
    dist_info = site / f"{name}-0.1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
