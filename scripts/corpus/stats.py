"""Print documents, sentences, tokens and spans per label for every language and split."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer

from scripts.corpus.split import SPLITS, load_docs


def main(splits_dir: Path = typer.Argument(..., help="Folder with <lang>/{train,dev,test}.spacy")
         ) -> None:
    """Print one block per language: a line per split and the span counts per label."""
    for lang_dir in sorted(path for path in splits_dir.iterdir() if path.is_dir()):
        typer.echo(f"== {lang_dir.name}")
        for split in SPLITS:
            path = lang_dir / f"{split}.spacy"
            if not path.exists():
                continue
            docs = load_docs(path)
            labels = Counter(ent.label_ for doc in docs for ent in doc.ents)
            documents = len({doc.user_data.get("doc_id") for doc in docs})
            sentences = sum(1 for doc in docs for _ in doc.sents)
            tokens = sum(len(doc) for doc in docs)
            typer.echo(f"  {split:5} documents {documents:3}  sentences {sentences:5}  "
                       f"tokens {tokens:6}  spans {sum(labels.values()):5}")
            typer.echo("        " + ", ".join(f"{label} {n}" for label, n in labels.most_common()))


if __name__ == "__main__":
    typer.run(main)
