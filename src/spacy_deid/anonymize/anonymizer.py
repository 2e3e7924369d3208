"""The `deid_anonymizer` component: detected PHI -> shareable text.

Reads `doc.ents` and, if present, the spans in `doc.spans["deid_candidates"]`, and writes
`doc._.deid_text` (the anonymized text) and `doc._.deid_replacements` (one dict per
replaced span: `label`, `strategy`, `start`/`end` in the original, `out_start`/`out_end`
in the output, `surrogate`, and `original` only when `reversible` is set). Original
strings are never logged. A caller may set `doc._.deid_secret_key` to give one Doc its own
key (e.g. one per patient, as `spacy-deid run --patient-field` does).

Strategies per label: `surrogate` (realistic, consistent stand-ins, see
`spacy_deid.surrogates`), `mask` (every non-space character -> `*`), `redact` (removed),
`tag` (`[NAME_PATIENT]`), `keep`. Defaults (`DEFAULT_STRATEGIES`): `surrogate` for every
label except `AGE` (`keep`: an age alone rarely identifies; with `age_group_over` set,
ages above it are still written as e.g. `90+`) and `OTHER` (`tag`: no realistic stand-in
exists for an unknown kind of identifier).

Markup rule: a span is first trimmed of the HTML/XML tags, character entities, control and
invisible characters and white space at its edges (`spacy_deid.lang.markup.trim_span`), and a
span of nothing else is dropped: the anonymizer rewrites only the characters of detected
spans, and never markup (`<b>Anna</b>` keeps its tags around the surrogate).

Empty or white-space-only text gives `doc._.deid_text` equal to the text and no
replacements.

Overlap rule: spans from all sources that overlap or nest are merged into one span
covering their union, so no character of any detected span survives; the merged span
takes the label of its longest member (ties: `doc.ents` before candidates, then the
order of `PHI_LABELS`). Labels outside the PHI schema (e.g. Presidio's `PERSON`) are
mapped by `spacy_deid.schema.fine_label` (unknown kinds become `ID`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc

from spacy_deid.anonymize.surrogates import SurrogateGenerator, group_age
from spacy_deid.anonymize.surrogates.shapes import mask
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.markup import trim_span
from spacy_deid.schema import PERSON_LABELS, PHI_LABELS, fine_label, validate_label

STRATEGIES: tuple[str, ...] = ("surrogate", "mask", "redact", "tag", "keep")
DEFAULT_STRATEGIES: dict[str, str] = {
    **{label: "surrogate" for label in PHI_LABELS},
    "AGE": "keep",
    "OTHER": "tag",
}
CANDIDATES_KEY = "deid_candidates"
CONTEXT_BEFORE, CONTEXT_AFTER = 60, 30


@dataclass(frozen=True)
class PhiSpan:
    """A span to replace, by character offsets into the original text."""

    start: int
    end: int
    label: str


def merge_spans(spans: list[tuple[int, int, str]]) -> list[PhiSpan]:
    """Merge overlapping spans (given in priority order) into their unions (module doc)."""
    ranked = [
        (start, end, fine_label(label), rank)
        for rank, (start, end, label) in enumerate(spans)
        if end > start
    ]
    ranked.sort()
    merged: list[PhiSpan] = []
    group: list[tuple[int, int, str, int]] = []
    group_end = 0

    def close() -> None:
        best = min(group, key=lambda s: (-(s[1] - s[0]), s[3], PHI_LABELS.index(s[2])))
        merged.append(PhiSpan(group[0][0], group_end, best[2]))

    for span in ranked:
        if group and span[0] >= group_end:
            close()
            group = []
        group_end = max(group_end, span[1]) if group else span[1]
        group.append(span)
    if group:
        close()
    return merged


def resolve_secret_key(secret_key: str | None) -> str | None:
    """The key itself, or the value of an environment variable for `env:NAME`, so that
    a packaged pipeline need not store its key in `config.cfg`."""
    if secret_key and secret_key.startswith("env:"):
        name = secret_key[len("env:") :]
        value = os.environ.get(name)
        if not value:
            raise ValueError(
                f"deid_anonymizer: secret_key names environment variable {name!r}, which is not set"
            )
        return value
    return secret_key or None


def validate_strategies(strategies: dict[str, str]) -> dict[str, str]:
    """The full label -> strategy table: defaults overridden by `strategies` (checked)."""
    table = dict(DEFAULT_STRATEGIES)
    for label, strategy in strategies.items():
        try:
            validate_label(label)
        except ValueError as error:
            raise ValueError(f"deid_anonymizer setting 'strategies': {error}") from None
        if strategy not in STRATEGIES:
            raise ValueError(
                f"deid_anonymizer setting 'strategies': unknown strategy "
                f"{strategy!r} for {label}; choose one of {', '.join(STRATEGIES)}"
            )
        table[label] = strategy
    return table


class Anonymizer:
    """Replace the PHI spans of a Doc by strategy; see the module docstring."""

    def __init__(
        self,
        lang: str,
        strategies: dict[str, str],
        seed: int = 0,
        secret_key: str | None = None,
        reversible: bool = False,
        age_group_over: int | None = None,
    ) -> None:
        try:
            self.lang = validate_language(lang)
        except ValueError as error:
            raise ValueError(f"deid_anonymizer setting 'lang': {error}") from None
        if age_group_over is not None and age_group_over < 0:
            raise ValueError("deid_anonymizer setting 'age_group_over' must be >= 0 or null")
        self.strategies = validate_strategies(strategies)
        self.reversible = reversible
        self.age_group_over = age_group_over
        self.generator = SurrogateGenerator(
            lang,
            seed=seed,
            secret_key=resolve_secret_key(secret_key),
            age_group_over=age_group_over,
        )

    def spans(self, doc: Doc) -> list[PhiSpan]:
        """The document's PHI spans, from `doc.ents` then the candidates, trimmed of markup
        at their edges and merged (module docstring)."""
        raw = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        if CANDIDATES_KEY in doc.spans:
            raw += [(s.start_char, s.end_char, s.label_) for s in doc.spans[CANDIDATES_KEY]]
        text = doc.text
        return merge_spans([(*trim_span(text, start, end), label)
                            for start, end, label in raw])

    def replace_all(
        self, text: str, spans: list[PhiSpan], secret_key: str | None = None
    ) -> dict[PhiSpan, str]:
        """The replacement for every span; names with most words first, so a full name
        teaches the roles (first name / surname) used for the short mentions. `secret_key`
        replaces the component's key for this text (see `__call__`)."""
        session = self.generator.new_document(doc_key=text, secret_key=secret_key)
        session.avoid([text[s.start : s.end] for s in spans])
        order = sorted(
            spans,
            key=lambda s: (
                s.label not in PERSON_LABELS,
                -len(text[s.start : s.end].split()),
                s.start,
            ),
        )
        out: dict[PhiSpan, str] = {}
        for span in order:
            original = text[span.start : span.end]
            strategy = self.strategies[span.label]
            if strategy == "keep":
                out[span] = (
                    group_age(original, self.age_group_over) if span.label == "AGE" else original
                )
            elif strategy == "tag":
                out[span] = f"[{span.label}]"
            elif strategy == "mask":
                out[span] = mask(original)
            elif strategy == "redact":
                out[span] = ""
            else:
                context = text[max(0, span.start - CONTEXT_BEFORE) : span.end + CONTEXT_AFTER]
                out[span] = session.surrogate(original, span.label, context)
        return out

    def __call__(self, doc: Doc) -> Doc:
        """Anonymize `doc`. A key in `doc._.deid_secret_key` (e.g. one per patient, set by
        the caller) is used for this Doc instead of the component's `secret_key`, then
        cleared, so that the key is not saved or sent on with the Doc."""
        text = doc.text
        spans = self.spans(doc)
        document_key = doc._.deid_secret_key
        doc._.deid_secret_key = None
        replacements = self.replace_all(text, spans, secret_key=document_key)
        pieces: list[str] = []
        records: list[dict] = []
        cursor = out_length = 0
        for span in spans:
            new = replacements[span]
            pieces.append(text[cursor : span.start])
            out_length += span.start - cursor
            original = text[span.start : span.end]
            if new != original or self.strategies[span.label] != "keep":
                record = {
                    "label": span.label,
                    "strategy": self.strategies[span.label],
                    "start": span.start,
                    "end": span.end,
                    "out_start": out_length,
                    "out_end": out_length + len(new),
                    "surrogate": new,
                }
                if self.reversible:
                    record["original"] = original
                records.append(record)
            pieces.append(new)
            out_length += len(new)
            cursor = span.end
        pieces.append(text[cursor:])
        doc._.deid_text = "".join(pieces)
        doc._.deid_replacements = records
        return doc


@Language.factory(
    "deid_anonymizer",
    assigns=["doc._.deid_text", "doc._.deid_replacements"],
    requires=["doc.ents"],
    default_config={
        "lang": None,
        "strategies": {},
        "seed": 0,
        "secret_key": None,
        "reversible": False,
        "age_group_over": None,
    },
)
def make_anonymizer(
    nlp: Language,
    name: str,
    lang: str | None,
    strategies: dict[str, str],
    seed: int,
    secret_key: str | None,
    reversible: bool,
    age_group_over: int | None,
) -> Anonymizer:
    """Factory of `deid_anonymizer`. `lang` (one of LANGUAGES; null: the pipeline's
    tokenizer language), `strategies` (label -> surrogate/mask/redact/tag/keep; others take
    `DEFAULT_STRATEGIES`), `seed`, `secret_key` (keyed, cross-document consistent
    surrogates; `env:NAME` reads it from the environment), `reversible` (keep originals
    in `doc._.deid_replacements`), `age_group_over` (e.g. 89: ages above as "90+")."""
    resolved = pipeline_language(nlp, lang, "deid_anonymizer")
    return Anonymizer(
        resolved,
        strategies,
        seed=seed,
        secret_key=secret_key,
        reversible=reversible,
        age_group_over=age_group_over,
    )
