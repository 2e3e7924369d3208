import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

import scripts
from scripts.kernels import blis_builds, blis_kernels, blis_selection, main, numeric_kernels
from scripts.training.train import one_thread_env

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
    assert set(kernels) == {"blis", "openblas"}
    assert blis_kernels() in blis_builds()


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
