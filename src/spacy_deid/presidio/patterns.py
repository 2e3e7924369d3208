"""spaCy component `deid_presidio_patterns`: Presidio's pattern recognizers inside a pipeline.

The component runs a real Presidio `AnalyzerEngine` over the document with the
recognizers of `spacy_deid.presidio.recognizers.build_recognizers(lang)` (Presidio's
predefined phone / e-mail / URL / IBAN / IP / credit-card and country-specific
recognizers, plus the project's own date, postal-code, case-number and dictation-sign
patterns).
No Presidio NLP model is loaded: the spaCy Doc itself supplies the tokens that
Presidio's context enhancer reads, so nothing is downloaded.

Results are mapped to the fine PHI labels (PHONE_NUMBER -> CONTACT_PHONE, or
CONTACT_FAX when a fax word is the nearest cue before the number) and merged with
the entities already in `doc.ents` (from the statistical NER) under the merge policy:

* `score_threshold`: a Presidio result counts only if its score, after context
  enhancement (+0.35 when a context word of its recognizer is among the
  `context_window` words before it), is at least this value.
* Overlaps among Presidio results: the higher score wins, then the longer span.
* Overlaps with existing entities, by `merge_policy`, the name of a policy in the
  `spacy_deid.presidio.merge_policies` registry (users can register their own):
  - `ner_first` (default): an existing entity wins; a Presidio span is added only
    where it overlaps no entity, unless its score is at least `override_score`
    (checksum-validated or unambiguous matches such as e-mail addresses score 1.0),
    in which case it replaces the entities it overlaps;
  - `patterns_first`: a Presidio span replaces every entity it overlaps;
  - `longest`: the longer span (in characters) wins; a tie keeps the entity.
* `context_words`: extra context words per fine label, added to the recognizers'
  own (localized) context words.
* `labels`: the fine labels the component may add (empty: all it can produce).
* `phone_score` / `possible_phone_score`: the score of a phone number that is valid in
  the numbering plan of the language's country / that only has a possible shape.

Every entity the component adds carries its Presidio score in `span._.deid_score`.
"""

from __future__ import annotations

import warnings
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts, NoOpNlpEngine
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from spacy_deid.detect.entities import merge_entities
from spacy_deid.extensions import register_extensions
from spacy_deid.lang import pipeline_language
from spacy_deid.presidio.context import IndexedContextEnhancer
from spacy_deid.presidio.merge_policies import resolve_merge_policy
from spacy_deid.presidio.recognizers import (
    PHONE_ENTITY,
    build_recognizers,
    fax_words,
    normalize_digits,
    phone_words,
)
from spacy_deid.schema import fine_label, validate_label

# Labels this component can produce.
PATTERN_LABELS: tuple[str, ...] = ("DATE", "ID", "CONTACT_PHONE", "CONTACT_FAX",
                                   "CONTACT_EMAIL", "CONTACT_URL", "LOCATION_ZIP",
                                   "LOCATION_STREET", "LOCATION_HOSPITAL", "NAME_USERNAME", "AGE")

# How far back (in characters, on the same line) a fax or phone word is looked for.
FAX_LOOKBACK_CHARS = 40

DEFAULT_CONFIG = {
    "lang": None,
    "merge_policy": "ner_first",
    "score_threshold": 0.4,
    "override_score": 1.0,
    "context_window": 5,
    "context_words": {},
    "labels": [],
    "phone_score": 0.4,
    "possible_phone_score": 0.2,
}


@dataclass(frozen=True)
class Detection:
    """One Presidio result mapped to a fine label, by character offsets."""

    start: int
    end: int
    label: str
    score: float
    entity_type: str

    @property
    def length(self) -> int:
        return self.end - self.start


class DocNlpEngine(NoOpNlpEngine):
    """A model-free Presidio NLP engine: tokens come from the spaCy Doc being processed.

    Only `is_punct` differs from Presidio's no-op engine, so that punctuation tokens
    do not use up the context window.
    """

    def is_punct(self, word: str, language: str) -> bool:  # noqa: D102
        return bool(word) and not any(char.isalnum() for char in word)


def _config_error(setting: str, message: str) -> ValueError:
    return ValueError(f"deid_presidio_patterns: setting {setting!r}: {message}")


def _validate_labels(setting: str, labels: Iterable[str]) -> list[str]:
    checked = []
    for label in labels:
        try:
            checked.append(validate_label(label))
        except ValueError as error:
            raise _config_error(setting, str(error)) from None
    return checked


class PresidioPatterns:
    """Runs Presidio recognizers on a Doc and merges their results into `doc.ents`."""

    def __init__(self, nlp: Language, name: str, lang: str, merge_policy: str = "ner_first",
                 score_threshold: float = 0.4, override_score: float = 1.0,
                 context_window: int = 5, context_words: dict[str, list[str]] | None = None,
                 labels: list[str] | None = None, phone_score: float = 0.4,
                 possible_phone_score: float = 0.2) -> None:
        register_extensions()
        self.pattern_wins = resolve_merge_policy(merge_policy, override_score)
        if not 0.0 <= score_threshold <= 1.0:
            raise _config_error("score_threshold", f"{score_threshold} is not in [0, 1]")
        if context_window < 0:
            raise _config_error("context_window", f"{context_window} is negative")
        for setting, value in (("override_score", override_score), ("phone_score", phone_score),
                               ("possible_phone_score", possible_phone_score)):
            if value < 0.0:
                raise _config_error(setting, f"{value} is negative")
        context_words = dict(context_words or {})
        _validate_labels("context_words", context_words)
        wanted = _validate_labels("labels", labels or [])
        unknown = sorted(set(wanted) - set(PATTERN_LABELS))
        if unknown:
            raise _config_error("labels", f"{', '.join(unknown)} cannot be produced by "
                                f"patterns; possible: {', '.join(PATTERN_LABELS)}")
        self.name = name
        self.lang = pipeline_language(nlp, lang, "deid_presidio_patterns")
        self.merge_policy = merge_policy
        self.score_threshold = score_threshold
        self.override_score = override_score
        self.labels = tuple(sorted(set(wanted or PATTERN_LABELS)))  # sorted: the meta lists them
        self.fax_words = tuple(fax_words(self.lang))
        self.phone_words = tuple(phone_words(self.lang))
        self.analyzer = self._build_analyzer(context_window, context_words, phone_score,
                                             possible_phone_score)

    def _build_analyzer(self, context_window: int, context_words: dict[str, list[str]],
                        phone_score: float, possible_phone_score: float) -> AnalyzerEngine:
        recognizers = build_recognizers(self.lang, phone_score, possible_phone_score,
                                        context_words)
        registry = RecognizerRegistry(recognizers=recognizers, supported_languages=[self.lang])
        self.nlp_engine = DocNlpEngine(models=[{"lang_code": self.lang, "model_name": "doc"}])
        self.nlp_engine.load()
        enhancer = IndexedContextEnhancer(context_prefix_count=context_window,
                                          context_suffix_count=0)
        with warnings.catch_warnings():
            # Presidio warns that a no-op engine has no tokens; ours takes them from the Doc.
            warnings.filterwarnings("ignore", message="LemmaContextAwareEnhancer cannot use")
            return AnalyzerEngine(registry=registry, nlp_engine=self.nlp_engine,
                                  supported_languages=[self.lang],
                                  context_aware_enhancer=enhancer)

    def _artifacts(self, doc: Doc) -> NlpArtifacts:
        """Presidio NLP artifacts from the Doc's own tokens (lowercase forms as lemmas)."""
        return NlpArtifacts(entities=[], tokens=doc, tokens_indices=[t.idx for t in doc],
                            lemmas=[t.lower_ for t in doc], nlp_engine=self.nlp_engine,
                            language=self.lang)

    def analyze(self, doc: Doc) -> list[RecognizerResult]:
        """Presidio's results on the Doc's text, above the score threshold."""
        if not doc.text.strip():
            return []
        return self.analyzer.analyze(normalize_digits(doc.text), language=self.lang,
                                     nlp_artifacts=self._artifacts(doc),
                                     score_threshold=self.score_threshold)

    def phone_or_fax(self, text: str, start: int, previous_end: int) -> str:
        """CONTACT_FAX if a fax word is the nearest cue before `start`, else CONTACT_PHONE."""
        line_start = text.rfind("\n", 0, start) + 1
        window = text[max(line_start, previous_end, start - FAX_LOOKBACK_CHARS):start].lower()
        last_fax = max((window.rfind(word) for word in self.fax_words), default=-1)
        last_phone = max((window.rfind(word) for word in self.phone_words), default=-1)
        return "CONTACT_FAX" if last_fax > last_phone else "CONTACT_PHONE"

    def detections(self, doc: Doc) -> list[Detection]:
        """Non-overlapping Presidio detections with fine labels, in text order."""
        chosen = choose_non_overlapping(self.analyze(doc))
        text = doc.text
        detections = []
        previous_phone_end = 0
        for result in chosen:
            label = fine_label(result.entity_type)
            if result.entity_type == PHONE_ENTITY:
                label = self.phone_or_fax(text, result.start, previous_phone_end)
                previous_phone_end = result.end
            if label in self.labels:
                detections.append(Detection(result.start, result.end, label,
                                            round(result.score, 4), result.entity_type))
        return detections

    def spans(self, doc: Doc) -> list[Span]:
        """The detections as token-aligned spans (expanded to token edges if needed)."""
        spans = []
        for detection in self.detections(doc):
            span = doc.char_span(detection.start, detection.end, label=detection.label)
            if span is None:
                span = doc.char_span(detection.start, detection.end, label=detection.label,
                                     alignment_mode="expand")
            if span is not None and len(span) > 0:
                spans.append(span)
                span._.deid_score = detection.score
        return filter_spans(spans)

    def merge(self, existing: Iterable[Span], found: Iterable[Span]) -> list[Span]:
        """Merge detected spans into existing entities under the configured merge policy."""
        return merge_entities(existing, found, self.pattern_wins)

    def __call__(self, doc: Doc) -> Doc:
        found = self.spans(doc)
        if found:
            doc.ents = self.merge(doc.ents, found)
        return doc


def choose_non_overlapping(results: Iterable[RecognizerResult]) -> list[RecognizerResult]:
    """The results that overlap no better one, in text order: the higher score wins, then
    the longer span, then the earlier one. Empty results are left out. The chosen spans are
    kept sorted, so each overlap test is a bisection."""
    ranked = sorted((r for r in results if r.end > r.start),
                    key=lambda r: (-r.score, -(r.end - r.start), r.start))
    starts: list[int] = []
    chosen: list[RecognizerResult] = []
    for result in ranked:
        # Chosen spans do not overlap, so their ends rise with their starts: the one that
        # starts last before this result ends is the only one that may reach into it.
        index = bisect_left(starts, result.end)
        if index and chosen[index - 1].end > result.start:
            continue
        starts.insert(index, result.start)
        chosen.insert(index, result)
    return chosen


@Language.factory("deid_presidio_patterns", default_config=DEFAULT_CONFIG,
                  assigns=["doc.ents", "span._.deid_score"], requires=["doc.ents"])
def make_presidio_patterns(nlp: Language, name: str, lang: str | None, merge_policy: str,
                           score_threshold: float, override_score: float, context_window: int,
                           context_words: dict[str, list[str]], labels: list[str],
                           phone_score: float, possible_phone_score: float) -> PresidioPatterns:
    """Factory of `deid_presidio_patterns` (see the module docstring for the settings)."""
    return PresidioPatterns(nlp, name, lang, merge_policy, score_threshold, override_score,
                            context_window, context_words, labels, phone_score,
                            possible_phone_score)
