"""Translate an annotated corpus into another language with an LLM, keeping every annotation.

Input: a DocBin (`.spacy`, e.g. one split of one language) or a folder of inline-tag
`.txt` files. Each document goes through spacy-llm's `llm` component with the task
`spacy_deid.AnnotatedTranslation.v1` (configs/translate.cfg); the backend is one block of
the config's [backends]. Writes, under OUTPUT_DIR:

- `<target>/<doc_id>.txt`: the accepted translations as inline-tag text, the layout of
  the vendored replica corpus, so convert/train read them like the replica;
- `<target>.spacy`: the same documents as a DocBin, tokenized for the target language;
- a JSON report: documents done and failed (with every reason), retries used, model
  calls, and the per-label preservation rate (source spans that reached the output).

Answers are cached on disk per language pair and backend (spacy-llm's BatchCache), so a
rerun costs nothing and runs offline; failed documents are cached as failed too (delete
the cache folder to ask again).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import requests
import spacy
import srsly
import typer
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_deid.lang import validate_language
from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import (
    CharSpan,
    InlineTagError,
    parse_inline_tags,
    render_inline_tags,
)
from spacy_deid.translate.openai_compatible import ModelRequestError
from spacy_deid.translate.task import (
    EXTENSION,
    AnnotatedTranslationTask,
    doc_name,
    record_matches_source,
    source_tagged_text,
)

# Errors a model call may end in, after the model's own retries: the document is reported
# failed (and not cached, so a rerun asks again). spacy-llm's hosted clients raise the
# built-in TimeoutError/ConnectionError and ValueError for refused requests.
MODEL_ERRORS = (ModelRequestError, requests.RequestException, TimeoutError, ConnectionError,
                ValueError)


def build_pipeline(config_path: Path, source_lang: str, target_lang: str, backend: str,
                   cache_dir: Path, target_country: str | None = None,
                   max_retries: int | None = None, base_url: str | None = None,
                   model_name: str | None = None) -> Language:
    """Load the translate config with the chosen languages, backend and cache folder."""
    config = spacy.util.load_config(config_path)
    backends = config.get("backends", {})
    if backend not in backends:
        raise typer.BadParameter(f"--backend {backend!r} is not in [backends] of {config_path}; "
                                 f"choose one of: {', '.join(sorted(backends))}")
    model = dict(backends[backend])
    if base_url:
        if "base_url" not in model:
            raise typer.BadParameter(f"--base-url does not apply to backend {backend!r}")
        model["base_url"] = base_url
    if model_name:
        model["name"] = model_name
    config["components"]["llm"]["model"] = model
    del config["backends"]
    config["translation"].update(source_lang=source_lang, target_lang=target_lang,
                                 target_country=target_country or None)
    if max_retries is not None:
        config["components"]["llm"]["task"]["max_retries"] = max_retries
    config["paths"]["cache"] = str(cache_dir)
    return spacy.util.load_model_from_config(config.interpolate(), auto_fill=True,
                                             validate=True)


def safe_file_name(name: str) -> str:
    """A document name usable as a file name."""
    return re.sub(r"[^\w.-]", "_", name) or "doc"


def read_source_docs(path: Path, nlp: Language, source_lang: str) -> Iterator[Doc]:
    """Documents from a DocBin or from a folder of inline-tag files (named by file stem)."""
    if path.is_dir():
        files = sorted(path.glob("*.txt"))
        if not files:
            raise typer.BadParameter(f"{path} holds no .txt files")
        for file in files:
            text, spans = parse_inline_tags(file.read_text(encoding="utf-8"), source=str(file))
            doc, report = make_doc(nlp.tokenizer, text, spans, source=str(file))
            if report.lost:
                raise typer.BadParameter(f"{file}: spans lost in tokenization: "
                                         f"{', '.join(report.lost_positions)}")
            doc.user_data.update(doc_id=file.stem, lang=source_lang)
            yield doc
    elif path.suffix == ".spacy" and path.is_file():
        for i, doc in enumerate(DocBin().from_disk(path).get_docs(nlp.vocab)):
            doc.user_data.setdefault("doc_id", f"doc{i:04d}")
            yield doc
    else:
        raise typer.BadParameter(f"{path} is neither a .spacy DocBin nor a folder of .txt files")


def translate_one(nlp: Language, doc: Doc) -> dict[str, Any]:
    """Run the `llm` component on one document; return its translation record.

    A source that cannot be written with inline tags, a model that gives no answer, or a
    cached answer made for other annotations of the same text yields a failed record with
    the reason (no text of the document in it).
    """
    counts = dict(Counter(ent.label_ for ent in doc.ents))
    try:
        source_tagged_text(doc)
    except InlineTagError as error:
        return failed_record(counts, f"source cannot be written with inline tags: {error}")
    try:
        processed = nlp(doc)
    except MODEL_ERRORS as error:
        return failed_record(counts, f"translation call failed: {type(error).__name__}: "
                                     f"{error}")
    record = processed._.get(EXTENSION)
    # A cached answer comes back as the cached Doc; `doc` keeps the current annotations.
    if not record_matches_source(record, doc):
        return failed_record(counts, "the cached translation was made for other annotations "
                                     "of this text; delete the cache folder to translate again")
    return dict(record)


def failed_record(source_counts: dict[str, int], error: str, attempts: int = 0
                  ) -> dict[str, Any]:
    """A record for a document that never reached validation."""
    return {"status": "failed", "source_counts": source_counts, "attempts": attempts,
            "retries": 0, "errors": [error], "text": None, "spans": []}


def preservation(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per label: source spans, spans in accepted translations, and the rate between them."""
    source: Counter = Counter()
    kept: Counter = Counter()
    for record in records:
        source.update(record["source_counts"])
        if record["status"] == "ok":
            kept.update(str(span[2]) for span in record["spans"])
    per_label = {label: {"source": source[label], "kept": kept[label],
                         "rate": round(kept[label] / source[label], 6)}
                 for label in sorted(source)}
    total = sum(source.values())
    return {
        "per_label": per_label,
        "micro": round(sum(kept[label] for label in source) / total, 6) if total else None,
        "macro": round(sum(v["rate"] for v in per_label.values()) / len(per_label), 6)
        if per_label else None,
    }


def build_report(names: list[str], records: list[dict[str, Any]], settings: dict[str, Any]
                 ) -> dict[str, Any]:
    """The run's report: counts, retries, preservation, and every failure with its reasons."""
    failures = [{"doc_id": name, "attempts": record["attempts"], "errors": record["errors"]}
                for name, record in zip(names, records, strict=True)
                if record["status"] != "ok"]
    alignment: Counter = Counter()
    for record in records:
        alignment.update(record.get("alignment") or {})
    return {
        **settings,
        "documents": len(records),
        "done": sum(record["status"] == "ok" for record in records),
        "failed": len(failures),
        "retries_used": sum(record["retries"] for record in records),
        "model_answers": sum(record["attempts"] for record in records),
        # people and places the model left in their source form (reported for review)
        "unchanged_entities": sum(record.get("unchanged_entities", 0) for record in records),
        "preservation": preservation(records),
        "alignment": dict(alignment),
        "failures": failures,
        "documents_detail": [{"doc_id": name, "status": record["status"],
                              "attempts": record["attempts"], "retries": record["retries"]}
                             for name, record in zip(names, records, strict=True)],
    }


def write_outputs(task: AnnotatedTranslationTask, names: list[str],
                  records: list[dict[str, Any]], output_dir: Path) -> int:
    """Write the accepted translations as inline-tag files and one DocBin; return how many."""
    text_dir = output_dir / task.target_lang
    text_dir.mkdir(parents=True, exist_ok=True)
    docbin = DocBin(store_user_data=True)
    for name, record in zip(names, records, strict=True):
        if record["status"] != "ok":
            continue
        spans = [CharSpan(int(s), int(e), str(label)) for s, e, label in record["spans"]]
        tagged = render_inline_tags(record["text"], spans, source=name)
        (text_dir / f"{safe_file_name(name)}.txt").write_text(tagged, encoding="utf-8")
        target = task.target_doc_from_record(record, name)
        docbin.add(target)
    docbin.to_disk(output_dir / f"{task.target_lang}.spacy")
    return len(docbin)


def main(
    input_path: Annotated[Path, typer.Argument(help="Source DocBin (.spacy) or folder of .txt")],
    output_dir: Annotated[Path, typer.Argument(help="Where to write <target>/*.txt and "
                                                    "<target>.spacy")],
    source_lang: Annotated[str, typer.Option(help="Language of the source documents")] = "de",
    target_lang: Annotated[str, typer.Option(help="Language to translate into")] = "en",
    backend: Annotated[str, typer.Option(
        help="Backend block of the config: local, openai or anthropic")] = "local",
    config_path: Annotated[Path, typer.Option("--config", help="The spacy-llm translate config")
                           ] = Path("configs/translate.cfg"),
    target_country: Annotated[str | None, typer.Option(
        help="Country to adapt to (default per language, as in the paper)")] = None,
    max_retries: Annotated[int | None, typer.Option(help="Override the config's max_retries")
                           ] = None,
    base_url: Annotated[str | None, typer.Option(help="Override the backend's base_url")] = None,
    model_name: Annotated[str | None, typer.Option(help="Override the backend's model name")
                          ] = None,
    cache_dir: Annotated[Path | None, typer.Option(
        help="Answer cache (default: OUTPUT_DIR/.cache/<source>-<target>-<backend>)")] = None,
    report_path: Annotated[Path | None, typer.Option(
        "--report", help="JSON report (default: OUTPUT_DIR/<source>-<target>.report.json)")
    ] = None,
    limit: Annotated[int, typer.Option(help="Translate only the first N documents (0: all)")
                     ] = 0,
) -> None:
    """Translate the documents and write the translations, a DocBin and a report."""
    try:
        validate_language(source_lang)
    except ValueError as error:
        raise typer.BadParameter(f"--source-lang: {error}") from error
    cache_dir = cache_dir or output_dir / ".cache" / f"{source_lang}-{target_lang}-{backend}"
    report_path = report_path or output_dir / f"{source_lang}-{target_lang}.report.json"
    nlp = build_pipeline(config_path, source_lang, target_lang, backend, cache_dir,
                         target_country, max_retries, base_url, model_name)
    task: AnnotatedTranslationTask = nlp.get_pipe("llm").task
    names: list[str] = []
    records: list[dict[str, Any]] = []
    for i, doc in enumerate(read_source_docs(input_path, nlp, source_lang), start=1):
        if limit and i > limit:
            break
        names.append(doc_name(doc))
        records.append(translate_one(nlp, doc))
        typer.echo(f"{i:4} {names[-1]}: {records[-1]['status']} "
                   f"(retries {records[-1]['retries']})")
    written = write_outputs(task, names, records, output_dir)
    report = build_report(names, records, {
        "source_lang": source_lang, "target_lang": target_lang,
        "target_country": task.target_country, "backend": backend,
        "input": str(input_path), "cache": str(cache_dir)})
    report_path.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(report_path, report)
    typer.echo(f"done {report['done']}, failed {report['failed']}, retries used "
               f"{report['retries_used']}, preservation {report['preservation']['micro']}; "
               f"{written} documents in {output_dir / task.target_lang}; report {report_path}")


if __name__ == "__main__":
    typer.run(main)
