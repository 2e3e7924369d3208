"""Fixtures for the `spacy-deid` command tests: a small rule-based pipeline saved to disk
(an entity_ruler for two names and dotted dates, plus `deid_anonymizer`), and a runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

import spacy_deid  # noqa: F401  (registers the extensions)
from spacy_deid.cli import app
from spacy_deid.cli.keys import KEY_ENV
from tests.rule_pipeline import save_rule_pipeline


@pytest.fixture(scope="session")
def pipeline_dir(tmp_path_factory) -> Path:
    return save_rule_pipeline(tmp_path_factory.mktemp("pipeline") / "deid_test")


@pytest.fixture(autouse=True)
def no_key_in_environment(monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)


@pytest.fixture
def cli(pipeline_dir):
    """Invoke `spacy-deid`; `run` gets the test pipeline and --quiet."""

    def invoke(*args: str | Path, env: dict | None = None) -> Result:
        args = [str(a) for a in args]
        if args[0] == "run":
            args[1:1] = ["--pipeline", str(pipeline_dir), "--quiet"]
        return CliRunner().invoke(app, args, env=env)

    return invoke

