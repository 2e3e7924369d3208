"""Tests for scripts/evaluation/cross_genre_table.py: one row per language with both models,
written between the page's markers and nowhere else."""

from __future__ import annotations

import pytest
import srsly
from typer.testing import CliRunner

from scripts.evaluation.cross_genre_table import (
    END_MARKER,
    START_MARKER,
    app,
    cross_genre_table,
)
from tests.cli_output import plain_output


def _record(letters_f1: float, other_f1: float, names_caught: int) -> dict:
    caught = {"names": {"spans": 8, "caught": names_caught},
              "ids": {"spans": 0, "caught": 0}}
    return {"source": "letters", "sources": {
        "letters": {"strict_micro": {"f1": letters_f1}, "caught": caught},
        "synthetic": {"strict_micro": {"f1": other_f1}, "caught": caught}}}


@pytest.fixture()
def folder(tmp_path):
    folder = tmp_path / "cross_genre"
    folder.mkdir()
    srsly.write_json(folder / "pl_letters_only.json", _record(0.5, 0.25, 4))
    srsly.write_json(folder / "pl_both.json", _record(0.75, 0.625, 7))
    srsly.write_json(folder / "de_both.json", _record(0.9, 0.9, 8))  # no letters-only file
    return folder


def test_a_row_per_language_with_both_models_in_column_pairs(folder):
    lines = cross_genre_table(folder).splitlines()
    assert lines[0].startswith("| lang | letters F1: letters only | letters F1: both |")
    assert len(lines) == 3
    assert lines[2] == ("| pl | 0.500 | 0.750 | 0.250 | 0.625 | 0.500 | 0.875 | – | – |")


def test_the_page_changes_between_its_markers_only(folder, tmp_path):
    page = tmp_path / "page.md"
    page.write_text(f"# Page\n\n{START_MARKER}\nold\n{END_MARKER}\n\nAfter.\n", encoding="utf-8")
    result = CliRunner().invoke(app, [str(folder), "--page", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# Page\n\n{START_MARKER}\n| lang |")
    assert text.endswith(f"| – | – |\n{END_MARKER}\n\nAfter.\n")
    assert "old" not in text


def test_a_folder_without_pairs_or_a_page_without_markers_is_a_clear_error(folder, tmp_path):
    result = CliRunner().invoke(app, [str(tmp_path)])
    assert result.exit_code == 1
    assert "no pair of" in plain_output(result)
    page = tmp_path / "page.md"
    page.write_text("# Page\n", encoding="utf-8")
    result = CliRunner().invoke(app, [str(folder), "--page", str(page)])
    assert result.exit_code == 1
    assert START_MARKER in plain_output(result)
    assert page.read_text(encoding="utf-8") == "# Page\n"
