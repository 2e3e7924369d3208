"""compare_metrics: two metrics folders agree apart from timings and timestamps."""

import json
from pathlib import Path

import pytest
import typer

from scripts.evaluation.compare_metrics import compare_folders, kernels_used, main


def write(folder: Path, name: str, data: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def test_timings_and_timestamps_do_not_count_scores_do(tmp_path: Path) -> None:
    record = {"created": "2026-01-01", "strict": {"f1": 0.8}, "runs": [{"seconds": 3, "n": 2}]}
    write(tmp_path / "a", "de.json", record)
    write(tmp_path / "b", "de.json", {**record, "created": "2026-02-02",
                                       "runs": [{"seconds": 9, "n": 2}]})
    assert compare_folders(tmp_path / "a", tmp_path / "b") == {"de.json": []}
    write(tmp_path / "b", "de.json", {**record, "strict": {"f1": 0.81}})
    assert compare_folders(tmp_path / "a", tmp_path / "b") == {
        "de.json": ["/strict/f1: 0.8 != 0.81"]}


def test_a_file_on_one_side_only_is_a_difference_and_the_command_fails(tmp_path: Path) -> None:
    write(tmp_path / "a", "de.json", {"f1": 1})
    write(tmp_path / "b", "de.json", {"f1": 1})
    write(tmp_path / "b", "pl.json", {"f1": 1})
    report = compare_folders(tmp_path / "a", tmp_path / "b")
    assert report["de.json"] == [] and report["pl.json"][0].startswith("only in")
    with pytest.raises(typer.Exit) as exit_info:
        main(tmp_path / "a", tmp_path / "b", ["*.json"])
    assert exit_info.value.exit_code == 1


def test_runs_on_other_kernels_are_named_before_the_differences(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "a", "de.json", {"f1": 0.8, "kernels": {"blis": "generic"}})
    write(tmp_path / "a", "train_time.json", {"_kernels": {"blis": "generic"}})
    write(tmp_path / "b", "de.json", {"f1": 0.9, "kernels": {"blis": "haswell"}})
    assert kernels_used(tmp_path / "a") == {'{"blis": "generic"}'}
    with pytest.raises(typer.Exit):
        main(tmp_path / "a", tmp_path / "b", ["*.json"])
    output = capsys.readouterr().out
    assert output.index("other kernels") < output.index("/f1: 0.8 != 0.9")
    assert "haswell" in output
