"""Leakage report: how many gold PHI spans survive anonymization, per label.

Runs a pipeline (adding `deid_anonymizer` when it has none) on the text of every gold
document and counts, per label, the gold spans whose original text still appears
anywhere in `doc._.deid_text` as a whole (`leaked`: not inside a longer word, so a ward
letter "B" that was replaced does not count as leaked because "Befund" is in the letter;
in Arabic script a prefixed preposition or article is allowed, "بدمشق" leaks "دمشق"),
the same as a plain substring (`leaked_as_substring`, the stricter first measure),
those with at least one word of three or more characters surviving as a whole word
(`partial`, e.g. a surname whose first name alone was found), and those that no
replacement overlaps (`missed`: no detector touched them, unlike a ward number "5" that
was replaced but still counts as leaked because "5 mg" stands elsewhere in the letter).
`leaked_unreplaced` counts the leaked spans whose text survives where it is PHI, not only
as an ordinary word or number elsewhere like that ward number: the text stands, not
wholly replaced, inside a gold span of the input (the span itself or another mention).
Labels the anonymizer keeps on purpose (`AGE` by default) are reported but left out of
the totals. The top level reports the letters; `sources` holds the same report for every
source of the test split (and per genre for the multi-genre documents). Writes JSON;
prints no PHI.
Targets for names and IDs, in every language: <= 1% on the letters, <= 2% on the other
genres (`leak_target`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import spacy
import srsly
import typer
from spacy.language import Language
from spacy.tokens import Doc

from scripts.corpus.sources import LETTERS, by_genre, by_source, primary_source
from scripts.evaluation.evaluate import (
    current_device,
    read_gold_docs,
    run_environment,
    select_device,
)
from spacy_deid.lang import parse_language_codes, validate_language
from spacy_deid.lang.spelling import ARABIC_SCRIPT_LANGUAGES
from spacy_deid.schema import NAME_LABELS

# The share of names and IDs that may leak: letters, the other genres.
LETTERS_LEAK_TARGET = 0.01
OTHER_GENRES_LEAK_TARGET = 0.02
# Names (titles such as "Dr." are not identifying and come from short lists) and IDs.
TARGET_LABELS = frozenset((NAME_LABELS - {"NAME_TITLE"}) | {"ID"})


WORD = re.compile(r"\w{3,}")


# What Arabic writes onto the next word: "و"/"ف" (and), "ب"/"ل"/"ك" (in, for, like), "ال".
ARABIC_PROCLITICS = "(?:[وف]?(?:[بك]?ال|لل|[بلك])?)"


def whole_word(word: str, lang: str) -> re.Pattern[str]:
    """`word` as a whole word. In Arabic script, a preposition or the article written onto
    it counts too ("بدمشق" has "دمشق")."""
    clitics = ARABIC_PROCLITICS if lang in ARABIC_SCRIPT_LANGUAGES else ""
    return re.compile(rf"(?<!\w){clitics}{re.escape(word)}(?!\w)")


def word_survives(word: str, output: str, lang: str) -> bool:
    """Whether `word` occurs in `output` as a whole word (see `whole_word`)."""
    return whole_word(word, lang).search(output) is not None


def ensure_anonymizer(nlp: Language, lang: str) -> Language:
    """Add `deid_anonymizer` for `lang` at the end of `nlp` unless it is there already."""
    if "deid_anonymizer" not in nlp.pipe_names:
        nlp.add_pipe("deid_anonymizer", config={"lang": lang})
    return nlp


# The outcomes counted per label for every gold span.
OUTCOMES = ("spans", "leaked", "unreplaced", "as_substring", "partial", "missed")


def wholly_replaced(start: int, end: int, text: str, replaced: list[tuple[int, int]]) -> bool:
    """Whether every letter and digit of `text[start:end]` lies in a replaced range."""
    return all(not text[i].isalnum() or any(low <= i < high for low, high in replaced)
               for i in range(start, end))


def stands_unreplaced_in_phi(word: str, gold: Doc, replaced: list[tuple[int, int]],
                             lang: str) -> bool:
    """Whether `word` stands as a whole word in the input, not wholly replaced, inside a
    gold span: so that where it survives in the output, it is PHI."""
    return any(not wholly_replaced(*match.span(), gold.text, replaced)
               and any(ent.start_char < match.end() and match.start() < ent.end_char
                       for ent in gold.ents)
               for match in whole_word(word, lang).finditer(gold.text))


def document_outcomes(nlp: Language, gold: Doc, lang: str) -> dict[str, Counter]:
    """Anonymize one gold document and count, per label, its gold spans and their outcomes."""
    counts: dict[str, Counter] = {outcome: Counter() for outcome in OUTCOMES}
    doc = nlp(gold.text)
    output = doc._.deid_text
    replaced = [(record["start"], record["end"]) for record in doc._.deid_replacements
                if record["strategy"] != "keep"]
    for ent in gold.ents:
        counts["spans"][ent.label_] += 1
        if not any(start < ent.end_char and ent.start_char < end for start, end in replaced):
            counts["missed"][ent.label_] += 1
        if ent.text.strip() and ent.text in output:
            counts["as_substring"][ent.label_] += 1
            if word_survives(ent.text, output, lang):
                counts["leaked"][ent.label_] += 1
                counts["unreplaced"][ent.label_] += stands_unreplaced_in_phi(ent.text, gold,
                                                                            replaced, lang)
        if any(word_survives(word, output, lang) for word in WORD.findall(ent.text)):
            counts["partial"][ent.label_] += 1
    return counts


def leak_target(source: str) -> float:
    """The share of names and IDs that may leak from the documents of `source`."""
    return LETTERS_LEAK_TARGET if source == LETTERS else OTHER_GENRES_LEAK_TARGET


def summarise(outcomes: list[dict[str, Counter]], lang: str, strategies: dict[str, str],
              target_rate: float = LETTERS_LEAK_TARGET) -> dict:
    """The leakage report of a group of documents from their outcome counts, with names
    and IDs held against `target_rate`."""
    spans, leaked, unreplaced, as_substring, partial, missed = (
        sum((counts[outcome] for counts in outcomes), Counter()) for outcome in OUTCOMES)
    labels = {
        label: {
            "spans": spans[label],
            "leaked": leaked[label],
            "leak_rate": leaked[label] / spans[label],
            "leaked_unreplaced": unreplaced[label],
            "leaked_as_substring": as_substring[label],
            "partial": partial[label],
            "partial_rate": partial[label] / spans[label],
            "missed": missed[label],
            "strategy": strategies.get(label, "surrogate"),
        }
        for label in sorted(spans)
    }
    counted = [label for label, row in labels.items() if row["strategy"] != "keep"]
    total = sum(spans[label] for label in counted)
    total_leaked = sum(leaked[label] for label in counted)
    target = [label for label in counted if label in TARGET_LABELS]
    target_spans = sum(spans[label] for label in target)
    target_leaked = sum(leaked[label] for label in target)
    target_unreplaced = sum(unreplaced[label] for label in target)
    target_as_substring = sum(as_substring[label] for label in target)
    target_missed = sum(missed[label] for label in target)
    leak_rate = target_leaked / target_spans if target_spans else 0.0
    return {
        "lang": lang,
        "documents": len(outcomes),
        "spans": total,
        "leaked": total_leaked,
        "leak_rate": total_leaked / total if total else 0.0,
        "names_and_ids": {"spans": target_spans, "leaked": target_leaked,
                          "leaked_unreplaced": target_unreplaced,
                          "leaked_as_substring": target_as_substring,
                          "missed": target_missed,
                          "leak_rate": leak_rate, "target": target_rate,
                          "meets_target": leak_rate <= target_rate},
        "labels": labels,
    }


def leakage_report(nlp: Language, gold_docs: Iterable[Doc], lang: str) -> dict:
    """Per-label counts of gold spans and of those whose text survives in `deid_text`."""
    strategies = nlp.get_pipe("deid_anonymizer").strategies
    return summarise([document_outcomes(nlp, gold, lang) for gold in gold_docs], lang,
                     strategies)


def report_by_source(nlp: Language, gold_docs: Iterable[Doc], lang: str) -> dict:
    """The leakage report of the letters at the top level (of the only source when there
    are no letters), with `sources` holding each source's own, per genre beyond the
    letters, and the package versions. Each document is anonymized once."""
    strategies = nlp.get_pipe("deid_anonymizer").strategies
    groups = by_source(gold_docs)
    outcomes = {id(doc): document_outcomes(nlp, doc, lang)
                for docs in groups.values() for doc in docs}

    def report_on(docs: list[Doc], source: str) -> dict:
        return summarise([outcomes[id(doc)] for doc in docs], lang, strategies,
                         leak_target(source))

    sources = {}
    for source, docs in groups.items():
        sources[source] = report_on(docs, source)
        if source != LETTERS:
            sources[source]["genres"] = {genre: report_on(members, source)
                                         for genre, members in by_genre(docs).items()}
    primary = primary_source(groups)
    report = dict(sources.get(primary) or report_on([], primary))
    return {**report, "source": primary, **run_environment(),
            "device": current_device(), "sources": sources}


def write_leakage(model: Path, gold: Path, lang: str, output: Path) -> dict:
    """Write the leakage report of the pipeline at `model` on `gold` to `output`; print a
    one-line summary without any PHI."""
    validate_language(lang)
    if not model.exists():
        raise typer.BadParameter(f"no pipeline at {model}; run the train and assemble steps")
    nlp = ensure_anonymizer(spacy.load(model), lang)
    try:
        gold_docs = read_gold_docs(gold, nlp.vocab)
    except (FileNotFoundError, ValueError) as error:
        raise typer.BadParameter(str(error)) from error
    report = report_by_source(nlp, gold_docs, lang)
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, report)
    for source, row in report["sources"].items():
        summary = row["names_and_ids"]
        typer.echo(f"{lang} {source}: {row['leaked']}/{row['spans']} spans leaked "
                   f"({row['leak_rate']:.2%}); names and IDs {summary['leak_rate']:.2%} "
                   f"(target <= {summary['target']:.0%}: "
                   f"{'met' if summary['meets_target'] else 'NOT met'})")
    return report


def use_device(gpu_id: int) -> None:
    """Run on GPU `gpu_id` (-1: the CPU); a GPU that spaCy cannot use is a clear error."""
    try:
        select_device(gpu_id)
    except ValueError as err:
        raise typer.BadParameter(str(err)) from err


app = typer.Typer(help=__doc__.split("\n")[0], no_args_is_help=True)


@app.command("pipeline")
def main(
    model: Annotated[Path, typer.Argument(help="spaCy pipeline directory")],
    gold: Annotated[Path, typer.Argument(help="DocBin (.spacy) with gold PHI entities")],
    lang: Annotated[str, typer.Option("--lang", help="Language code of the documents")],
    output: Annotated[Path, typer.Option("--output", help="Where to write the JSON report")],
    gpu_id: Annotated[int, typer.Option("--gpu-id", help="GPU id, -1 for the CPU")] = -1,
) -> None:
    """Write the leakage report of MODEL on GOLD to OUTPUT and print the summary."""
    use_device(gpu_id)
    write_leakage(model, gold, lang, output)


@app.command("languages")
def languages(
    training_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/pipeline")],
    splits_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/test.spacy")],
    metrics_dir: Annotated[Path, typer.Argument(help="Where leakage_<lang>.json goes")],
    langs: Annotated[str, typer.Option("--langs", help="Space- or comma-separated codes")],
    suffix: Annotated[str, typer.Option("--suffix", help="File name suffix, e.g. _single")
                      ] = "",
    gpu_id: Annotated[int, typer.Option("--gpu-id", help="GPU id, -1 for the CPU")] = -1,
) -> None:
    """Write `leakage_<lang><suffix>.json` for every language's pipeline on its test split."""
    use_device(gpu_id)
    for lang in parse_language_codes(langs):
        write_leakage(training_dir / lang / "pipeline", splits_dir / lang / "test.spacy", lang,
                      metrics_dir / f"leakage_{lang}{suffix}.json")


if __name__ == "__main__":
    app()
