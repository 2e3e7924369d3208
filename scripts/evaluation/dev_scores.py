"""Dev-split scores of a trained NER model (or any pipeline), summed over languages per
source: strict micro precision, recall and F1, and the person names and IDs caught.

Used to choose between model variants on dev before anything is scored on test:
`python -m scripts.evaluation.dev_scores training/xx/model-best`. With `--text-case lower`
(or `upper`) every document is scored with its whole text in that case, the annotations
kept: how a model does on notes written without capitals, or in capitals only.
"""

from __future__ import annotations

from pathlib import Path

import typer
from spacy.language import Language
from spacy.tokens import Doc, Span

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
TEXT_CASES = ("lower", "upper")


def with_text_case(doc: Doc, text_case: str) -> Doc:
    """A copy of an annotated document with every token in `text_case` ("lower" or
    "upper"), the same tokens annotated and the same `user_data`."""
    if text_case not in TEXT_CASES:
        raise ValueError(f"text case must be one of {', '.join(TEXT_CASES)}, not {text_case!r}")
    words = [getattr(token.text, text_case)() for token in doc]
    copy = Doc(doc.vocab, words=words, spaces=[bool(token.whitespace_) for token in doc])
    copy.ents = [Span(copy, ent.start, ent.end, label=ent.label_) for ent in doc.ents]
    copy.user_data.update(doc.user_data)
    return copy


def validate_text_case(value: str | None) -> str | None:
    """A command-line `--text-case` value, checked: None, "lower" or "upper"."""
    if value is not None and value not in TEXT_CASES:
        raise typer.BadParameter(f"--text-case must be one of {', '.join(TEXT_CASES)}")
    return value


def scores_by_source(nlp: Language, splits: Path, langs: list[str], split: str = "dev",
                     text_case: str | None = None) -> dict:
    """Per source: strict micro scores and caught counts of `nlp` over every language's
    `split` (every text in `text_case` where given)."""
    gold: dict[str, list] = {}
    predicted: dict[str, list] = {}
    texts: dict[str, list] = {}
    for lang in langs:
        docs = read_gold_docs(splits / lang / f"{split}.spacy", nlp.vocab)
        if text_case is not None:
            docs = [with_text_case(doc, text_case) for doc in docs]
        predictions = dict(zip((id(doc) for doc in docs),
                               predict_spans(nlp, [doc.text for doc in docs]), strict=True))
        for source, members in by_source(docs).items():
            gold.setdefault(source, []).extend(doc_char_spans(doc) for doc in members)
            predicted.setdefault(source, []).extend(predictions[id(doc)] for doc in members)
            texts.setdefault(source, []).extend(doc.text for doc in members)
    return {source: {"n_docs": len(gold[source]),
                     "strict_micro": score_documents(gold[source],
                                                     predicted[source])["strict"]["micro"],
                     "caught": caught_rates(gold[source], predicted[source], texts[source])}
            for source in gold}


def dev_scores(model: Path, splits: Path, langs: list[str], split: str = "dev",
               text_case: str | None = None) -> dict:
    """The scores of `scores_by_source` for the model or pipeline at `model`."""
    import spacy

    scores = scores_by_source(spacy.load(model), splits, langs, split, text_case)
    return {"model": str(model), "split": split, "text_case": text_case, "langs": langs,
            "sources": scores}


def main(
    model: Path = typer.Argument(..., help="Trained model or pipeline folder"),
    splits: Path = typer.Option(Path("corpus/splits"), help="Folder with <lang>/<split>.spacy"),
    langs: str = typer.Option(LANGS, help="Comma-separated language codes"),
    split: str = typer.Option("dev", help="Which split to score"),
    text_case: str | None = typer.Option(None, callback=validate_text_case,
                                  help="Score every text in this case: lower or upper"),
    output: Path = typer.Option(None, help="Also write the scores as JSON here"),
) -> None:
    """Print one line per source: strict P/R/F1, names and IDs caught."""
    result = dev_scores(model, splits, [lang for lang in langs.split(",") if lang], split,
                        text_case)
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
