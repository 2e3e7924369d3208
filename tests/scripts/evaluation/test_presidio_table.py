"""Tests for scripts/evaluation/presidio_table.py: one row per language with a benchmark
file, written between the page's markers and nowhere else."""

from __future__ import annotations

import pytest
import srsly
from typer.testing import CliRunner

from scripts.evaluation.presidio_table import END_MARKER, START_MARKER, app, presidio_table
from tests.cli_output import plain_output


def _record(ner: float, presidio: float, merged: float, ratio: float | None) -> dict:
    scores = {variant: {"all_labels": {"strict": {"f1": f1}}}
              for variant, f1 in (("ner", ner), ("presidio", presidio), ("merged", merged))}
    throughput = {} if ratio is None else {"presidio_over_direct_time_ratio": ratio}
    return {"scores": scores, "throughput": throughput}


@pytest.fixture()
def folder(tmp_path):
    srsly.write_json(tmp_path / "presidio_pl.json", _record(0.5, 0.25, 0.625, 1.05))
    srsly.write_json(tmp_path / "presidio_de.json", _record(0.75, 0.5, 0.875, None))
    return tmp_path


def test_a_row_per_language_in_the_languages_order(folder):
    lines = presidio_table(folder).splitlines()
    assert lines[0] == ("| lang | `ner` | `presidio` | `merged` | "
                        "time through Presidio / direct |")
    assert lines[2:] == ["| de | 0.750 | 0.500 | 0.875 | – |",
                         "| pl | 0.500 | 0.250 | 0.625 | 1.050 |"]


def test_with_a_page_the_table_replaces_what_stood_between_the_markers(folder, tmp_path):
    page = tmp_path / "presidio.md"
    page.write_text(f"Intro\n{START_MARKER}\n| stale |\n{END_MARKER}\nOutro\n", encoding="utf-8")
    result = CliRunner().invoke(app, [str(folder), "--page", str(page)])
    assert result.exit_code == 0, result.output
    expected = f"Intro\n{START_MARKER}\n{presidio_table(folder)}\n{END_MARKER}\nOutro\n"
    assert page.read_text(encoding="utf-8") == expected


def test_a_folder_without_files_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(app, [str(tmp_path)])
    assert result.exit_code == 1
    assert "no presidio_<lang>.json" in plain_output(result)
