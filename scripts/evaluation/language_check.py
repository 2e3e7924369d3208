"""How well the language check tells the ten languages apart on held-out documents.

Every test document of every language (letters and the other genres) is identified; the
file records, per language and source, the share identified as their own language, the
share that would warn in their own pipeline (false alarms) and the share that would warn
in each other language's pipeline (mismatches caught). Writes metrics/language_check.json.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import srsly
import typer

from scripts.corpus.sources import by_source
from scripts.corpus.split import load_docs
from scripts.evaluation.evaluate import command_line, timestamp
from spacy_deid.lang import LANGUAGES, parse_language_codes, validate_language
from spacy_deid.lang.identify import identify_language, is_clear_mismatch


def rates(texts: list[str], lang: str, langs: list[str]) -> dict[str, float | int]:
    """For texts in `lang`: identified as `lang`, false alarms in its own pipeline, and
    mismatches caught in every other pipeline of `langs`, as shares."""
    guesses = [identify_language(text) for text in texts]
    others = [other for other in langs if other != lang]
    caught = sum(is_clear_mismatch(guess, other) for guess in guesses for other in others)
    pairs = len(guesses) * len(others)
    return {
        "documents": len(guesses),
        "identified": round(sum(g.lang == lang for g in guesses) / len(guesses), 4),
        "false_alarms": round(sum(is_clear_mismatch(g, lang) for g in guesses)
                              / len(guesses), 4),
        "mismatches_caught": round(caught / pairs, 4) if pairs else None,
    }


def main(
    splits_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/test.spacy")],
    output: Annotated[Path, typer.Option(help="JSON file to write")] = Path(
        "metrics/language_check.json"),
    langs: Annotated[str, typer.Option(help="Comma-separated language codes")] = ",".join(
        LANGUAGES),
) -> None:
    """Identify every test document and write the rates per language and source."""
    codes = [validate_language(code) for code in parse_language_codes(langs)]
    results: dict[str, dict] = {}
    for lang in codes:
        docs = load_docs(splits_dir / lang / "test.spacy")
        results[lang] = {"all": rates([doc.text for doc in docs], lang, codes)}
        for source, group in sorted(by_source(docs).items()):
            results[lang][source] = rates([doc.text for doc in group], lang, codes)
        typer.echo(f"{lang}: {results[lang]['all']}")
    srsly.write_json(output, {"command": command_line(), "timestamp": timestamp(),
                              "split": "test", "languages": results})


if __name__ == "__main__":
    typer.run(main)
