import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

import scripts
from scripts.kernels import (
    blis_builds,
    blis_kernels,
    blis_selection,
    main,
    numeric_kernels,
    numpy_kernels,
)
from scripts.training.train import one_thread_env

# What a process prints about the level of numpy's own vector loops.
NUMPY_LEVELS = ("from numpy._core import _multiarray_umath as umath; print(' '.join(level "
                "for level in umath.__cpu_dispatch__ if umath.__cpu_features__.get(level)))")
# What a process prints about the OpenBLAS core numpy computes with.
OPENBLAS_CORE = ("import numpy, threadpoolctl; print([info['architecture'] for info in "
                 "threadpoolctl.threadpool_info() if info['internal_api'] == 'openblas'][0])")


def test_the_selected_blis_sub_configuration_is_read_from_its_debug_output() -> None:
    output = "libblis: selecting sub-configuration 'haswell'.\n"
    assert blis_selection(output) == "haswell"
    assert blis_selection("no BLIS here") is None


def test_a_training_started_by_the_workflow_computes_with_the_pinned_openblas_core() -> None:
    # the test process imported `scripts`, which pins the core for the processes it starts
    completed = subprocess.run([sys.executable, "-c", OPENBLAS_CORE], env=one_thread_env(),
                               capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == scripts.OPENBLAS_CORETYPE


def test_the_recorded_blis_kernels_are_among_those_compiled_in() -> None:
    kernels = numeric_kernels()
    assert set(kernels) == {"blis", "openblas", "numpy"}
    assert blis_kernels() in blis_builds()


def test_a_training_started_by_the_workflow_runs_numpys_loops_below_avx512() -> None:
    # numpy reads the variable when it loads, so only a new process shows the pin, which
    # the test process (it imported `scripts`) passes on
    completed = subprocess.run([sys.executable, "-c", NUMPY_LEVELS], env=one_thread_env(),
                               capture_output=True, text=True, check=True)
    running = set(completed.stdout.split())
    assert not running & set(scripts.NUMPY_DISABLED_CPU_FEATURES.split())


def test_numpys_level_is_its_highest_running_one() -> None:
    from numpy._core import _multiarray_umath as umath

    assert numpy_kernels() in (*umath.__cpu_dispatch__, *umath.__cpu_baseline__)


@pytest.mark.parametrize("portable", [True, False])
def test_the_blis_check_passes_only_for_a_build_of_the_generic_kernels_alone(
        monkeypatch: pytest.MonkeyPatch, portable: bool) -> None:
    builds = ["generic"] if portable else ["generic", "haswell", "zen2"]
    monkeypatch.setattr("scripts.kernels.blis_builds", lambda: builds)
    app = typer.Typer()
    app.command()(main)
    result = CliRunner().invoke(app, ["--check-blis"])
    assert result.exit_code == (0 if portable else 1)
    assert ", ".join(builds) in result.output
