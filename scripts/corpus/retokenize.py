"""Give a trained pipeline another language's tokenizer (for the multilingual NER).

The multilingual model is trained on every language's documents, each tokenized by its
own language's rules; shipping it for language L means loading its weights with the
tokenizer of L (`spacy_deid.Tokenizer.v1`, `lang = L`).
"""

from __future__ import annotations

from pathlib import Path

import spacy
import typer
from spacy.language import Language

from spacy_deid.lang import parse_language_codes, validate_language


def with_language_tokenizer(model_dir: Path, lang: str) -> Language:
    """Load `model_dir` with a fresh tokenizer for `lang` instead of the saved one."""
    validate_language(lang)
    return spacy.load(model_dir, exclude=["tokenizer"],
                      config={"nlp": {"tokenizer": {"lang": lang}}})


def main(
    model_dir: Path = typer.Argument(..., help="Trained pipeline"),
    output_dir: Path = typer.Argument(..., help="Where to write <lang>/model-best"),
    langs: str = typer.Option(..., help="Languages whose tokenizer the pipeline gets"),
) -> None:
    """Write `<output_dir>/<lang>/model-best`: the pipeline with each language's tokenizer."""
    for lang in parse_language_codes(langs):
        (output_dir / lang).mkdir(parents=True, exist_ok=True)
        with_language_tokenizer(model_dir, lang).to_disk(output_dir / lang / "model-best")


if __name__ == "__main__":
    typer.run(main)
