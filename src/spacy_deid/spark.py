"""De-identify a text column of a Spark DataFrame, on as many executors as the cluster has.

    from spacy_deid.spark import deidentify_dataframe
    out = deidentify_dataframe(df, "note_text", "xx_deid_de", patient_col="mrn", key=key)

Built on `DataFrame.mapInPandas`, so each executor's Python worker processes Arrow batches
of rows with the same code as `spacy-deid run` (`spacy_deid.cli.processing.annotate`):
`nlp.pipe` over the batch, texts longer than `max_chars` through
`spacy_deid.chunking.process_long`, one key per document. A worker loads the pipeline once
(a module-level cache keyed by pipeline and strategy table; Spark reuses its Python workers
between tasks) instead of once per batch. Per-patient consistency is the command line's:
the document key is `RunKey.for_patient` (HMAC of the secret key and the patient id), so
one patient's documents get the same surrogates and date shift on every executor and in
`spacy-deid run` with the same key. Without a key, a random one is drawn on the driver for
the whole DataFrame (consistent within the call only).

A row never fails the job: null text gives null output, a row without a patient id (when
`patient_col` is set) or a document a component fails on gives null output and a message
in `error_col` (never quoting text), and a text that clearly reads as another language than
the pipeline's (`spacy_deid.lang.identify`) is de-identified as usual and flagged in
`language_col`. Needs the `[spark]` extra (pyspark, pandas, pyarrow); see docs/spark.md.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spacy_deid.chunking import DEFAULT_CONTEXT_CHARS, DEFAULT_MAX_CHARS
from spacy_deid.cli.keys import RANDOM, RunKey, new_key

if TYPE_CHECKING:
    import pandas as pd
    from pyspark.sql import DataFrame

# Rows a Python worker hands to `nlp.pipe` at once (the `--batch-size` of `spacy-deid run`
# defaults to the pipeline's own, 1000 for spaCy; smaller keeps a batch of long notes small).
DEFAULT_BATCH_SIZE = 64
# The language check reads this much of a text: enough words to tell, bounded for huge rows.
LANGUAGE_CHECK_CHARS = 5_000
# A hidden column with the patient id cast to a string by Spark (pandas would turn a
# nullable integer column into floats, "42.0"); dropped from the output.
_PATIENT = "__spacy_deid_patient"
# The source of a key given as a string (RunKey records where a key came from).
ARGUMENT = "argument"

# Pipelines loaded in this process, by (pipeline, strategy table): Spark reuses a Python
# worker for many tasks, so each worker loads a pipeline once.
_PIPELINES: dict[tuple, tuple] = {}
# How many times this process loaded each pipeline (the tests check it stays at one).
LOADS: Counter = Counter()


@dataclass(frozen=True)
class Settings:
    """What a worker needs to process a batch; pickled with the task (so it carries the
    secret key to the executors, as any Spark job's parameters are carried)."""

    pipeline: str
    strategies: tuple[tuple[str, str], ...]
    key: RunKey
    text_col: str
    patient_col: str | None
    columns: tuple[str, ...]
    output_col: str
    entities_col: str | None
    include_original: bool
    error_col: str | None
    language_col: str | None
    batch_size: int
    max_chars: int
    context_chars: int


def worker_pipeline(pipeline: str, strategies: tuple[tuple[str, str], ...] = ()):
    """(nlp, anonymizer) for `pipeline` with the `strategies` overrides, loaded on the first
    call in this process and cached (see `_PIPELINES`)."""
    cache_key = (pipeline, strategies)
    if cache_key not in _PIPELINES:
        from spacy_deid.cli.processing import configure_anonymizer, load_pipeline

        nlp, anonymizer = load_pipeline(pipeline)
        configure_anonymizer(anonymizer, dict(strategies), reversible=False)
        _PIPELINES[cache_key] = (nlp, anonymizer)
        LOADS[cache_key] += 1
    return _PIPELINES[cache_key]


def _missing(value: object) -> bool:
    """Whether a pandas cell is null (None, NaN, pandas.NA)."""
    import pandas as pd

    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def _language_flag(doc, lang: str) -> str | None:
    """The language `doc` clearly reads as, where that is not `lang` (else None): from
    `doc._.deid_language` where the pipeline's `deid_language_check` set it, else by
    `spacy_deid.lang.identify` on the start of the text (long texts through
    `process_long` come back without it)."""
    from spacy_deid.lang.identify import identify_language, is_clear_mismatch

    found = getattr(doc._, "deid_language", None) if doc.has_extension("deid_language") \
        else None
    if isinstance(found, dict) and "mismatch" in found:
        return found.get("lang") if found["mismatch"] else None
    guess = identify_language(doc.text[:LANGUAGE_CHECK_CHARS])
    return guess.lang if is_clear_mismatch(guess, lang) else None


def _entities(anonymizer, doc, include_original: bool) -> list[dict]:
    """The spans the anonymizer acted on (merged, as `spacy-deid run` counts them)."""
    out = []
    text = doc.text if include_original else ""
    for span in anonymizer.spans(doc):
        entity = {"label": span.label, "start": span.start, "end": span.end}
        if include_original:
            entity["text"] = text[span.start:span.end]
        out.append(entity)
    return out


def _annotate_rows(nlp, records: list, key: RunKey, settings: Settings) -> list:
    """Outcomes for `records` in order, through `annotate` as `spacy-deid run` does; if the
    batch as a whole raises (a component without an error handler, such as `ner`), each
    record is redone alone, so that only the failing rows get an error."""
    from spacy_deid.cli.processing import Outcome, annotate

    def run(batch: list) -> list:
        return list(annotate(nlp, batch, lambda record: key.for_patient(record.patient),
                             batch_size=settings.batch_size, max_chars=settings.max_chars,
                             context_chars=settings.context_chars))

    try:
        return run(records)
    except Exception:
        outcomes = []
        for record in records:
            try:
                outcomes.extend(run([record]))
            except Exception as error:
                outcomes.append(Outcome(record, error=f"processing failed "
                                                      f"({type(error).__name__})"))
        return outcomes


def process_frame(frame: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """De-identify one pandas batch of rows (see the module docstring); the output has the
    columns of `output_schema`, in its order."""
    import pandas as pd

    from spacy_deid.cli.readers import TEXT, Record, Unit, _patient_value

    nlp, anonymizer = worker_pipeline(settings.pipeline, settings.strategies)
    unit = Unit(Path("<dataframe>"), "<dataframe>", TEXT)
    n = len(frame)
    texts = frame[settings.text_col].tolist()
    patients = frame[_PATIENT].tolist() if settings.patient_col else [None] * n
    output: list = [None] * n
    entities: list = [None] * n
    errors: list = [None] * n
    languages: list = [None] * n
    records, rows = [], []
    for row, (text, patient) in enumerate(zip(texts, patients, strict=True)):
        if _missing(text):
            continue
        patient_id, error = (None, None)
        if settings.patient_col:
            patient_id, error = _patient_value(None if _missing(patient) else patient,
                                               settings.patient_col, "column")
        if error is not None:
            errors[row] = error
            continue
        records.append(Record(unit, index=row, text=str(text), patient=patient_id))
        rows.append(row)
    for row, outcome in zip(rows, _annotate_rows(nlp, records, settings.key, settings),
                            strict=True):
        if outcome.error is not None:
            errors[row] = outcome.error
            continue
        doc = outcome.doc
        output[row] = doc._.deid_text
        if settings.entities_col:
            entities[row] = _entities(anonymizer, doc, settings.include_original)
        if settings.language_col:
            languages[row] = _language_flag(doc, anonymizer.lang)
    # the kept columns pass through as they came (their pandas types map back unchanged)
    result = frame[list(settings.columns)].reset_index(drop=True)
    added = {settings.output_col: output, settings.entities_col: entities,
             settings.error_col: errors, settings.language_col: languages}
    for name, values in added.items():
        if name:
            result[name] = pd.Series(values, dtype=object)
    return result


def _process_batches(batches: Iterable[pd.DataFrame], settings: Settings
                     ) -> Iterator[pd.DataFrame]:
    """The function `mapInPandas` runs on each partition."""
    for frame in batches:
        yield process_frame(frame, settings)


def output_schema(schema, settings: Settings):
    """The Spark schema of the result: the kept input columns, then the new ones."""
    from pyspark.sql.types import (
        ArrayType,
        IntegerType,
        StringType,
        StructField,
        StructType,
    )

    fields = [schema[name] for name in settings.columns]
    fields.append(StructField(settings.output_col, StringType(), True))
    if settings.entities_col:
        entity = [StructField("label", StringType(), False),
                  StructField("start", IntegerType(), False),
                  StructField("end", IntegerType(), False)]
        if settings.include_original:
            entity.append(StructField("text", StringType(), False))
        fields.append(StructField(settings.entities_col, ArrayType(StructType(entity)), True))
    for name in (settings.error_col, settings.language_col):
        if name:
            fields.append(StructField(name, StringType(), True))
    return StructType(fields)


def _pipeline_argument(pipeline: str | os.PathLike) -> str:
    """A pipeline folder that exists here as an absolute path (executors do not share the
    driver's working directory); a package name as it is."""
    path = Path(pipeline)
    return str(path.resolve()) if path.is_dir() else str(pipeline)


def deidentify_dataframe(
    df: DataFrame,
    text_col: str,
    pipeline: str | os.PathLike,
    *,
    output_col: str = "deid_text",
    entities_col: str | None = None,
    include_original: bool = False,
    patient_col: str | None = None,
    key: str | RunKey | None = None,
    strategies: dict[str, str] | None = None,
    error_col: str | None = "deid_error",
    language_col: str | None = "deid_language",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_chars: int = DEFAULT_MAX_CHARS,
    context_chars: int = DEFAULT_CONTEXT_CHARS,
) -> DataFrame:
    """`df` with `text_col` de-identified into `output_col` (lazily, like any
    transformation).

    `pipeline`: an installed pipeline package (e.g. `xx_deid_de`) or a pipeline folder
    that every executor can read. By default `text_col` is left out of the result, so that
    what is written is shareable; `include_original=True` keeps it and adds each entity's
    original `text`. `entities_col`: a column of the spans replaced (`label`, `start`,
    `end` in the original). `patient_col` and `key`: per-patient keys as in
    `spacy-deid run --patient-column --key-file` (a row without a patient id is an error
    row). `strategies`: LABEL -> surrogate|mask|redact|tag|keep, on top of the pipeline's.
    `error_col`, `language_col`: see the module docstring; None leaves a column out.
    `batch_size`: rows per `nlp.pipe` batch; `max_chars`, `context_chars`: as in
    `process_long`."""
    from spacy_deid.anonymize.anonymizer import validate_strategies

    if batch_size < 1 or max_chars < 1 or context_chars < 0:
        raise ValueError("batch_size and max_chars must be positive, context_chars not "
                         "negative")
    names = list(df.columns)
    for name, what in ((text_col, "text_col"), (patient_col, "patient_col")):
        if name is not None and name not in names:
            raise ValueError(f"{what}: no column {name!r} in the DataFrame")
    columns = tuple(n for n in names if include_original or n != text_col)
    new = [c for c in (output_col, entities_col, error_col, language_col) if c]
    clashes = [c for c in new if c in columns] + [c for c in set(new) if new.count(c) > 1]
    if clashes:
        raise ValueError(f"output column(s) {sorted(set(clashes))} already taken; choose "
                         "other names (or leave out include_original to replace text_col)")
    table = tuple(sorted(validate_strategies(dict(strategies or {})).items()))
    if key is None:
        key = RunKey(new_key(), RANDOM)
        if patient_col is not None:
            warnings.warn("no secret key given: one patient's documents are consistent "
                          "within this DataFrame only", stacklevel=2)
    elif isinstance(key, str):
        key = RunKey(key, ARGUMENT)
    settings = Settings(
        pipeline=_pipeline_argument(pipeline), strategies=table, key=key, text_col=text_col,
        patient_col=patient_col, columns=columns, output_col=output_col,
        entities_col=entities_col, include_original=include_original, error_col=error_col,
        language_col=language_col, batch_size=batch_size, max_chars=max_chars,
        context_chars=context_chars,
    )
    schema = output_schema(df.schema, settings)
    source = df
    if patient_col is not None:
        from pyspark.sql import functions as F

        source = df.withColumn(_PATIENT, F.col(patient_col).cast("string"))

    def run(batches: Iterable[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        return _process_batches(batches, settings)

    result = source.mapInPandas(run, schema)
    if output_col == text_col:
        # the anonymized text takes the original column's place
        order = [*names, *(c for c in new if c != output_col)]
        result = result.select(*order)
    return result
