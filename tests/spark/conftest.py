"""Fixtures for the Spark tests: a local Spark session (`local[2]`, skipped where pyspark,
pandas, pyarrow or Java is missing), a small rule-based pipeline saved to disk, a few hundred
short notes of twenty patients as JSONL, and their `spacy-deid run` output to compare with."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_deid  # noqa: F401  (registers the extensions)
from spacy_deid.cli import app
from spacy_deid.cli.keys import KEY_ENV
from tests.rule_pipeline import save_rule_pipeline

KEY = "a-spark-test-key-of-enough-length-0123456789"
NAMES = ("Anna Berg", "Max Huber", "Frau Weber")
DOCUMENTS = 300
PATIENTS = 20


def java_available() -> bool:
    """Whether a Java runtime is on PATH or under JAVA_HOME (Spark needs one)."""
    home = os.environ.get("JAVA_HOME")
    return shutil.which("java") is not None or bool(home and Path(home, "bin", "java").exists())


@pytest.fixture(scope="session")
def spark():
    """A local Spark session with two cores; its Python workers run this interpreter."""
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    sql = pytest.importorskip("pyspark.sql")
    if not java_available():
        pytest.skip("Spark needs Java (apt-get install default-jre-headless)")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (sql.SparkSession.builder.master("local[2]").appName("spacy-deid-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.driver.host", "127.0.0.1")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def pipeline_dir(tmp_path_factory) -> Path:
    """An entity_ruler for two names and dotted dates plus `deid_anonymizer` (surrogates),
    with the spacy_deid German tokenizer."""
    doctor = {"label": "NAME_DOCTOR", "pattern": [{"TEXT": "Frau"}, {"TEXT": "Weber"}]}
    return save_rule_pipeline(tmp_path_factory.mktemp("pipeline") / "deid_spark_test",
                              [doctor])


def note(number: int) -> str:
    """A short note; every seventh has no PHI."""
    if number % 7 == 0:
        return f"Kontrolle {number} ohne Befund."
    name = NAMES[number % len(NAMES)]
    date = f"{1 + number % 28:02d}.{1 + number % 12:02d}.20{10 + number % 15}"
    return f"{name} kam am {date} zur Kontrolle {number}. {name} erholte sich gut."


@pytest.fixture(scope="session")
def notes(tmp_path_factory) -> Path:
    """DOCUMENTS notes of PATIENTS patients as JSONL (fields id, patient, text)."""
    path = tmp_path_factory.mktemp("notes") / "notes.jsonl"
    rows = [{"id": i, "patient": f"P{i % PATIENTS}", "text": note(i)} for i in range(DOCUMENTS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def key_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("key") / "deid.key"
    path.write_text(KEY, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def single_process_run(notes, key_file, pipeline_dir, tmp_path_factory) -> dict:
    """`spacy-deid run` on the notes with the key and a key per patient: output text by id
    and the run manifest."""
    output = tmp_path_factory.mktemp("run") / "out"
    result = CliRunner().invoke(app, [
        "run", "--pipeline", str(pipeline_dir), "--quiet", "--patient-field", "patient",
        "--key-file", str(key_file), str(notes), str(output)], env={KEY_ENV: ""})
    assert result.exit_code == 0, result.output
    lines = (output / notes.name).read_text("utf-8").splitlines()
    texts = {row["id"]: row["text"] for row in map(json.loads, lines)}
    manifest = json.loads(next((output / "_spacy_deid").glob("run-*.json")).read_text("utf-8"))
    return {"texts": texts, "manifest": manifest}
