"""The README's Spark snippet runs as written in a Databricks-like namespace: `spark` (the
local session) and `dbutils.secrets.get` (the key), with its /data paths in a temporary
folder and the pipeline name pointing to the test pipeline folder."""

from __future__ import annotations

import json

from tests.readme_snippets import python_blocks
from tests.spark.conftest import KEY


class Secrets:
    def get(self, scope: str, key: str) -> str:
        return KEY


class DbUtils:
    secrets = Secrets()


def test_the_spark_snippet_runs(spark, pipeline_dir, notes, tmp_path):
    snippet = next(block for block in python_blocks() if "spacy_deid.spark" in block)
    source = tmp_path / "notes"
    rows = [json.loads(line) for line in notes.read_text("utf-8").splitlines()]
    spark.createDataFrame([(row["patient"], row["text"]) for row in rows],
                          "patient_id string, text string").write.parquet(str(source))
    snippet = (snippet.replace('"/data/notes_deid"', repr(str(tmp_path / "notes_deid")))
               .replace('"/data/notes"', repr(str(source)))
               .replace('"xx_deid_de"', repr(str(pipeline_dir))))
    exec(compile(snippet, "README.md Spark block", "exec"), {"spark": spark, "dbutils": DbUtils()})
    out = spark.read.parquet(str(tmp_path / "notes_deid")).collect()
    assert len(out) == len(rows)
    assert not any("Anna Berg" in row["deid_text"] for row in out)
