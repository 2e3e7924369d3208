"""`spacy-deid review`: a static HTML report of a sample of a run's documents, for a person
to audit: each original with its detected PHI marked by label (displaCy), the anonymized
output beside it, counts per label, and checks (an original still found in the output; a
pipeline that now finds other spans than in the run).

The report is built from the run's manifest: the originals are read again from INPUT and
detected again with the run's pipeline; the anonymized side is the real output file. It
shows original PHI, so it is written outside OUTPUT and INPUT and is not to be shared.
"""

from __future__ import annotations

import csv
import html
import io
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from spacy import displacy

from spacy_deid.anonymize.anonymizer import Anonymizer, validate_strategies
from spacy_deid.chunking import process_long
from spacy_deid.cli.manifest import OK, load_manifest
from spacy_deid.cli.paths import refuse_inside
from spacy_deid.cli.processing import label_counts, load_pipeline
from spacy_deid.cli.readers import (
    DELIMITERS,
    FORMATS,
    JSONL,
    TEXT,
    ReadSettings,
    Unit,
    open_unit,
    unit_format,
)
from spacy_deid.cli.writers import write_text_atomic
from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.profile import language_profile

RTL_LANGUAGES = frozenset(lang for lang in LANGUAGES if language_profile(lang).right_to_left)
# displaCy colours by the first part of a label (NAME_PATIENT -> NAME).
LABEL_COLORS: dict[str, str] = {
    "NAME": "#f4a6a6", "DATE": "#a6d4f4", "AGE": "#c9e7b5", "LOCATION": "#f4d6a6",
    "CONTACT": "#d6b5f4", "ID": "#f4f0a6", "PROFESSION": "#b5e7e0", "OTHER": "#dddddd",
}
STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
.warning { background: #fde8e8; border: 1px solid #e0a0a0; padding: .6rem .9rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .2rem .6rem; text-align: left; }
td.number { text-align: right; }
section.document { border-top: 3px solid #888; margin-top: 2rem; padding-top: .5rem; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5rem; }
.pair > div { min-width: 0; }
.anonymized .text { white-space: pre-wrap; line-height: 2.5; font-size: 16px; }
ul.checks li.problem { color: #a00000; font-weight: bold; }
p.labels .label { display: inline-block; margin: 0 .4rem .3rem 0; padding: .1rem .5rem;
  border-radius: .3rem; font-size: 85%; }
"""


@dataclass
class Reviewed:
    """One sampled document: its manifest entry, original and anonymized text, spans."""

    number: int
    entry: dict
    original: str
    anonymized: str
    spans: list[tuple[int, int, str]]
    counts: dict[str, int]
    checks: list[tuple[bool, str]]


def _settings(manifest: dict) -> ReadSettings:
    """How the run read its input (patient options left out: not needed to find text)."""
    settings = manifest["settings"]
    fmt = settings.get("format")
    encoding = settings.get("encoding")
    return ReadSettings(format=fmt if fmt in FORMATS else None,
                        text_field=settings["text_field"], text_column=settings["text_column"],
                        encoding=None if encoding in (None, "detect") else encoding)


def _original(input_root: Path, folder: bool, entry: dict, settings: ReadSettings) -> str:
    path = input_root / entry["source"] if folder else input_root
    opened = open_unit(Unit(path, entry["source"], unit_format(path, settings)), settings)
    if opened.error is not None:
        raise ValueError(opened.error)
    for record in opened.records:
        if record.index == entry["index"] and record.error is None:
            return record.text
    raise ValueError("the document is no longer in the input")


def _anonymized(output_root: Path, entry: dict, settings: ReadSettings) -> str:
    path = output_root / entry["output"]
    fmt = unit_format(path, settings)
    text = path.read_bytes().decode("utf-8")  # as written: line ends kept
    if fmt == TEXT:
        return text
    if fmt == JSONL:
        return json.loads(text.split("\n")[entry["output_index"] - 1])[settings.text_field]
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS[fmt]))
    return rows[entry["output_index"]][rows[0].index(settings.text_column)]


def _checks(original: str, anonymized: str, spans: list[tuple[int, int, str]],
            counts: dict[str, int], entry: dict, strategies: dict[str, str]
            ) -> list[tuple[bool, str]]:
    """(is a problem, message): originals found in the output, counts unlike the run's."""
    checks: list[tuple[bool, str]] = []
    for start, end, label in spans:
        value = original[start:end].strip()
        if strategies.get(label) == "keep" or len(value) < 2:
            continue
        if re.search(rf"(?<!\w){re.escape(value)}(?!\w)", anonymized):
            checks.append((True, f"{label} “{value}” still appears in the anonymized text"))
    if counts != entry.get("labels", {}):
        checks.append((True, "the pipeline now finds other spans than it did in the run "
                             f"(run: {entry.get('labels', {})}); was it changed?"))
    if not checks:
        checks.append((False, "no detected original appears in the anonymized text"))
    return checks


def _counts_table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(
            f'<td class="number">{html.escape(c)}</td>' if c.isdigit()
            else f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in rows)
    return f'<table class="counts"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _section(doc: Reviewed, lang: str) -> str:
    direction = "rtl" if lang in RTL_LANGUAGES else "ltr"
    colors = {label: LABEL_COLORS.get(label.split("_")[0], "#dddddd")
              for _, _, label in doc.spans}
    marked = displacy.render(
        {"text": doc.original, "title": None,
         "ents": [{"start": s, "end": e, "label": label} for s, e, label in doc.spans],
         "settings": {"direction": direction, "lang": lang}},
        style="ent", manual=True, page=False, jupyter=False, options={"colors": colors})
    # One line of counts (a difference from the run's is among the checks), so that the
    # two texts follow closely.
    counts = '<p class="labels">' + "".join(
        f'<span class="label" style="background: {colors.get(label, "#dddddd")}">'
        f"{html.escape(label)} <b>{count}</b></span>" for label, count in doc.counts.items()
    ) + "</p>"
    checks = "".join(
        f'<li class="{"problem" if problem else "ok"}">{html.escape(message)}</li>'
        for problem, message in doc.checks)
    name = html.escape(doc.entry["document"])
    return (
        f'<section class="document" id="document-{doc.number}" data-document="{name}">'
        f"<h2>{doc.number}. {name}</h2>{counts}"
        f'<ul class="checks">{checks}</ul>'
        f'<div class="pair"><div class="original"><h3>Original, detected PHI</h3>{marked}</div>'
        f'<div class="anonymized"><h3>Anonymized output</h3>'
        f'<div class="text" dir="{direction}">{html.escape(doc.anonymized)}</div></div></div>'
        "</section>"
    )


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        '<p class="warning">This report shows the original documents and so holds identifying '
        "information. Keep it where the originals are kept; do not share it.</p>"
        f"{body}</body></html>\n"
    )


def _strategies(table: dict[str, str]) -> str:
    """The strategy table in brief: the labels of each strategy, 'surrogate' for the rest."""
    by_strategy: dict[str, list[str]] = {}
    for label, strategy in sorted(table.items()):
        by_strategy.setdefault(strategy, []).append(label)
    rest = by_strategy.pop("surrogate", [])
    parts = [f"{strategy}: {', '.join(labels)}" for strategy, labels in sorted(by_strategy.items())]
    if rest:
        parts.append("surrogate: " + ("every other label" if parts else "every label"))
    return "; ".join(parts)


def _run_summary(manifest: dict, reviewed: list[Reviewed]) -> str:
    pipeline, totals = manifest["pipeline"], manifest["totals"]
    facts = [
        ("run", manifest["run_id"]), ("status", manifest["status"]),
        ("pipeline", f"{pipeline.get('name')} {pipeline.get('version')} "
                     f"({pipeline.get('argument')})"),
        ("input", manifest["input"]["path"]), ("output", manifest["output"]["path"]),
        ("documents", f"{totals.get('processed', 0)} de-identified, "
                      f"{totals.get('skipped', 0)} skipped, {totals.get('errors', 0)} errors"),
        ("sample", f"{len(reviewed)} documents"),
        ("strategies", _strategies(manifest["settings"]["strategies"])),
    ]
    run_table = "<table class=\"run\"><tbody>" + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>" for k, v in facts
    ) + "</tbody></table>"
    sample = Counter()
    for doc in reviewed:
        sample.update(doc.counts)
    labels = sorted(set(totals.get("labels", {})) | set(sample))
    counts = _counts_table(
        [(label, str(totals.get("labels", {}).get(label, 0)), str(sample.get(label, 0)))
         for label in labels], ("label", "whole run", "sample"))
    problems = sum(problem for doc in reviewed for problem, _ in doc.checks)
    return (f"{run_table}<h2>Counts per label</h2>{counts}"
            f'<p class="summary">{problems} problems found in the sample.</p>')


def review(
    output: Annotated[Path, typer.Argument(
        metavar="OUTPUT", exists=True, file_okay=False, help="The output folder of a run")],
    report: Annotated[Path, typer.Argument(
        metavar="REPORT", help="Folder for the report (index.html); outside OUTPUT and INPUT")],
    run_id: Annotated[str | None, typer.Option("--run", help="Run id (default: the latest)")
                      ] = None,
    sample: Annotated[int, typer.Option(help="Documents to review")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the sample")] = 0,
    per_document: Annotated[bool, typer.Option(
        help="Also one page per document, under REPORT/documents/")] = False,
    pipeline: Annotated[str | None, typer.Option(
        "--pipeline", "-p", help="Pipeline to detect with (default: the run's)")] = None,
    input_path: Annotated[Path | None, typer.Option(
        "--input", help="Where the run's INPUT is now (default: as in the manifest)")] = None,
) -> None:
    """Write an HTML report of a sample of a run's documents for a person to audit."""
    try:
        manifest = load_manifest(output, run_id)
    except FileNotFoundError as error:
        raise typer.BadParameter(str(error), param_hint="OUTPUT") from None
    input_root = input_path or Path(manifest["input"]["path"])
    folder = manifest["input"].get("kind") == "folder"
    hint = "the report holds original text; keep it apart from the output and the input"
    refuse_inside(report, output, "REPORT", "the output folder", hint)
    if folder:
        refuse_inside(report, input_root, "REPORT", "the input folder", hint)
    candidates = [e for e in manifest["documents"] if e["status"] == OK and e.get("output")]
    chosen = random.Random(seed).sample(candidates, min(sample, len(candidates)))
    chosen.sort(key=candidates.index)
    nlp, anonymizer = load_pipeline(pipeline or manifest["pipeline"]["argument"])
    strategies = manifest["settings"]["strategies"]
    anonymizer.strategies = validate_strategies(strategies)
    settings = _settings(manifest)
    reviewed = []
    for number, entry in enumerate(chosen, 1):
        try:
            original = _original(input_root, folder, entry, settings)
            anonymized = _anonymized(output, entry, settings)
        except (OSError, ValueError, IndexError, KeyError) as error:
            typer.echo(f"  skipped {entry['document']}: {error}", err=True)
            continue
        reviewed.append(_review(number, entry, original, anonymized, nlp, anonymizer,
                                manifest, strategies))
    index = _write(report, manifest, reviewed, anonymizer.lang, per_document)
    typer.echo(f"Reviewed {len(reviewed)} of {len(candidates)} documents: {index}")


def _review(number: int, entry: dict, original: str, anonymized: str, nlp,
            anonymizer: Anonymizer, manifest: dict, strategies: dict[str, str]) -> Reviewed:
    settings = manifest["settings"]
    doc = process_long(nlp, original, settings["max_chars"], settings["context_chars"])
    spans = [(s.start, s.end, s.label) for s in anonymizer.spans(doc)]
    counts = label_counts(anonymizer, doc)
    checks = _checks(original, anonymized, spans, counts, entry, strategies)
    return Reviewed(number, entry, original, anonymized, spans, counts, checks)


def _write(report: Path, manifest: dict, reviewed: list[Reviewed], lang: str,
           per_document: bool) -> Path:
    title = f"De-identification review, run {manifest['run_id']}"
    sections = []
    for doc in reviewed:
        section = _section(doc, lang)
        if per_document:
            page = report / "documents" / f"{doc.number:04d}.html"
            write_text_atomic(page, _page(f"{title}: {doc.entry['document']}", section))
            section = section.replace(
                "</h2>", f' <a class="page" href="documents/{doc.number:04d}.html">page</a></h2>',
                1)
        sections.append(section)
    index = report / "index.html"
    write_text_atomic(index, _page(title, _run_summary(manifest, reviewed) + "".join(sections)))
    return index
