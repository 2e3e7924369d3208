"""Convert the vendored corpus to one spaCy DocBin per language.

The letters come from the INCEpTION exports for German (JSON by default, XMI on request)
and from the inline-tag replica for the other languages; the multi-genre documents from
`synthetic_clinical/<lang>/`. Every Doc records its name, language, source and genre in
`user_data`. Prints, per language, gold spans in / kept / adjusted / lost, and the
position of every lost span.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated

import spacy
import srsly
import typer
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.tokens import Doc, DocBin

from scripts.corpus.inception import CasDocument, read_cas_json, read_cas_xmi
from scripts.corpus.sources import (
    LETTERS,
    SOURCES,
    SYNTHETIC,
    SYNTHETIC_FOLDER,
    genre_from_path,
    source_of,
    synthetic_doc_id,
)
from spacy_deid.lang import LANGUAGES, parse_language_codes
from spacy_deid.translate.alignment import AlignmentReport, make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags

GERMAN = "de"


def blank_pipeline(lang: str) -> Language:
    """A blank multi-language pipeline with `lang`'s own tokenizer rules (as the packages use)."""
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})


def set_gold_sentences(doc: Doc, sentences: list[tuple[int, int]]) -> None:
    """Mark sentence starts from character offsets (GraSCCo's Sentence annotations)."""
    starts = {start for start, _ in sentences}
    for token in doc:
        token.is_sent_start = token.i == 0 or token.idx in starts


def set_rule_sentences(doc: Doc) -> None:
    """Mark sentence starts by punctuation rules and at every line break."""
    Sentencizer()(doc)
    for token in doc[1:]:
        if "\n" in doc[token.i - 1].text or "\n" in doc[token.i - 1].whitespace_:
            token.is_sent_start = True


def keep_entities_in_one_sentence(doc: Doc) -> None:
    """No sentence may start inside an entity, so sentence-level splits never cut one."""
    for ent in doc.ents:
        for token in ent[1:]:
            token.is_sent_start = False


def annotate(doc: Doc, name: str, lang: str, source: str = LETTERS,
             genre: str | None = None) -> Doc:
    """Record the document name, language, source and genre in `user_data` (kept by
    DocBin)."""
    doc.user_data["doc_id"] = name
    doc.user_data["lang"] = lang
    doc.user_data["source"] = source
    if genre is not None:
        doc.user_data["genre"] = genre
    return doc


def convert_cas(nlp: Language, documents: Iterable[CasDocument],
                report: AlignmentReport) -> Iterator[Doc]:
    """INCEpTION documents to Docs with gold entities and gold sentences."""
    for document in documents:
        doc, doc_report = make_doc(nlp.tokenizer, document.text, document.spans, document.name)
        report.add(doc_report)
        set_gold_sentences(doc, document.sentences)
        keep_entities_in_one_sentence(doc)
        yield annotate(doc, document.name, GERMAN)


def inline_doc(nlp: Language, path: Path, report: AlignmentReport) -> Doc:
    """One inline-tag file as a Doc with gold entities and rule-based sentences."""
    text, spans = parse_inline_tags(path.read_text(encoding="utf-8"), source=str(path))
    doc, doc_report = make_doc(nlp.tokenizer, text, spans, str(path))
    report.add(doc_report)
    set_rule_sentences(doc)
    keep_entities_in_one_sentence(doc)
    return doc


def convert_inline(nlp: Language, paths: Iterable[Path], lang: str,
                   report: AlignmentReport) -> Iterator[Doc]:
    """Translated letters (inline tags) to Docs, named like their German original."""
    for path in paths:
        yield annotate(inline_doc(nlp, path, report), path.name.split(".", 1)[0], lang)


def convert_synthetic(nlp: Language, paths: Iterable[Path], lang: str,
                      report: AlignmentReport) -> Iterator[Doc]:
    """Multi-genre documents (inline tags) to Docs, with their genre."""
    for path in paths:
        yield annotate(inline_doc(nlp, path, report), synthetic_doc_id(lang, path), lang,
                       SYNTHETIC, genre_from_path(path))


def read_german(corpus_dir: Path, cas_format: str) -> list[CasDocument]:
    """The GraSCCo_PHI documents from the JSON or XMI export."""
    if cas_format == "json":
        paths = sorted((corpus_dir / "grascco_phi" / "grascco_phi_annotation_json").glob("*.json"))
        return [read_cas_json(path) for path in paths]
    if cas_format == "xmi":
        paths = sorted((corpus_dir / "grascco_phi" / "grascco_phi_annotation_xmi").glob("*.xmi"))
        return [read_cas_xmi(path) for path in paths]
    raise typer.BadParameter(f"--cas-format must be json or xmi, not {cas_format!r}")


def inline_tag_folder(corpus_dir: Path, lang: str) -> Path | None:
    """Where a language's inline-tag files are: the vendored replica, else an LLM translation
    made by the `translate` step (`corpus/translated/<lang>/`), else None."""
    for folder in (corpus_dir / "multigrascco_replica" / lang, corpus_dir / "translated" / lang):
        if folder.is_dir() and any(folder.glob("*.txt")):
            return folder
    return None


def synthetic_paths(corpus_dir: Path, lang: str) -> list[Path]:
    """The language's multi-genre documents, sorted (none when the folder is missing)."""
    return sorted((corpus_dir / SYNTHETIC_FOLDER / lang).glob("*.txt"))


def convert_language(corpus_dir: Path, lang: str, cas_format: str = "json",
                     sources: tuple[str, ...] = SOURCES) -> tuple[list[Doc], AlignmentReport]:
    """Convert one language of the corpus (the chosen sources); return its Docs and
    alignment report."""
    nlp = blank_pipeline(lang)
    report = AlignmentReport()
    docs: list[Doc] = []
    if LETTERS in sources and lang == GERMAN:
        docs.extend(convert_cas(nlp, read_german(corpus_dir, cas_format), report))
    elif LETTERS in sources:
        folder = inline_tag_folder(corpus_dir, lang)
        paths = sorted(folder.glob("*.txt")) if folder else []
        docs.extend(convert_inline(nlp, paths, lang, report))
    if SYNTHETIC in sources:
        docs.extend(convert_synthetic(nlp, synthetic_paths(corpus_dir, lang), lang, report))
    return docs, report


def parse_sources(sources: str) -> tuple[str, ...]:
    """"letters,synthetic" -> ("letters", "synthetic"), each checked."""
    chosen = tuple(part.strip() for part in sources.split(",") if part.strip())
    unknown = [source for source in chosen if source not in SOURCES]
    if unknown or not chosen:
        raise typer.BadParameter(
            f"--sources takes a comma-separated subset of {', '.join(SOURCES)}, not {sources!r}")
    return chosen


def report_line(lang: str, docs: list[Doc], report: AlignmentReport) -> str:
    """One line of the conversion table."""
    adjusted = ", ".join(f"{label} {n}" for label, n in sorted(report.adjusted_labels.items()))
    return (f"{lang:4} docs {len(docs):3}  gold spans in {report.spans_in:5}  "
            f"kept {report.kept:5}  "
            f"adjusted {report.adjusted:3}  lost {report.lost:2}"
            + (f"  (adjusted: {adjusted})" if adjusted else ""))


def main(
    corpus_dir: Path = typer.Argument(..., help="The vendored corpus folder"),
    output_dir: Path = typer.Argument(..., help="Where to write <lang>.spacy"),
    langs: str = typer.Option(",".join(LANGUAGES), help="Comma-separated language codes"),
    cas_format: str = typer.Option("json", help="GraSCCo export to read: json or xmi"),
    sources: Annotated[str, typer.Option(help="Comma-separated sources to convert")
                       ] = ",".join(SOURCES),
) -> None:
    """Convert every language of the corpus to a DocBin and print the alignment account."""
    chosen = parse_sources(sources)
    output_dir.mkdir(parents=True, exist_ok=True)
    summary = {}
    for lang in parse_language_codes(langs):
        docs, report = convert_language(corpus_dir, lang, cas_format, chosen)
        if not docs:
            typer.echo(f"{lang:4} no data in the corpus, skipped")
            continue
        DocBin(docs=docs, store_user_data=True).to_disk(output_dir / f"{lang}.spacy")
        typer.echo(report_line(lang, docs, report))
        for position in report.lost_positions:
            typer.echo(f"     lost: {position} (the spans overlap after alignment to tokens)")
        summary[lang] = {"docs": len(docs),
                         "docs_by_source": dict(Counter(source_of(doc) for doc in docs)),
                         "spans_in": report.spans_in, "kept": report.kept,
                         "adjusted": report.adjusted, "lost": report.lost,
                         "adjusted_labels": dict(report.adjusted_labels),
                         "lost_positions": report.lost_positions}
    srsly.write_json(output_dir / "alignment.json", summary)


if __name__ == "__main__":
    typer.run(main)
