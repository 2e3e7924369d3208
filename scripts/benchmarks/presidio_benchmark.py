"""Measure what the Presidio integration adds and costs, for one language's test split.

Scores (strict and relaxed, micro, on the fine labels, with
`scripts.evaluation.evaluate.score_documents`;
"relaxed" is its `partial` schema, nervaluate's partial overlap as in MultiGraSCCo):

- (a) ``ner``: the pipeline without its `deid_presidio_patterns` component;
- (b) ``presidio``: the Presidio recognizers alone (the component on a tokenized Doc);
- (c) ``merged``: the pipeline with the component, under its merge policy.

Each is given over all labels and over the labels patterns can produce.
If the pipeline has no `deid_presidio_patterns` component, one with the default
config is added after the last component for (b) and (c), and the JSON says so.

Throughput, measured in one run on the same texts, alternating the two paths
`--repeats` times and taking medians: the pipeline called directly (`nlp.pipe`, all
its components) versus Presidio (`AnalyzerEngine` built on the same pipeline by
`build_analyzer`, then `AnonymizerEngine` with the surrogate operator), as a ratio.
`--repeats 0` skips the timing (``"throughput": null``): the cost of going through
Presidio does not depend on the language, so the workflow times it for three languages
and scores the others only.

Usage::

    python scripts/benchmarks/presidio_benchmark.py training/pl/model-best corpus/pl/test.spacy \
        --lang pl --output metrics/presidio_pl.json
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import spacy
import srsly
import typer
from spacy.language import Language

from scripts.evaluation.evaluate import command_line, read_gold_docs, score_documents, timestamp
from spacy_deid.lang import validate_language
from spacy_deid.presidio.analyzer import NON_DETECTOR_FACTORIES, build_analyzer
from spacy_deid.presidio.operator import anonymizer_engine, surrogate_operators
from spacy_deid.presidio.patterns import PATTERN_LABELS, PresidioPatterns
from spacy_deid.translate.alignment import doc_char_spans
from spacy_deid.translate.inline_tags import CharSpan

PATTERN_FACTORY = "deid_presidio_patterns"


def pipes_by_factory(nlp: Language, factories: Sequence[str] | frozenset[str]) -> list[str]:
    """Names of the components of `nlp` made by one of `factories`."""
    return [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory in factories]


def ensure_pattern_component(nlp: Language, lang: str) -> tuple[str, bool]:
    """The name of the pipeline's pattern component, adding one if missing (name, added)."""
    existing = pipes_by_factory(nlp, (PATTERN_FACTORY,))
    if existing:
        return existing[0], False
    detectors_end = pipes_by_factory(nlp, NON_DETECTOR_FACTORIES)
    position = {"before": detectors_end[0]} if detectors_end else {}
    nlp.add_pipe(PATTERN_FACTORY, config={"lang": lang}, **position)
    return PATTERN_FACTORY, True


def predict(nlp: Language, texts: Sequence[str], disable: Sequence[str]) -> list[list[CharSpan]]:
    """Entity spans of `nlp` over `texts` with the components in `disable` switched off."""
    with nlp.select_pipes(disable=list(disable)):
        return [doc_char_spans(doc) for doc in nlp.pipe(texts)]


def predict_patterns_only(nlp: Language, component: PresidioPatterns,
                          texts: Sequence[str]) -> list[list[CharSpan]]:
    """The Presidio recognizers' spans alone, on the pipeline's tokenization."""
    return [[CharSpan(s.start_char, s.end_char, s.label_) for s in component.spans(nlp.make_doc(t))]
            for t in texts]


def only_labels(docs: Sequence[Sequence[CharSpan]], labels: Sequence[str]
                ) -> list[list[CharSpan]]:
    """Keep the spans whose label is in `labels`."""
    keep = set(labels)
    return [[s for s in spans if s.label in keep] for spans in docs]


def summary(gold: Sequence[Sequence[CharSpan]], pred: Sequence[Sequence[CharSpan]]
            ) -> dict[str, Any]:
    """Strict and relaxed micro P/R/F1/F2 with counts, and strict F1 per label."""
    scores = score_documents(gold, pred)
    out: dict[str, Any] = {}
    for name, schema in (("strict", "strict"), ("relaxed", "partial")):
        micro = scores[schema]["micro"]
        out[name] = {key: round(micro[key], 4) for key in ("p", "r", "f1", "f2")}
        out[name].update({key: micro[key] for key in micro if key not in ("p", "r", "f1", "f2")})
    out["strict_f1_per_label"] = {
        label: round(row["f1"], 4) for label, row in scores["strict"]["per_label"].items()
        if row["support"] > 0
    }
    return out


def score_variants(gold: Sequence[Sequence[CharSpan]],
                   variants: dict[str, list[list[CharSpan]]]) -> dict[str, Any]:
    """`summary` of each variant, over all labels and over the pattern labels."""
    pattern_gold = only_labels(gold, PATTERN_LABELS)
    return {
        name: {"all_labels": summary(gold, pred),
               "pattern_labels": summary(pattern_gold, only_labels(pred, PATTERN_LABELS))}
        for name, pred in variants.items()
    }


def time_once(run: Callable[[], object]) -> float:
    """Seconds that one call of `run` takes."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure_throughput(nlp: Language, model: Path, lang: str, texts: Sequence[str],
                       repeats: int) -> dict[str, Any]:
    """Direct pipeline vs AnalyzerEngine + AnonymizerEngine, alternating, medians."""
    analyzer = build_analyzer(lang, model)
    anonymizer = anonymizer_engine()

    def direct() -> None:
        for _ in nlp.pipe(texts):
            pass

    def presidio() -> None:
        for text in texts:
            results = analyzer.analyze(text, language=lang)
            anonymizer.anonymize(text=text, analyzer_results=results,
                                 operators=surrogate_operators(text, lang))

    direct()  # warm-up of both paths, not timed
    presidio()
    direct_times, presidio_times = [], []
    for _ in range(repeats):
        direct_times.append(time_once(direct))
        presidio_times.append(time_once(presidio))
    chars = sum(len(t) for t in texts)
    direct_s, presidio_s = statistics.median(direct_times), statistics.median(presidio_times)
    return {
        "texts": len(texts), "characters": chars, "repeats": repeats,
        "direct": {"seconds_median": round(direct_s, 4), "chars_per_s": round(chars / direct_s),
                   "what": f"nlp.pipe with components {nlp.pipe_names}"},
        "presidio": {"seconds_median": round(presidio_s, 4),
                     "chars_per_s": round(chars / presidio_s),
                     "what": "build_analyzer(lang, model).analyze + AnonymizerEngine with the "
                             "deid_surrogate operator, one text at a time"},
        "presidio_over_direct_time_ratio": round(presidio_s / direct_s, 3),
    }


def timed_paths(nlp: Language, model: Path, lang: str, texts: Sequence[str], repeats: int,
                pattern_component_added: bool) -> dict[str, Any]:
    """`measure_throughput` on the non-empty texts, with Presidio loading the pipeline as
    `nlp` is (saved to a temporary folder when the benchmark added the pattern component)."""
    non_empty = [t for t in texts if t.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        analyzer_model = model
        if pattern_component_added:
            analyzer_model = Path(tmp) / "pipeline"
            nlp.to_disk(analyzer_model)
        return measure_throughput(nlp, analyzer_model, lang, non_empty, repeats)


def run_benchmark(model: Path, gold_path: Path, lang: str, repeats: int = 3,
                  limit: int | None = None) -> dict[str, Any]:
    """All scores and the throughput comparison, as a JSON-able dict."""
    validate_language(lang)
    if not model.is_dir():
        raise FileNotFoundError(f"Pipeline directory not found: {model}")
    nlp = spacy.load(model)
    gold_docs = read_gold_docs(gold_path, nlp.vocab)[:limit]
    texts = [doc.text for doc in gold_docs]
    gold = [doc_char_spans(doc) for doc in gold_docs]
    name, added = ensure_pattern_component(nlp, lang)
    outputs = pipes_by_factory(nlp, NON_DETECTOR_FACTORIES)
    variants = {
        "ner": predict(nlp, texts, [name, *outputs]),
        "presidio": predict_patterns_only(nlp, nlp.get_pipe(name), texts),
        "merged": predict(nlp, texts, outputs),
    }
    component: PresidioPatterns = nlp.get_pipe(name)
    throughput = timed_paths(nlp, model, lang, texts, repeats, added) if repeats else None
    return {
        "lang": lang, "model": str(model), "gold": str(gold_path), "documents": len(texts),
        "pipeline": nlp.pipe_names,
        "pattern_component": {"name": name, "added_by_benchmark": added,
                              "merge_policy": component.merge_policy,
                              "score_threshold": component.score_threshold},
        "scorer": "scripts.evaluation.evaluate.score_documents (relaxed = partial schema)",
        "scores": score_variants(gold, variants),
        "throughput": throughput,
        "command": command_line(),
        "timestamp": timestamp(),
    }


app = typer.Typer(add_completion=False)


@app.command()
def main(
    model: Annotated[Path, typer.Argument(help="Trained pipeline directory")],
    gold: Annotated[Path, typer.Argument(help="Gold test DocBin (.spacy)")],
    lang: Annotated[str, typer.Option(help="Language code of the pipeline")],
    output: Annotated[Path, typer.Option(help="JSON output, e.g. metrics/presidio_pl.json")],
    repeats: Annotated[int, typer.Option(
        min=0, help="Timed rounds per path; 0 = scores only, no timing")] = 3,
    limit: Annotated[int | None, typer.Option(min=1, help="Use the first N documents")] = None,
) -> None:
    """Score NER, Presidio recognizers and both merged; time pipeline vs Presidio."""
    try:
        result = run_benchmark(model, gold, lang, repeats, limit)
    except (FileNotFoundError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from error
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, result)
    for variant, scores in result["scores"].items():
        strict, relaxed = scores["all_labels"]["strict"], scores["all_labels"]["relaxed"]
        typer.echo(f"{variant:9s} strict F1 {strict['f1']:.3f}  relaxed F1 {relaxed['f1']:.3f}")
    ratio = (result["throughput"] or {}).get("presidio_over_direct_time_ratio", "not timed")
    typer.echo(f"Presidio / direct time: {ratio}  -> {output}")


if __name__ == "__main__":
    app()
