"""Measure what each rule component adds, per source, on the dev split.

For every language, the pipeline is assembled as `scripts.pipelines.assemble` does, except
that the rule components learn from the training split alone (`deid_id_cues` from every
language's), so that the dev split is unseen by every part of it. The dev documents are then
run with every rule component on, with each one switched off in turn, and with all of them
off (the NER alone); each variant is scored per source (letters, multi-genre documents):
strict micro precision, recall and F1, and the share of person names and IDs fully caught.
A rule earns its place when switching it off costs recall or caught names and IDs on both
sources without a larger loss of precision.

Usage::

    python -m scripts.evaluation.ablate_rules training corpus/splits metrics/rule_ablation.json \
        --langs de,en --multilingual-model training/xx/model-best

With `--ner-model training_trf/xx/model-best --gpu-id 0` the one transformer NER is the NER of
every language, as in the `_trf` pipelines: which rules still add recall on top of it.

With `--text-case lower` (or `upper`) every dev document is scored with its whole text in that
case, the annotations kept: what each component does for notes written without capitals, or in
capitals only (`deid_recase` acts on those alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import srsly
import typer
from spacy.language import Language

from scripts.corpus.sources import by_source
from scripts.evaluation.dev_scores import validate_text_case, with_text_case
from scripts.evaluation.evaluate import (
    caught_rates,
    command_line,
    read_gold_docs,
    run_environment,
    score_documents,
    select_device,
    timestamp,
)
from scripts.pipelines.assemble import assemble_pipeline, id_cue_learning_paths, ner_model_dir
from spacy_deid.lang import parse_language_codes
from spacy_deid.translate.alignment import doc_char_spans

RULES: tuple[str, ...] = ("deid_recase", "deid_entity_bounds", "deid_date_shapes", "deid_name_cues",
                          "deid_name_forms", "deid_name_extent", "deid_id_cues",
                          "deid_mention_propagation", "deid_user_names", "deid_presidio_patterns")
NOT_DETECTORS: tuple[str, ...] = ("deid_anonymizer",)


def variants(nlp: Language) -> dict[str, list[str]]:
    """Variant name -> the components switched off: none, each rule alone, all rules."""
    rules = [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory in RULES]
    return {"all": [], **{f"without {name}": [name] for name in rules}, "ner only": rules}


def score_variant(nlp: Language, docs: Sequence[Any], disable: Sequence[str]) -> dict[str, Any]:
    """Strict micro scores and caught rates of `nlp` with `disable` off, per source."""
    off = [*disable, *(name for name in nlp.pipe_names if name in NOT_DETECTORS)]
    with nlp.select_pipes(disable=off):
        predicted = {id(doc): doc_char_spans(out)
                     for doc, out in zip(docs, nlp.pipe(doc.text for doc in docs), strict=True)}
    scores = {}
    for source, members in by_source(docs).items():
        gold = [doc_char_spans(doc) for doc in members]
        pred = [predicted[id(doc)] for doc in members]
        caught = caught_rates(gold, pred, [doc.text for doc in members])
        scores[source] = {"n_docs": len(members),
                          "strict_micro": score_documents(gold, pred)["strict"]["micro"],
                          "names_caught": caught["names"]["caught_rate"],
                          "ids_caught": caught["ids"]["caught_rate"]}
    return scores


def ablate_language(training_dir: Path, splits_dir: Path, lang: str,
                    multilingual_model: Path | None, ner_model: Path | None = None,
                    text_case: str | None = None) -> dict[str, Any]:
    """Every variant of `lang`'s pipeline (rules learned from train only) on its dev split
    (every text in `text_case` where given); its NER is `ner_model` where given, else
    `<training_dir>/<lang>/model-best`."""
    model_dir = ner_model_dir(training_dir, lang, ner_model)
    if not model_dir.exists():
        raise FileNotFoundError(f"no trained pipeline at {model_dir}")
    train, dev = splits_dir / lang / "train.spacy", splits_dir / lang / "dev.spacy"
    id_train = id_cue_learning_paths(splits_dir, lang)[:1]  # its training split, no dev
    nlp = assemble_pipeline(model_dir, lang, [train], multilingual_model,
                            id_gold_paths=id_train)
    docs = read_gold_docs(dev, nlp.vocab)
    if text_case is not None:
        docs = [with_text_case(doc, text_case) for doc in docs]
    return {name: score_variant(nlp, docs, off) for name, off in variants(nlp).items()}


def report(lang: str, variants_scores: dict[str, Any]) -> None:
    """Print each variant's strict recall and F1 per source."""
    for variant, sources in variants_scores.items():
        parts = [f"{source} R={row['strict_micro']['r']:.3f} "
                 f"F1={row['strict_micro']['f1']:.3f}" for source, row in sources.items()]
        typer.echo(f"{lang} {variant}: {'; '.join(parts)}")


def main(
    training_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/model-best")],
    splits_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/train.spacy, dev.spacy")],
    output: Annotated[Path, typer.Argument(help="JSON output, e.g. metrics/rule_ablation.json")],
    langs: Annotated[str, typer.Option(help="Space- or comma-separated language codes")],
    multilingual_model: Annotated[Path | None, typer.Option(
        help="The multilingual NER (e.g. training/xx/model-best), run second")] = None,
    ner_model: Annotated[Path | None, typer.Option(
        help="One trained pipeline as every language's NER (e.g. training_trf/xx/model-best) "
             "instead of <training_dir>/<lang>/model-best")] = None,
    gpu_id: Annotated[int, typer.Option(help="GPU id, -1 for the CPU")] = -1,
    text_case: Annotated[str | None, typer.Option(
        callback=validate_text_case,
        help="Score every dev text in this case: lower or upper")] = None,
) -> None:
    """Write the dev-split scores of every rule-component variant for every language."""
    try:
        device = select_device(gpu_id)
        results = {}
        for lang in parse_language_codes(langs):
            results[lang] = ablate_language(training_dir, splits_dir, lang, multilingual_model,
                                            ner_model, text_case)
            report(lang, results[lang])
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, {"command": command_line(), "created": timestamp(),
                              "split": "dev", "text_case": text_case,
                              "rules_learned_from": "train", **device,
                              **run_environment(), "languages": results})


if __name__ == "__main__":
    typer.run(main)
