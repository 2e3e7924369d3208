"""`deidentify_dataframe` in local mode: the same output as `spacy-deid run` with the same
key (one patient, one set of surrogates on every executor), rows that cannot fail the job,
and the pipeline loaded once per Python worker."""

from __future__ import annotations

import os
from collections import Counter

import pytest

pytest.importorskip("pyspark")

import spacy  # noqa: E402

from spacy_deid.chunking import process_long  # noqa: E402
from spacy_deid.cli.keys import RunKey  # noqa: E402
from spacy_deid.spark import deidentify_dataframe  # noqa: E402
from tests.spark.conftest import KEY, NAMES  # noqa: E402


def test_the_same_output_as_spacy_deid_run(spark, notes, pipeline_dir, single_process_run):
    df = spark.read.json(str(notes)).repartition(6)  # rows of one patient on both workers
    out = deidentify_dataframe(df, "text", pipeline_dir, patient_col="patient", key=KEY,
                               entities_col="entities", batch_size=16)
    assert "text" not in out.columns  # the original is left out by default
    rows = out.collect()
    assert {row["id"]: row["deid_text"] for row in rows} == single_process_run["texts"]
    assert all(row["deid_error"] is None and row["deid_language"] is None for row in rows)
    assert not any(name in row["deid_text"] for row in rows for name in NAMES)
    labels = Counter(entity["label"] for row in rows for entity in row["entities"])
    assert dict(labels) == single_process_run["manifest"]["totals"]["labels"]
    assert all(set(entity.asDict()) == {"label", "start", "end"}
               for row in rows for entity in row["entities"])


def test_a_key_per_patient_and_per_call(spark, pipeline_dir):
    text = "Anna Berg kam am 12.03.2021."
    df = spark.createDataFrame([(1, "P1", text), (2, "P1", text), (3, "P2", text)],
                               "id long, patient string, text string").repartition(3)

    def outputs(**options) -> list[str]:
        out = deidentify_dataframe(df, "text", pipeline_dir, patient_col="patient", **options)
        return [row["deid_text"] for row in out.orderBy("id").collect()]

    first, same, other = outputs(key=KEY)
    assert first == same != other
    assert outputs(key=KEY) == [first, same, other]  # the same key: the same surrogates
    with pytest.warns(UserWarning, match="no secret key"):
        assert outputs()[0] != first  # a random key for the call


def test_rows_that_cannot_fail_the_job(spark, pipeline_dir):
    paragraph = "Patientin Anna Berg kam am 12.03.2021 zur Aufnahme.\n\n"
    huge = paragraph * (300_000 // len(paragraph) + 1)
    english = ("The patient Anna Berg was admitted on 12.03.2021 with pain in the chest, and "
               "she was given a drug for the pain; then she went home with her husband and "
               "her son, who will call the clinic if the pain comes back.")
    rows = [(1, "P1", None), (2, "P1", ""), (3, "P1", huge), (4, "P2", english),
            (5, None, "Anna Berg kam."), (6, "P1", "   ")]
    df = spark.createDataFrame(rows, "id long, patient string, text string").repartition(2)
    out = deidentify_dataframe(df, "text", pipeline_dir, patient_col="patient", key=KEY)
    got = {row["id"]: row for row in out.collect()}
    assert len(huge) > 300_000
    assert got[1]["deid_text"] is None and got[1]["deid_error"] is None
    assert got[2]["deid_text"] == "" and got[2]["deid_error"] is None
    assert got[6]["deid_text"] == "   "
    nlp = spacy.load(pipeline_dir)
    doc = nlp.make_doc(huge)
    doc._.deid_secret_key = RunKey(KEY, "file").for_patient("P1")
    assert got[3]["deid_text"] == process_long(nlp, doc)._.deid_text  # in chunks
    assert "Anna Berg" not in got[3]["deid_text"] and got[3]["deid_error"] is None
    assert got[4]["deid_language"] == "en" and got[4]["deid_error"] is None
    assert "Anna Berg" not in got[4]["deid_text"]  # flagged, still de-identified
    assert got[5]["deid_text"] is None
    assert got[5]["deid_error"] == "no patient id in column 'patient'"
    assert got[3]["deid_language"] is None


def test_original_text_only_when_asked_and_strategies(spark, pipeline_dir):
    text = "Max Huber kam am 01.02.2020."
    df = spark.createDataFrame([(1, text)], "id long, note string")
    out = deidentify_dataframe(df, "note", pipeline_dir, include_original=True,
                               entities_col="phi", strategies={"NAME_PATIENT": "tag"},
                               error_col=None, language_col=None, key=KEY)
    assert out.columns == ["id", "note", "deid_text", "phi"]
    row = out.first()
    assert row["note"] == text and row["deid_text"].startswith("[NAME_PATIENT] kam am ")
    assert [(e["label"], e["text"]) for e in row["phi"]] == [("NAME_PATIENT", "Max Huber"),
                                                             ("DATE", "01.02.2020")]
    replaced = deidentify_dataframe(df, "note", pipeline_dir, output_col="note", key=KEY)
    assert replaced.columns == ["id", "note", "deid_error", "deid_language"]


def test_bad_arguments_are_refused_on_the_driver(spark, pipeline_dir):
    df = spark.createDataFrame([(1, "x")], "id long, text string")
    with pytest.raises(ValueError, match="no column 'note'"):
        deidentify_dataframe(df, "note", pipeline_dir)
    with pytest.raises(ValueError, match="already taken"):
        deidentify_dataframe(df, "text", pipeline_dir, output_col="id")
    with pytest.raises(ValueError, match="already taken"):
        deidentify_dataframe(df, "text", pipeline_dir, include_original=True, output_col="text")
    with pytest.raises(ValueError, match="strateg"):
        deidentify_dataframe(df, "text", pipeline_dir, strategies={"NAME_PATIENT": "nope"})


def test_the_pipeline_is_loaded_once_per_worker(spark, pipeline_dir, notes):
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "10")
    try:
        df = spark.read.json(str(notes)).repartition(12)  # 12 tasks of about 3 batches
        deidentify_dataframe(df, "text", pipeline_dir, key=KEY, batch_size=4).collect()
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")

    def probe(batches):
        import pandas as pd

        from spacy_deid.spark import LOADS

        for _ in batches:
            yield pd.DataFrame({"pid": [os.getpid()], "loads": [max(LOADS.values(),
                                                                   default=0)]})

    seen = spark.range(0, 48, numPartitions=24).mapInPandas(probe, "pid long, loads long")
    loads = {row["pid"]: row["loads"] for row in seen.collect()}
    assert max(loads.values()) == 1  # never more than once in one worker
