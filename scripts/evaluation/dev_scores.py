"""Dev-split scores of a trained NER model (or any pipeline), summed over languages per
source: strict micro precision, recall and F1, and the person names and IDs caught.

Used to choose between model variants on dev before anything is scored on test:
`python -m scripts.evaluation.dev_scores training/xx/model-best`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from scripts.corpus.sources import by_source
from scripts.evaluation.evaluate import (
    CAUGHT_GROUPS,
    caught_rates,
    predict_spans,
    read_gold_docs,
    score_documents,
    write_json,
)
from spacy_deid.translate.alignment import doc_char_spans

LANGS = "de,en,fr,it,pl,ru,uk,tr,ar,fa"


def dev_scores(model: Path, splits: Path, langs: list[str], split: str = "dev") -> dict:
    """Per source: strict micro scores and caught counts over every language's `split`."""
    import spacy

    nlp = spacy.load(model)
    gold: dict[str, list] = {}
    predicted: dict[str, list] = {}
    texts: dict[str, list] = {}
    for lang in langs:
        docs = read_gold_docs(splits / lang / f"{split}.spacy", nlp.vocab)
        predictions = dict(zip((id(doc) for doc in docs),
                               predict_spans(nlp, [doc.text for doc in docs]), strict=True))
        for source, members in by_source(docs).items():
            gold.setdefault(source, []).extend(doc_char_spans(doc) for doc in members)
            predicted.setdefault(source, []).extend(predictions[id(doc)] for doc in members)
            texts.setdefault(source, []).extend(doc.text for doc in members)
    scores = {source: {"n_docs": len(gold[source]),
                       "strict_micro": score_documents(gold[source],
                                                       predicted[source])["strict"]["micro"],
                       "caught": caught_rates(gold[source], predicted[source], texts[source])}
              for source in gold}
    return {"model": str(model), "split": split, "langs": langs, "sources": scores}


def main(
    model: Path = typer.Argument(..., help="Trained model or pipeline folder"),
    splits: Path = typer.Option(Path("corpus/splits"), help="Folder with <lang>/<split>.spacy"),
    langs: str = typer.Option(LANGS, help="Comma-separated language codes"),
    split: str = typer.Option("dev", help="Which split to score"),
    output: Path = typer.Option(None, help="Also write the scores as JSON here"),
) -> None:
    """Print one line per source: strict P/R/F1, names and IDs caught."""
    result = dev_scores(model, splits, [lang for lang in langs.split(",") if lang], split)
    for source, row in result["sources"].items():
        strict = row["strict_micro"]
        caught = "  ".join(f"{group} {row['caught'][group]['caught']}/"
                           f"{row['caught'][group]['spans']}" for group in CAUGHT_GROUPS)
        typer.echo(f"{source}: strict P {strict['p']:.3f} R {strict['r']:.3f} "
                   f"F1 {strict['f1']:.3f}  {caught}")
    if output is not None:
        write_json(result, output)


if __name__ == "__main__":
    typer.run(main)
