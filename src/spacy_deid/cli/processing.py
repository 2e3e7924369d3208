"""Running a pipeline over a run's documents: `nlp.pipe` for ordinary texts,
`spacy_deid.chunking.process_long` for long ones, a key per document, failures caught.

With more than one process (`annotate_in_processes`), forked workers that share the loaded
pipeline each take whole batches and send back only a `Summary` of every document (its
output text, replacements, label counts and language check), not the Doc: serialising
Docs between processes would cost the main process as much as it saves.

Each document goes in as a Doc from the tokenizer carrying its secret key in
`doc._.deid_secret_key` (the run key, or its patient's key), which the anonymizer reads and
clears. Results come back in input order; a document a component fails on is reported
(component name and exception type only: exception messages may quote text) and the run
goes on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice, tee
from pathlib import Path

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid  # noqa: F401  (registers the Doc extensions)
from spacy_deid.anonymize.anonymizer import Anonymizer, validate_strategies
from spacy_deid.chunking import anonymizer_names, process_long
from spacy_deid.cli.manifest import safe_language_check
from spacy_deid.cli.readers import Record


def pipeline_exists(name: str) -> bool:
    """Whether `name` is an installed pipeline package or a pipeline folder."""
    return spacy.util.is_package(name) or (Path(name) / "config.cfg").is_file()


def load_pipeline(name: str) -> tuple[Language, Anonymizer]:
    """The pipeline and its `deid_anonymizer` component; a usage error if either is
    missing."""
    if not pipeline_exists(name):
        raise typer.BadParameter(
            f"no pipeline {name!r}: give an installed package (e.g. xx_deid_de) or a "
            "pipeline folder", param_hint="--pipeline",
        )
    nlp = spacy.load(name)
    names = anonymizer_names(nlp)
    if not names:
        raise typer.BadParameter(
            f"the pipeline {name!r} has no deid_anonymizer component, so it would not "
            "anonymize anything", param_hint="--pipeline",
        )
    return nlp, nlp.get_pipe(names[-1])


def parse_strategies(values: Iterable[str]) -> dict[str, str]:
    """`LABEL=STRATEGY` options as a dict, checked like the anonymizer's own setting."""
    strategies: dict[str, str] = {}
    for value in values:
        label, sep, strategy = value.partition("=")
        if not sep:
            raise typer.BadParameter(f"{value!r} is not LABEL=STRATEGY", param_hint="--strategy")
        strategies[label.strip()] = strategy.strip()
    try:
        validate_strategies(strategies)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--strategy") from None
    return strategies


def configure_anonymizer(anonymizer: Anonymizer, strategies: dict[str, str], reversible: bool
                         ) -> dict[str, str]:
    """Apply `--strategy` overrides on top of the pipeline's own table (validated the way
    the component validates its config) and the reversible flag; returns the full table."""
    anonymizer.strategies = validate_strategies({**anonymizer.strategies, **strategies})
    anonymizer.reversible = reversible
    return dict(anonymizer.strategies)


@dataclass
class Summary:
    """What a run keeps of one processed document (no original text but in `replacements`
    with a reversible anonymizer, where the encrypted mapping needs it)."""

    text: str
    characters: int
    replacements: list[dict]
    labels: dict[str, int]
    language_check: object


@dataclass
class Outcome:
    """One record after processing: its Doc (or, from a worker process, only its
    `summary`), or an error; seconds it took (with batching, the time since the previous
    result)."""

    record: Record
    doc: Doc | None = None
    error: str | None = None
    seconds: float = 0.0
    long: bool = False
    summary: Summary | None = None

    def summarize(self, anonymizer: Anonymizer) -> Summary:
        """The summary of the processed document (made from the Doc where there is one)."""
        if self.summary is None:
            self.summary = summarize(anonymizer, self.doc)
        return self.summary


class ErrorCollector:
    """An error handler for `nlp.set_error_handler`: remembers which component failed on
    which document (by its context) instead of stopping the run."""

    def __init__(self) -> None:
        self.errors: dict[int, str] = {}

    def install(self, nlp: Language) -> None:
        """Handle errors of the pipeline and of every component that takes a handler
        (`nlp.set_error_handler` itself stops at Cython components such as `ner`, which
        cannot take one: their errors still stop the run)."""
        nlp.default_error_handler = self
        for _, component in nlp.pipeline:
            if hasattr(component, "set_error_handler"):
                with contextlib.suppress(AttributeError):
                    component.set_error_handler(self)

    def __call__(self, name, proc, docs, error) -> None:
        for doc in docs or []:
            context = getattr(doc, "_context", None)
            if isinstance(context, int):
                self.errors[context] = f"{name} failed ({type(error).__name__})"


def annotate(nlp: Language, records: Iterable[Record], key_for: Callable[[Record], str],
             *, batch_size: int | None = None, max_chars: int,
             context_chars: int) -> Iterator[Outcome]:
    """Process `records` in order (see the module docstring); records with an error pass
    through untouched."""
    max_chars = min(max_chars, nlp.max_length)
    collector = ErrorCollector()
    collector.install(nlp)

    def is_short(record: Record) -> bool:
        return record.error is None and len(record.text) <= max_chars

    def make(record: Record) -> Doc:
        doc = nlp.tokenizer(record.text)
        doc._.deid_secret_key = key_for(record)
        return doc

    mine, fed = tee(records)
    to_pipe = ((make(r), seq) for seq, r in enumerate(fed) if is_short(r))
    results = nlp.pipe(to_pipe, as_tuples=True, batch_size=batch_size)
    pending = next(results, None)
    last = time.perf_counter()
    for seq, record in enumerate(mine):
        outcome = Outcome(record, error=record.error)
        if record.error is None and not is_short(record):
            outcome.long = True
            try:
                outcome.doc = process_long(nlp, make(record), max_chars, context_chars)
            except Exception as error:  # a component's failure on one document
                outcome.error = f"processing failed ({type(error).__name__})"
        elif record.error is None:
            if pending is not None and pending[1] == seq:
                outcome.doc = pending[0]
                pending = next(results, None)
            else:
                outcome.error = collector.errors.pop(seq, "the pipeline failed on it")
        current = time.perf_counter()
        outcome.seconds, last = current - last, current
        yield outcome


# The loaded pipeline and settings that forked workers inherit (set before the pool starts).
_WORKER_STATE: dict = {}


def _annotate_batch(batch: list[Record]) -> list[tuple[str | None, Summary | None, float, bool]]:
    """In a worker: process a batch and return (error, summary, seconds, long) per record."""
    nlp, anonymizer, key_for, settings = _WORKER_STATE["state"]
    return [(o.error, o.summarize(anonymizer) if o.doc is not None else None, o.seconds, o.long)
            for o in annotate(nlp, batch, key_for, **settings)]


def annotate_in_processes(nlp: Language, anonymizer: Anonymizer, records: Iterable[Record],
                          key_for: Callable[[Record], str], *, n_process: int,
                          batch_size: int | None = None, max_chars: int,
                          context_chars: int) -> Iterator[Outcome]:
    """`annotate` in `n_process` forked workers, batch by batch, results in input order.
    Records are read as the batches are handed out, at most two batches per worker ahead,
    so memory stays bounded on a large input."""
    size = batch_size or nlp.batch_size
    settings = {"max_chars": max_chars, "context_chars": context_chars}
    _WORKER_STATE["state"] = (nlp, anonymizer, key_for, settings)
    records = iter(records)
    try:
        with multiprocessing.get_context("fork").Pool(n_process) as pool:
            window: deque = deque()
            while True:
                batch = list(islice(records, size))
                if batch:
                    window.append((batch, pool.apply_async(_annotate_batch, (batch,))))
                if window and (not batch or len(window) > 2 * n_process):
                    done, pending = window.popleft()
                    for record, (error, summary, seconds, long) in zip(done, pending.get(),
                                                                        strict=True):
                        yield Outcome(record, error=error, seconds=seconds, long=long,
                                      summary=summary)
                if not batch and not window:
                    return
    finally:
        _WORKER_STATE.clear()


def summarize(anonymizer: Anonymizer, doc: Doc) -> Summary:
    """The `Summary` of a processed Doc."""
    return Summary(text=doc._.deid_text, characters=len(doc.text),
                   replacements=list(doc._.deid_replacements or []),
                   labels=label_counts(anonymizer, doc), language_check=language_check(doc))


def label_counts(anonymizer: Anonymizer, doc: Doc) -> dict[str, int]:
    """Spans per label that the anonymizer acted on (merged, as it merges them)."""
    return dict(sorted(Counter(span.label for span in anonymizer.spans(doc)).items()))


def language_check(doc: Doc) -> object:
    """`doc._.deid_language` where a component sets it (reduced to safe values), else None."""
    if not Doc.has_extension("deid_language"):
        return None
    return safe_language_check(getattr(doc._, "deid_language", None))
