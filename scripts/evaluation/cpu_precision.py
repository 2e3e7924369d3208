"""The transformer pipelines on a CPU in float32 and in bfloat16: how many test documents
get the same entities, and the strict micro scores of each against the gold spans.

bfloat16 (`cpu_precision` of `spacy_deid.TransformerModel.v1`) rounds the encoder's matrix
products; this measures what that rounding changes in the output, per language, on the
test split, with each language's assembled pipeline (`<training dir>/<lang>/pipeline`).
Writes one JSON file with an entry per language, the CPU and the versions.

Usage::

    python -m scripts.evaluation.cpu_precision training_trf corpus/splits --langs de,pl,ar \
        --output metrics/cpu_precision_trf.json
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from scripts.evaluation.evaluate import (
    command_line,
    cpu_model,
    load_pipeline,
    predict_spans,
    read_gold_docs,
    run_environment,
    score_documents,
    timestamp,
    write_json,
)
from spacy_deid.detect.transformer_model import ARCHITECTURE, encoder_precisions
from spacy_deid.lang import parse_language_codes
from spacy_deid.translate.alignment import doc_char_spans
from spacy_deid.translate.inline_tags import CharSpan

PRECISIONS = ("float32", "bfloat16")


def compare_predictions(gold: Sequence[Sequence[CharSpan]],
                        by_precision: dict[str, list[list[CharSpan]]]) -> dict[str, Any]:
    """Documents with identical entities in both precisions, entities found by only one,
    and each precision's strict micro scores."""
    first, second = (by_precision[name] for name in PRECISIONS)
    same = sum(set(a) == set(b) for a, b in zip(first, second, strict=True))
    only_one = sum(len(set(a) ^ set(b)) for a, b in zip(first, second, strict=True))
    return {
        "n_docs": len(gold),
        "docs_with_the_same_entities": same,
        "entities_in_one_precision_only": only_one,
        "entities": {name: sum(map(len, spans)) for name, spans in by_precision.items()},
        "strict_micro": {
            name: score_documents(gold, spans)["strict"]["micro"]
            for name, spans in by_precision.items()
        },
    }


def compare_language(model: Path, test_path: Path) -> dict[str, Any]:
    """Run the pipeline at `model` over a test DocBin in both precisions and compare."""
    first = load_pipeline(model, PRECISIONS[0])
    if not encoder_precisions(first):
        raise ValueError(f"{model} has no {ARCHITECTURE} encoder to run in "
                         f"{' or '.join(PRECISIONS)}")
    pipelines = {PRECISIONS[0]: first,
                 **{name: load_pipeline(model, name) for name in PRECISIONS[1:]}}
    docs = read_gold_docs(test_path, first.vocab)
    texts = [doc.text for doc in docs]
    gold = [doc_char_spans(doc) for doc in docs]
    predictions = {name: predict_spans(nlp, texts) for name, nlp in pipelines.items()}
    return {"model": str(model), "data": str(test_path), **compare_predictions(gold, predictions)}


app = typer.Typer(add_completion=False)


@app.command()
def main(
    training_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/pipeline")],
    splits_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/test.spacy")],
    langs: Annotated[str, typer.Option(help="Space- or comma-separated language codes")],
    output: Annotated[Path, typer.Option(help="JSON file to write")
                      ] = Path("metrics/cpu_precision_trf.json"),
) -> None:
    """Compare each language's pipeline's entities in float32 and bfloat16 on a CPU."""
    try:
        results = {lang: compare_language(training_dir / lang / "pipeline",
                                          splits_dir / lang / "test.spacy")
                   for lang in parse_language_codes(langs)}
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    write_json({"device": "cpu", "cpu": cpu_model(),
                "languages": results, **run_environment(),
                "command": command_line(), "created": timestamp()}, output)
    for lang, result in results.items():
        f1 = {name: round(row["f1"], 3) for name, row in result["strict_micro"].items()}
        typer.echo(f"{lang}: {result['docs_with_the_same_entities']} of {result['n_docs']} "
                   f"documents with the same entities; strict F1 {f1}")


if __name__ == "__main__":
    app()
