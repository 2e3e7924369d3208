"""Tests for the training configs in `configs/`, plus the small helpers they share:
tiny annotated DocBins made on the fly and a short `spacy train` run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import spacy
from spacy.cli.train import train
from spacy.language import Language
from spacy.tokens import DocBin

from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "configs"


def blank_deid(lang: str) -> Language:
    """A blank `xx` pipeline with the project tokenizer for `lang`, as the configs build it."""
    tokenizer = {"@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}
    return spacy.blank("xx", config={"nlp": {"tokenizer": tokenizer}})


def write_docbin(path: Path, lang: str, tagged_texts: Sequence[str]) -> Path:
    """Write inline-tagged texts as an annotated DocBin, failing if a span does not align."""
    nlp = blank_deid(lang)
    docbin = DocBin()
    for number, tagged in enumerate(tagged_texts):
        text, spans = parse_inline_tags(tagged, f"text {number}")
        doc, report = make_doc(nlp.tokenizer, text, spans, f"text {number}")
        assert len(doc.ents) == len(spans), report
        docbin.add(doc)
    docbin.to_disk(path)
    return path


def train_briefly(config: Path, workdir: Path, lang: str, tagged_texts: Sequence[str],
                  steps: int, overrides: dict[str, Any] | None = None) -> Path:
    """Train `config` on CPU for `steps` updates on the texts (used as train and dev set);
    return the `model-last` directory."""
    data = write_docbin(workdir / "train.spacy", lang, tagged_texts)
    settings = {
        "paths.train": str(data),
        "paths.dev": str(data),
        "nlp.tokenizer.lang": lang,
        "training.max_steps": steps,
        "training.eval_frequency": steps,
        **(overrides or {}),
    }
    output = workdir / "output"
    train(config, output, use_gpu=-1, overrides=settings)
    return output / "model-last"
