"""Score a trained de-identification pipeline against gold entities, the way the field does.

Four matching schemas (after SemEval-2013 task 9.1, as implemented by `nervaluate`):

- ``strict``: exact span and label;
- ``exact``: exact span, any label;
- ``partial``: overlapping span, any label; a partial overlap earns half credit;
- ``type``: overlapping span with the same label (nervaluate's ``ent_type``), full credit.

Each schema is reported micro and macro (mean over the labels with gold support) with
P/R/F1/F2, per label, and as a per-document distribution; all of it twice: on the fine
GraSCCo labels and on the MultiGraSCCo paper's reduced label set (names merged, rare
labels dropped). Matching is by character offsets, so the pipeline's tokenization may
differ from the gold tokenization.

Each source of the test split is scored on its own: the record's top level holds the
letters (as the published numbers do), `sources` a summary per source, and for the
multi-genre documents per genre, with the share of person names and of IDs caught (every
character of the gold span inside some predicted span, whatever its label).

Usage::

    python -m scripts.evaluation.evaluate MODEL_DIR GOLD --lang de --output metrics/de.json
    python -m scripts.evaluation.evaluate aggregate metrics/de_fold*.json \
        --output metrics/de_cv.json
"""

from __future__ import annotations

import platform
import shlex
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any

import srsly
import typer

from scripts.corpus.sources import LETTERS, by_genre, by_source, primary_source
from scripts.kernels import numeric_kernels
from spacy_deid.lang import parse_language_codes, validate_language
from spacy_deid.schema import NAME_LABELS, PERSON_LABELS
from spacy_deid.translate.alignment import doc_char_spans
from spacy_deid.translate.inline_tags import CharSpan

SCHEMAS: tuple[str, ...] = ("strict", "exact", "partial", "type")
MERGED_NAME_LABEL = "NAME"
RARE_MAX_DEFAULT = 11
REDUCED_RULE = (
    "all NAME_* labels merged into NAME; labels with <= {rare_max} examples in {counted_on} "
    "dropped from gold and predictions (MultiGraSCCo, Baroud et al. 2026)"
)

# ---------------------------------------------------------------------------
# Counting: one document, one schema
# ---------------------------------------------------------------------------


@dataclass
class Counts:
    """SemEval-2013 outcome counts for one schema; `partial` earns half credit."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0

    @property
    def possible(self) -> int:
        """Gold entities that take part in the score (recall denominator)."""
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        """Predicted entities that take part in the score (precision denominator)."""
        return self.correct + self.incorrect + self.partial + self.spurious

    def add(self, other: Counts) -> None:
        """Accumulate `other` into these counts."""
        self.correct += other.correct
        self.incorrect += other.incorrect
        self.partial += other.partial
        self.missed += other.missed
        self.spurious += other.spurious

    def as_dict(self) -> dict[str, int]:
        """The raw counts plus possible and actual, for the metrics JSON."""
        return {
            "correct": self.correct,
            "incorrect": self.incorrect,
            "partial": self.partial,
            "missed": self.missed,
            "spurious": self.spurious,
            "possible": self.possible,
            "actual": self.actual,
        }


@dataclass
class SchemaCounts:
    """Counts for all four schemas of one comparison."""

    by_schema: dict[str, Counts] = field(default_factory=lambda: {s: Counts() for s in SCHEMAS})

    def add(self, other: SchemaCounts) -> None:
        """Accumulate `other` into these counts, schema by schema."""
        for schema in SCHEMAS:
            self.by_schema[schema].add(other.by_schema[schema])


def _overlaps(a: CharSpan, b: CharSpan) -> bool:
    return a.start < b.end and b.start < a.end


def _same_boundaries(a: CharSpan, b: CharSpan) -> bool:
    return a.start == b.start and a.end == b.end


def _record(counts: SchemaCounts, strict: str, exact: str, partial: str, type_: str) -> None:
    for schema, outcome in zip(SCHEMAS, (strict, exact, partial, type_), strict=True):
        setattr(counts.by_schema[schema], outcome, getattr(counts.by_schema[schema], outcome) + 1)


def count_matches(gold: Iterable[CharSpan], pred: Iterable[CharSpan]) -> SchemaCounts:
    """Classify every predicted and gold span of one document under the four schemas.

    Follows nervaluate's scenarios: each gold span is matched at most once; a prediction
    with the same boundaries as an unmatched gold span is matched to it alone (correct,
    or a type error); otherwise it is matched to every unmatched gold span it overlaps
    (one partial/incorrect outcome per gold span, as nervaluate counts); a prediction
    that matches nothing is spurious, and every unmatched gold span is missed.
    """
    gold_spans = sorted(set(gold))
    counts = SchemaCounts()
    matched: set[CharSpan] = set()
    for p in sorted(set(pred)):
        free = [g for g in gold_spans if g not in matched and _overlaps(g, p)]
        same = [g for g in free if _same_boundaries(g, p)]
        if same:
            hit = next((g for g in same if g.label == p.label), same[0])
            matched.add(hit)
            if hit.label == p.label:
                _record(counts, "correct", "correct", "correct", "correct")
            else:
                _record(counts, "incorrect", "correct", "correct", "incorrect")
            continue
        if not free:
            _record(counts, "spurious", "spurious", "spurious", "spurious")
            continue
        for g in free:
            matched.add(g)
            type_outcome = "correct" if g.label == p.label else "incorrect"
            _record(counts, "incorrect", "incorrect", "partial", type_outcome)
    for g in gold_spans:
        if g not in matched:
            _record(counts, "missed", "missed", "missed", "missed")
    return counts


# ---------------------------------------------------------------------------
# Scores from counts
# ---------------------------------------------------------------------------


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta of a precision and a recall; 0.0 when both are 0 (beta=2 weighs recall 4x)."""
    b2 = beta * beta
    denominator = b2 * precision + recall
    return (1 + b2) * precision * recall / denominator if denominator > 0 else 0.0


def prf(counts: Counts) -> dict[str, float]:
    """Precision, recall, F1 and F2 of `counts`; a partial match counts half (0 if no data)."""
    credit = counts.correct + 0.5 * counts.partial
    precision = credit / counts.actual if counts.actual else 0.0
    recall = credit / counts.possible if counts.possible else 0.0
    return {
        "p": precision,
        "r": recall,
        "f1": f_beta(precision, recall, 1.0),
        "f2": f_beta(precision, recall, 2.0),
    }


def distribution(values: Sequence[float]) -> dict[str, float | int | None]:
    """Mean, sample sd, min, quartiles and max of `values` (None where undefined)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "min": None, "q1": None, "median": None,
                "q3": None, "max": None}
    ordered = sorted(values)
    if n >= 2:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = median = q3 = ordered[0]
    return {
        "n": n,
        "mean": statistics.fmean(ordered),
        "sd": statistics.stdev(ordered) if n >= 2 else 0.0,
        "min": ordered[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": ordered[-1],
    }


# ---------------------------------------------------------------------------
# Label sets
# ---------------------------------------------------------------------------


def merge_name_label(label: str) -> str:
    """Map every fine NAME_* label onto the paper's single NAME class; others unchanged."""
    return MERGED_NAME_LABEL if label in NAME_LABELS or label.startswith("NAME_") else label


def count_labels(docs_spans: Iterable[Iterable[CharSpan]], merge_names: bool = False) -> Counter:
    """Count gold spans per label over documents, optionally after merging the names."""
    counts: Counter = Counter()
    for spans in docs_spans:
        for span in spans:
            counts[merge_name_label(span.label) if merge_names else span.label] += 1
    return counts


def reduced_label_set(train_counts: Mapping[str, int], rare_max: int = RARE_MAX_DEFAULT,
                      ) -> tuple[list[str], list[str]]:
    """Split merged-label training counts into (kept, dropped) by the paper's rare-label rule."""
    kept = sorted(label for label, n in train_counts.items() if n > rare_max)
    dropped = sorted(label for label, n in train_counts.items() if n <= rare_max)
    return kept, dropped


def to_reduced(spans: Iterable[CharSpan], kept: Iterable[str]) -> list[CharSpan]:
    """Spans relabelled to the reduced set: names merged, labels outside `kept` removed."""
    keep = set(kept)
    merged = (CharSpan(s.start, s.end, merge_name_label(s.label)) for s in spans)
    return [s for s in merged if s.label in keep]


# ---------------------------------------------------------------------------
# Scoring a corpus
# ---------------------------------------------------------------------------


def _only(spans: Iterable[CharSpan], label: str) -> list[CharSpan]:
    return [s for s in spans if s.label == label]


def score_documents(gold_docs: Sequence[Sequence[CharSpan]],
                    pred_docs: Sequence[Sequence[CharSpan]], labels: Iterable[str] | None = None
                    ) -> dict[str, Any]:
    """All four schemas over a corpus: micro, macro, per label and per document.

    `gold_docs[i]` and `pred_docs[i]` are the spans of document i. Per-label scores
    compare the gold and predicted spans of that label only, so a type error costs the
    predicted label precision and the gold label recall. Macro averages the per-label
    scores over the labels with gold support. `labels` (default: all labels seen) fixes
    the per-label rows; spans with other labels still count in micro.
    """
    if len(gold_docs) != len(pred_docs):
        raise ValueError(
            f"{len(gold_docs)} gold documents but {len(pred_docs)} predicted documents")
    seen = {s.label for spans in (*gold_docs, *pred_docs) for s in spans}
    label_list = sorted(seen if labels is None else set(labels))
    total = SchemaCounts()
    per_label = {label: SchemaCounts() for label in label_list}
    per_doc: list[SchemaCounts] = []
    for gold, pred in zip(gold_docs, pred_docs, strict=True):
        doc_counts = count_matches(gold, pred)
        total.add(doc_counts)
        if gold or pred:
            per_doc.append(doc_counts)
        for label in label_list:
            per_label[label].add(count_matches(_only(gold, label), _only(pred, label)))
    support = count_labels(gold_docs)
    return {
        schema: _schema_scores(schema, total, per_label, per_doc, support) for schema in SCHEMAS
    }


def _schema_scores(schema: str, total: SchemaCounts, per_label: Mapping[str, SchemaCounts],
                   per_doc: Sequence[SchemaCounts], support: Mapping[str, int]) -> dict[str, Any]:
    micro = {**prf(total.by_schema[schema]), **total.by_schema[schema].as_dict()}
    labels: dict[str, Any] = {}
    for label, counts in per_label.items():
        labels[label] = {**prf(counts.by_schema[schema]), "support": support.get(label, 0),
                         **counts.by_schema[schema].as_dict()}
    supported = [row for row in labels.values() if row["support"] > 0]
    macro: dict[str, Any] = {
        key: statistics.fmean(row[key] for row in supported) if supported else 0.0
        for key in ("p", "r", "f1", "f2")
    }
    macro["n_labels"] = len(supported)
    doc_scores = [prf(counts.by_schema[schema]) for counts in per_doc]
    per_document = {key: distribution([s[key] for s in doc_scores]) for key in ("f1", "r", "f2")}
    return {"micro": micro, "macro": macro, "per_label": labels, "per_document": per_document}


def evaluate_spans(gold_docs: Sequence[Sequence[CharSpan]], pred_docs: Sequence[Sequence[CharSpan]],
                   train_docs: Sequence[Sequence[CharSpan]] | None = None,
                   rare_max: int = RARE_MAX_DEFAULT) -> dict[str, Any]:
    """Scores on the fine labels and on the paper's reduced label set.

    The rare-label rule counts merged labels in `train_docs` when given, else in the gold
    documents themselves (recorded as `counted_on`).
    """
    counted_on = "train" if train_docs is not None else "gold"
    train_counts = count_labels(train_docs if train_docs is not None else gold_docs,
                                merge_names=True)
    kept, dropped = reduced_label_set(train_counts, rare_max)
    reduced_gold = [to_reduced(spans, kept) for spans in gold_docs]
    reduced_pred = [to_reduced(spans, kept) for spans in pred_docs]
    return {
        "fine": {
            "description": "fine GraSCCo PHI labels as annotated",
            "labels": sorted({s.label for spans in (*gold_docs, *pred_docs) for s in spans}),
            "scores": score_documents(gold_docs, pred_docs),
        },
        "reduced": {
            "description": REDUCED_RULE.format(rare_max=rare_max, counted_on=counted_on),
            "rare_max": rare_max,
            "counted_on": counted_on,
            "label_counts": dict(sorted(train_counts.items())),
            "labels": kept,
            "dropped": dropped,
            "scores": score_documents(reduced_gold, reduced_pred, labels=kept),
        },
    }


# ---------------------------------------------------------------------------
# Aggregating folds
# ---------------------------------------------------------------------------

AGGREGATED_KEYS: tuple[str, ...] = ("p", "r", "f1", "f2")


def _mean_sd(values: Sequence[float]) -> dict[str, float | int]:
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) >= 2 else 0.0,
        "n": len(values),
    }


def aggregate_metrics(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Mean and sample sd over runs (e.g. cross-validation folds) of every micro, macro and
    per-label P/R/F1/F2, per label set and schema. Per-label entries average over the runs
    where the label has gold support."""
    if not runs:
        raise ValueError("aggregate_metrics needs at least one metrics file")
    result: dict[str, Any] = {}
    for label_set in ("fine", "reduced"):
        if any(label_set not in run.get("label_sets", {}) for run in runs):
            continue
        sets = [run["label_sets"][label_set] for run in runs]
        result[label_set] = {
            "description": sets[0].get("description"),
            "scores": {schema: _aggregate_schema([s["scores"][schema] for s in sets])
                       for schema in SCHEMAS},
        }
        if label_set == "reduced":
            result[label_set]["labels_by_run"] = [s.get("labels") for s in sets]
    return result


def _aggregate_schema(schema_runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        level: {key: _mean_sd([run[level][key] for run in schema_runs]) for key in AGGREGATED_KEYS}
        for level in ("micro", "macro")
    }
    labels = sorted({label for run in schema_runs for label in run["per_label"]})
    per_label: dict[str, Any] = {}
    for label in labels:
        rows = [run["per_label"][label] for run in schema_runs
                if run["per_label"].get(label, {}).get("support", 0) > 0]
        if rows:
            per_label[label] = {key: _mean_sd([row[key] for row in rows])
                                for key in AGGREGATED_KEYS}
            per_label[label]["support"] = sum(row["support"] for row in rows)
    out["per_label"] = per_label
    return out


# ---------------------------------------------------------------------------
# I/O and CLI
# ---------------------------------------------------------------------------


PROJECT_ROOT = Path(__file__).resolve().parents[2]


def command_line() -> str:
    """The command that is running, as a shell-quoted string to record in outputs: the
    workflow step as the module it runs (`python -m scripts.evaluation.evaluate ...`), without the
    machine's own path to it."""
    script = Path(sys.argv[0]).resolve()
    try:
        module = ".".join(script.relative_to(PROJECT_ROOT).with_suffix("").parts)
    except ValueError:  # not a file of this project (an interactive call, a test runner)
        module = script.stem
    return shlex.join(["python", "-m", module, *sys.argv[1:]])


# The packages whose versions can move a score (recorded in every metrics file).
VERSIONED_PACKAGES: tuple[str, ...] = (
    "spacy", "thinc", "blis", "numpy", "torch", "spacy-transformers", "transformers",
    "presidio-analyzer", "presidio-anonymizer", "faker", "mimesis")


def package_versions() -> dict[str, str | None]:
    """The installed versions of `VERSIONED_PACKAGES` (None where one is missing)."""
    from importlib.metadata import PackageNotFoundError, version

    versions: dict[str, str | None] = {}
    for name in VERSIONED_PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    return versions


def run_environment() -> dict[str, Any]:
    """What a result was computed with, for every metrics file: the package versions and
    the numeric kernels (scripts/kernels.py)."""
    return {"versions": package_versions(), "kernels": numeric_kernels()}


def current_device() -> str:
    """The device spaCy runs on now: "cpu", or the CUDA device's name after
    `spacy.require_gpu` (for the `device` field of the metrics files)."""
    from thinc.api import CupyOps, get_current_ops

    if not isinstance(get_current_ops(), CupyOps):
        return "cpu"
    import torch

    return torch.cuda.get_device_name(torch.cuda.current_device())


def select_device(gpu_id: int) -> dict[str, Any]:
    """Run spaCy on GPU `gpu_id`, or on the CPU for -1; return the device for the record
    (`device`: "cpu" or the CUDA device's name). A GPU that spaCy cannot use is a clear
    error, not a silent CPU run."""
    if gpu_id < 0:
        return {"device": "cpu"}
    import spacy

    try:
        spacy.require_gpu(gpu_id)
    except (ValueError, ImportError) as err:
        raise ValueError(f"GPU {gpu_id} is not usable by spaCy (it needs cupy and a CUDA "
                         f"build of torch): {err}") from err
    return {"device": current_device(), "gpu_id": gpu_id}


def load_pipeline(model: Path, cpu_precision: str | None = None) -> Any:
    """`spacy.load` the pipeline, with its transformer encoders' `cpu_precision` ("auto",
    "float32", "bfloat16") set where given."""
    import spacy

    if not Path(model).exists():
        raise FileNotFoundError(f"Pipeline directory not found: {model}")
    overrides = {}
    if cpu_precision is not None:
        from spacy_deid.detect.transformer_model import cpu_precision_overrides

        config = spacy.util.load_config(Path(model) / "config.cfg", interpolate=False)
        overrides = cpu_precision_overrides(config, cpu_precision)
    return spacy.load(model, config=overrides)


def transformer_precisions(nlp: Any) -> dict[str, str]:
    """The precision each transformer encoder of `nlp` runs in here (see
    `spacy_deid.detect.transformer_model.encoder_precisions`); empty for a pipeline without
    one, which needs no transformer runtime installed."""
    if not any(nlp.get_pipe_meta(name).factory == "transformer" for name in nlp.pipe_names):
        return {}
    from spacy_deid.detect.transformer_model import encoder_precisions

    return encoder_precisions(nlp)


def cpu_model() -> str:
    """A human-readable CPU name (from /proc/cpuinfo on Linux), for the record."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def timestamp() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------
# Per source and genre
# ---------------------------------------------------------------------------

CAUGHT_GROUPS: dict[str, frozenset[str]] = {"names": PERSON_LABELS, "ids": frozenset({"ID"})}


def covered(gold: CharSpan, pred: Iterable[CharSpan], text: str) -> bool:
    """Whether every non-space character of `gold` lies inside some predicted span."""
    inside = [False] * (gold.end - gold.start)
    for span in pred:
        for offset in range(max(span.start, gold.start), min(span.end, gold.end)):
            inside[offset - gold.start] = True
    return all(flag or text[gold.start + i].isspace() for i, flag in enumerate(inside))


def caught_rates(gold_docs: Sequence[Sequence[CharSpan]], pred_docs: Sequence[Sequence[CharSpan]],
                 texts: Sequence[str]) -> dict[str, dict[str, float | int]]:
    """For person names and IDs: gold spans, those fully covered by predictions of any label
    (`caught`) and those touched by one (`overlapped`)."""
    rates = {}
    for group, labels in CAUGHT_GROUPS.items():
        spans = caught = overlapped = 0
        for gold, pred, text in zip(gold_docs, pred_docs, texts, strict=True):
            for span in (g for g in gold if g.label in labels):
                spans += 1
                caught += covered(span, pred, text)
                overlapped += any(_overlaps(span, p) for p in pred)
        rates[group] = {"spans": spans, "caught": caught, "overlapped": overlapped,
                        "caught_rate": round(caught / spans, 4) if spans else None}
    return rates


def source_summary(docs: Sequence[Any], predictions: Mapping[int, Sequence[CharSpan]],
                   with_genres: bool) -> dict[str, Any]:
    """Strict and type micro scores, per-label strict F1 and the caught rates of a group of
    documents (`predictions` keyed by `id(doc)`), and the same per genre when asked."""
    gold_spans = [doc_char_spans(doc) for doc in docs]
    pred_spans = [predictions[id(doc)] for doc in docs]
    scores = score_documents(gold_spans, pred_spans)
    summary: dict[str, Any] = {
        "n_docs": len(docs),
        "n_gold_entities": sum(len(spans) for spans in gold_spans),
        "n_predicted_entities": sum(len(spans) for spans in pred_spans),
        "strict_micro": scores["strict"]["micro"],
        "type_micro": scores["type"]["micro"],
        "strict_f1_per_label": {label: row["f1"]
                                for label, row in scores["strict"]["per_label"].items()},
        "caught": caught_rates(gold_spans, pred_spans, [doc.text for doc in docs]),
    }
    if with_genres:
        summary["genres"] = {genre: source_summary(members, predictions, False)
                             for genre, members in by_genre(docs).items()}
    return summary


def read_gold_docs(path: Path, vocab: Any) -> list[Any]:
    """The Docs of a DocBin, with a clear error for a missing or unreadable file."""
    from spacy.tokens import DocBin

    if not path.is_file():
        raise FileNotFoundError(f"Gold DocBin not found: {path}")
    try:
        return list(DocBin().from_disk(path).get_docs(vocab))
    except Exception as err:  # a corrupt file surfaces as msgpack/zlib errors
        raise ValueError(f"Could not read {path} as a spaCy DocBin: {err}") from err


def predict_spans(nlp: Any, texts: Sequence[str], batch_size: int = 32) -> list[list[CharSpan]]:
    """Run the pipeline over `texts` and return each document's predicted entity spans."""
    return [doc_char_spans(doc) for doc in nlp.pipe(texts, batch_size=batch_size)]


def evaluate_pipeline(model: Path, gold_path: Path, lang: str, train_path: Path | None = None,
                      name: str | None = None, rare_max: int = RARE_MAX_DEFAULT,
                      batch_size: int = 32) -> dict[str, Any]:
    """Load the pipeline at `model`, run it over the gold texts and build the metrics record."""
    import spacy

    validate_language(lang)
    if not Path(model).exists():
        raise FileNotFoundError(f"Pipeline directory not found: {model}")
    nlp = spacy.load(model)
    all_gold = read_gold_docs(Path(gold_path), nlp.vocab)
    all_pred = dict(zip((id(doc) for doc in all_gold),
                        predict_spans(nlp, [doc.text for doc in all_gold], batch_size=batch_size),
                        strict=True))
    groups = by_source(all_gold)
    sources = {source: source_summary(docs, all_pred, source != LETTERS)
               for source, docs in groups.items()}
    primary = primary_source(groups)
    gold = groups.get(primary, [])
    gold_spans = [doc_char_spans(doc) for doc in gold]
    pred_spans = [all_pred[id(doc)] for doc in gold]
    train_spans = None
    if train_path is not None:
        train_docs = by_source(read_gold_docs(Path(train_path), nlp.vocab)).get(primary, [])
        train_spans = [doc_char_spans(doc) for doc in train_docs]
    return {
        "lang": lang,
        "name": name,
        "model": str(model),
        "gold": str(gold_path),
        "train": str(train_path) if train_path is not None else None,
        "pipeline": {"name": nlp.meta.get("name"), "version": nlp.meta.get("version"),
                     "components": list(nlp.pipe_names)},
        "command": command_line(),
        "created": timestamp(),
        **run_environment(),
        "device": current_device(),
        "source": primary,
        "n_docs": len(gold),
        "n_tokens": sum(len(doc) for doc in gold),
        "n_gold_entities": sum(len(spans) for spans in gold_spans),
        "n_predicted_entities": sum(len(spans) for spans in pred_spans),
        "sources": sources,
        "schemas": {
            "strict": "exact span and label",
            "exact": "exact span, any label",
            "partial": "overlapping span, any label; partial overlap = half credit (nervaluate)",
            "type": "overlapping span and same label (nervaluate ent_type)",
        },
        "label_sets": evaluate_spans(gold_spans, pred_spans, train_spans, rare_max),
    }


def aggregate_files(paths: Sequence[Path]) -> dict[str, Any]:
    """Read metrics JSON files (folds) and return their aggregate record."""
    runs = []
    for path in paths:
        if not Path(path).is_file():
            raise FileNotFoundError(f"Metrics file not found: {path}")
        runs.append(srsly.read_json(path))
    langs = sorted({str(run.get("lang")) for run in runs})
    return {
        "aggregate": True,
        "lang": langs[0] if len(langs) == 1 else langs,
        "name": None,
        "runs": [str(p) for p in paths],
        "n_runs": len(runs),
        "n_docs": sum(run.get("n_docs", 0) for run in runs),
        "n_tokens": sum(run.get("n_tokens", 0) for run in runs),
        "command": command_line(),
        "created": timestamp(),
        "label_sets": aggregate_metrics(runs),
    }


def write_json(data: Mapping[str, Any], output: Path) -> None:
    """Write `data` as indented JSON, creating the parent directory."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, data)


app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])


@app.command("evaluate")
def evaluate_cli(
    model: Annotated[Path, typer.Argument(help="Trained pipeline directory (spacy.load)")],
    gold: Annotated[Path, typer.Argument(help="Gold DocBin (.spacy) to score against")],
    lang: Annotated[str, typer.Option("--lang", help="Language code of the gold data")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Metrics JSON to write")],
    train: Annotated[Path | None, typer.Option(
        "--train", help="Training DocBin for the rare-label rule")] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="Name of the split/setting, e.g. doc-split")] = None,
    rare_max: Annotated[int, typer.Option(
        "--rare-max", help="Reduced set drops labels with <= this many examples"),
    ] = RARE_MAX_DEFAULT,
    batch_size: Annotated[int, typer.Option("--batch-size", help="nlp.pipe batch size")] = 32,
    gpu_id: Annotated[int, typer.Option("--gpu-id", help="GPU id, -1 for the CPU")] = -1,
) -> None:
    """Score MODEL on GOLD and write the metrics JSON."""
    try:
        select_device(gpu_id)
        metrics = evaluate_pipeline(model, gold, lang, train, name, rare_max, batch_size)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    write_json(metrics, output)
    strict = metrics["label_sets"]["fine"]["scores"]["strict"]["micro"]
    partial = metrics["label_sets"]["reduced"]["scores"]["partial"]["micro"]
    typer.echo(
        f"{lang} {name or ''}: {metrics['n_docs']} docs; fine strict micro "
        f"P={strict['p']:.3f} R={strict['r']:.3f} F1={strict['f1']:.3f}; reduced partial "
        f"micro F1={partial['f1']:.3f} -> {output}"
    )


@app.command("aggregate")
def aggregate_cli(
    metrics: Annotated[list[Path], typer.Argument(help="Metrics JSON files, one per fold/run")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Aggregate JSON to write")],
) -> None:
    """Mean and sd over several metrics files (k-fold cross-validation)."""
    try:
        result = aggregate_files(metrics)
    except (FileNotFoundError, ValueError, KeyError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    write_json(result, output)
    f1 = result["label_sets"]["fine"]["scores"]["strict"]["micro"]["f1"]
    typer.echo(f"{result['n_runs']} runs: fine strict micro F1 {f1['mean']:.3f} "
               f"± {f1['sd']:.3f} -> {output}")


@app.command("languages")
def languages_cli(
    training: Annotated[Path, typer.Argument(help="Folder with <lang>/<pipeline>")],
    splits: Annotated[Path, typer.Argument(help="Folder with <lang>/{train,test}.spacy")],
    metrics_dir: Annotated[Path, typer.Argument(help="Where to write <lang>.json")],
    langs: Annotated[str, typer.Option("--langs", help="Space-separated language codes")],
    pipeline: Annotated[str, typer.Option("--pipeline", help="Pipeline folder name")
                        ] = "pipeline",
    name: Annotated[str, typer.Option("--name", help="Name of the split/setting")
                    ] = "doc-split",
    suffix: Annotated[str, typer.Option("--suffix", help="Appended to <lang> in file names")
                      ] = "",
    gpu_id: Annotated[int, typer.Option("--gpu-id", help="GPU id, -1 for the CPU")] = -1,
) -> None:
    """Score every language's pipeline on its own test split; write a summary `scores.json`."""
    try:
        device = select_device(gpu_id)
    except ValueError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    summary = {}
    for lang in parse_language_codes(langs):
        output = metrics_dir / f"{lang}{suffix}.json"
        metrics = evaluate_pipeline(training / lang / pipeline, splits / lang / "test.spacy",
                                    lang, splits / lang / "train.spacy", name)
        write_json(metrics, output)
        fine = metrics["label_sets"]["fine"]["scores"]["strict"]["micro"]
        reduced = metrics["label_sets"]["reduced"]["scores"]["partial"]["micro"]
        summary[lang] = {"strict_micro": fine, "relaxed_micro_reduced": reduced,
                         "sources": {source: {"strict_micro": row["strict_micro"],
                                              "caught": row["caught"]}
                                     for source, row in metrics["sources"].items()},
                         "file": str(output)}
        typer.echo(f"{lang}: fine strict micro P={fine['p']:.3f} R={fine['r']:.3f} "
                   f"F1={fine['f1']:.3f}; reduced partial micro F1={reduced['f1']:.3f}")
        for source, row in metrics["sources"].items():
            caught = ", ".join(f"{group} caught {rates['caught_rate']}"
                               for group, rates in row["caught"].items())
            typer.echo(f"    {source}: {row['n_docs']} docs, strict micro "
                       f"F1={row['strict_micro']['f1']:.3f}; {caught}")
    write_json({"command": command_line(), "created": timestamp(), **device,
                **run_environment(), "languages": summary},
               metrics_dir / f"scores{suffix}.json")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: `aggregate ...` runs the aggregation, anything else scores a pipeline."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in {"evaluate", "aggregate", "languages", "--help"}:
        args = ["evaluate", *args]
    app(args=args, prog_name="evaluate.py")


if __name__ == "__main__":
    main()
