"""The numeric kernels the workflow computes with, pinned so that every x86-64 CPU trains the
same models (docs/workflow.md#reproducing-the-metrics).

Three libraries pick their float kernels by CPU at run time: BLIS (thinc's and spaCy's
matrix products), OpenBLAS (numpy's, e.g. the principal components of the subword vectors)
and numpy itself (its vector loops for exp, log, tanh, ...). Different kernels round
differently, and a training that starts from other rounding ends in other models.
`scripts/setup.sh` builds BLIS with its portable `generic` kernels only; importing `scripts`
sets `OPENBLAS_CORETYPE` and `NPY_DISABLE_CPU_FEATURES` (scripts/__init__.py) before numpy
loads, for every workflow step and the trainings it starts: numpy then runs its AVX2 loops
on every CPU that has them, AVX-512 ones included. Every metrics file records the kernels it
ran with (`kernels`).

    python -m scripts.kernels                # the kernels this environment uses, as JSON
    python -m scripts.kernels --check-blis   # exit 1 unless BLIS holds only the generic kernels
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache

import typer

# The BLIS build `scripts/setup.sh` installs (its `BLIS_ARCH`).
BLIS_ARCH = "generic"
# Sub-configurations a BLIS build may hold, each with a `bli_cntx_init_<name>` function.
BLIS_SUBCONFIGURATIONS: tuple[str, ...] = (
    "generic", "penryn", "sandybridge", "haswell", "skx", "knl", "bulldozer", "piledriver",
    "steamroller", "excavator", "zen", "zen2", "zen3", "zen4", "cortexa53", "cortexa57",
    "firestorm", "power9", "power10")

BLIS_SELECTION = re.compile(r"selecting sub-configuration '([^']+)'")
# A matrix product through BLIS, which makes it choose (and, when asked, print) its kernels.
BLIS_PROBE = "import numpy, blis.py; blis.py.gemm(numpy.ones((2, 2), 'f'), numpy.ones((2, 2), 'f'))"


def blis_selection(debug_output: str) -> str | None:
    """The sub-configuration named in BLIS's `BLIS_ARCH_DEBUG` output, if any."""
    found = BLIS_SELECTION.search(debug_output)
    return found.group(1) if found else None


def blis_builds() -> list[str]:
    """The sub-configurations compiled into the installed BLIS (empty without BLIS)."""
    import ctypes

    try:
        import blis.cy
    except ImportError:
        return []
    library = ctypes.CDLL(blis.cy.__file__)
    return [name for name in BLIS_SUBCONFIGURATIONS if hasattr(library, f"bli_cntx_init_{name}")]


@cache
def blis_kernels() -> str | None:
    """The sub-configuration the installed BLIS selects on this CPU (None without BLIS)."""
    completed = subprocess.run([sys.executable, "-c", BLIS_PROBE], capture_output=True,
                               text=True, env={**os.environ, "BLIS_ARCH_DEBUG": "1"})
    if completed.returncode != 0:
        return None
    return blis_selection(completed.stdout + completed.stderr)


def openblas_kernels() -> str | None:
    """The core whose kernels numpy's OpenBLAS uses in this process (None without one)."""
    import numpy  # noqa: F401  (loads OpenBLAS, so that threadpoolctl can see it)
    from threadpoolctl import threadpool_info

    cores = [info.get("architecture") for info in threadpool_info()
             if info.get("internal_api") == "openblas"]
    return cores[0] if cores else None


def numpy_kernels() -> str:
    """The highest level of numpy's own vector loops this process runs (`X86_V3` for AVX2,
    `X86_V4` for AVX-512, ...; its baseline where no higher level is on)."""
    from numpy._core import _multiarray_umath as umath

    running = [level for level in umath.__cpu_dispatch__ if umath.__cpu_features__.get(level)]
    return running[-1] if running else umath.__cpu_baseline__[-1]


def numeric_kernels() -> dict[str, str | None]:
    """The kernels of this environment, for the `kernels` field of the metrics files."""
    return {"blis": blis_kernels(), "openblas": openblas_kernels(), "numpy": numpy_kernels()}


def main(check_blis: bool = typer.Option(
        False, "--check-blis",
        help=f"Exit with 1 unless the installed BLIS holds only its {BLIS_ARCH} kernels")) -> None:
    """Print the kernels this environment computes with, or check the BLIS build."""
    if check_blis:
        builds = blis_builds()
        typer.echo(f"BLIS kernels compiled in: {', '.join(builds) or 'none'}")
        raise typer.Exit(0 if builds == [BLIS_ARCH] else 1)
    typer.echo(json.dumps(numeric_kernels()))


if __name__ == "__main__":
    typer.run(main)
