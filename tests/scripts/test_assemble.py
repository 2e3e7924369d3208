"""scripts/assemble.py: clear errors before any work is done."""

from pathlib import Path

import spacy
import typer
from typer.testing import CliRunner

from scripts.assemble import main
from tests.cli_output import plain_output


def run_cli(args: list[str]):
    app = typer.Typer()
    app.command()(main)
    return CliRunner().invoke(app, args)


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de"])
    assert result.exit_code != 0
    assert "no trained pipeline at" in plain_output(result)


def test_a_missing_training_split_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "training" / "de").mkdir(parents=True)
    spacy.blank("de").to_disk(tmp_path / "training" / "de" / "model-best")
    result = run_cli([str(tmp_path / "training"), str(tmp_path / "splits"), "--langs", "de"])
    assert result.exit_code != 0
    assert "no training split at" in plain_output(result)
    assert not (tmp_path / "training" / "de" / "pipeline").exists()
