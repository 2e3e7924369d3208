"""`spacy-deid spark`: JSONL, CSV and Parquet in, Parquet and a manifest of counts per
label out, the same text as `spacy-deid run`."""

from __future__ import annotations

import json
import traceback

import pytest

pytest.importorskip("pyspark")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from typer.testing import CliRunner  # noqa: E402

from spacy_deid.cli import app  # noqa: E402
from tests.spark.conftest import KEY, NAMES  # noqa: E402


def invoke(*args):
    """`spacy-deid spark ARGS` in this process (it uses the test's Spark session); an
    unexpected exception's traceback goes to stderr, for the failure report."""
    result = CliRunner().invoke(app, ["spark", *map(str, args)], env={"SPACY_DEID_KEY": ""})
    if result.exception and not isinstance(result.exception, SystemExit):
        traceback.print_exception(result.exception)
    return result


def manifest_of(output) -> tuple[dict, str]:
    path = next((output / "_spacy_deid").glob("spark-*.json"))
    text = path.read_text("utf-8")
    return json.loads(text), text


def test_jsonl_to_parquet_as_spacy_deid_run(spark, notes, pipeline_dir, key_file,
                                            single_process_run, tmp_path):
    output = tmp_path / "out"
    result = invoke(notes, output, "--pipeline", pipeline_dir, "--patient-column", "patient",
                    "--key-file", key_file, "--partitions", 4)
    assert result.exit_code == 0, result.output
    table = pq.read_table(output).to_pylist()
    assert {row["id"]: row["text"] for row in table} == single_process_run["texts"]
    assert list(table[0]) == ["id", "patient", "text", "deid_entities", "deid_error",
                              "deid_language"]
    manifest, raw = manifest_of(output)
    totals = manifest["totals"]
    assert totals["labels"] == single_process_run["manifest"]["totals"]["labels"]
    assert (totals["rows"], totals["processed"], totals["errors"]) == (300, 300, 0)
    assert manifest["settings"]["key"]["fingerprint"] == \
        single_process_run["manifest"]["settings"]["key"]["fingerprint"]
    assert not any(name in raw for name in NAMES) and KEY not in raw  # no text, no key
    again = invoke(notes, output, "--pipeline", pipeline_dir)
    assert again.exit_code == 2 and "--overwrite" in again.output


def test_csv_with_bad_rows_and_parquet_input(spark, pipeline_dir, key_file, tmp_path):
    source = tmp_path / "notes.csv"
    source.write_text('mrn,text\nP1,"Anna Berg, ""Zimmer 3"", kam am 12.03.2021."\n'
                      ",Anna Berg kam.\nP2,\n", encoding="utf-8")
    output = tmp_path / "csv_out"
    result = invoke(source, output, "--pipeline", pipeline_dir, "--patient-column", "mrn",
                    "--key-file", key_file, "--drop-column", "mrn")
    assert result.exit_code == 1, result.output  # a row without a patient id
    rows = pq.read_table(output).to_pylist()
    assert [list(row) for row in rows][0] == ["text", "deid_entities", "deid_error",
                                              "deid_language"]
    assert '"Zimmer 3", kam am' in rows[0]["text"] and "Anna Berg" not in rows[0]["text"]
    assert rows[1]["text"] is None and rows[1]["deid_error"].startswith("no patient id")
    assert rows[2]["text"] is None and rows[2]["deid_error"] is None
    totals = manifest_of(output)[0]["totals"]
    assert (totals["rows"], totals["processed"], totals["null_text"], totals["errors"]) == \
        (3, 1, 1, 1)
    assert totals["labels"] == {"DATE": 1, "NAME_PATIENT": 1}
    parquet = tmp_path / "in.parquet"
    pq.write_table(pa.table({"note": ["Max Huber, 01.02.2020", None]}), parquet)
    again = invoke(parquet, tmp_path / "from_parquet", "--pipeline", pipeline_dir,
                   "--text-column", "note", "--key-file", key_file)
    assert again.exit_code == 0, again.output
    notes = pq.read_table(tmp_path / "from_parquet").column("note").to_pylist()
    assert notes[1] is None and "Max Huber" not in notes[0]
    taken = tmp_path / "taken.parquet"
    pq.write_table(pa.table({"note": ["x"], "deid_language": ["de"]}), taken)
    clash = invoke(taken, tmp_path / "clash", "--pipeline", pipeline_dir, "--text-column",
                   "note")
    assert clash.exit_code == 2 and "already taken" in clash.output
