"""How the shipped pipelines do on texts written in lower case only, or in capitals only.

Notes typed in a hurry are often in lower case, and some hospital systems export in
capitals. Every language's test split is scored with its pipeline
(`<training>/<lang>/pipeline`) three times: as written, with every text in lower case, and
in capitals, the annotations kept (`dev_scores.with_text_case`). Per source: strict micro
precision, recall and F1, and the person names and IDs caught → `metrics/text_case.json`.

    python -m scripts.evaluation.text_case training corpus/splits metrics/text_case.json \
        --langs de,en
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from scripts.evaluation.dev_scores import TEXT_CASES, scores_by_source
from scripts.evaluation.evaluate import command_line, run_environment, timestamp, write_json
from spacy_deid.lang import parse_language_codes

AS_WRITTEN = "as written"


def text_case_scores(pipeline: Path, splits_dir: Path, lang: str) -> dict[str, Any]:
    """The test-split scores of one pipeline per source, as written and in each case (the
    pipeline loaded once)."""
    import spacy

    nlp = spacy.load(pipeline)
    return {case or AS_WRITTEN: scores_by_source(nlp, splits_dir, [lang], "test", case)
            for case in (None, *TEXT_CASES)}


def main(
    training_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/pipeline")],
    splits_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/test.spacy")],
    output: Annotated[Path, typer.Argument(help="JSON output, e.g. metrics/text_case.json")],
    langs: Annotated[str, typer.Option(help="Space- or comma-separated language codes")],
) -> None:
    """Write every language's test-split scores as written, in lower case and in capitals."""
    results = {}
    for lang in parse_language_codes(langs):
        pipeline = training_dir / lang / "pipeline"
        if not pipeline.is_dir():
            raise typer.BadParameter(f"no pipeline at {pipeline} (run `spacy project run "
                                     "assemble` first)")
        results[lang] = text_case_scores(pipeline, splits_dir, lang)
        for case, sources in results[lang].items():
            line = "; ".join(f"{source} F1 {row['strict_micro']['f1']:.3f} names "
                             f"{row['caught']['names']['caught']}/{row['caught']['names']['spans']}"
                             for source, row in sources.items())
            typer.echo(f"{lang} {case}: {line}")
    write_json({"command": command_line(), "created": timestamp(),
                **run_environment(), "split": "test", "langs": results}, output)


if __name__ == "__main__":
    typer.run(main)
