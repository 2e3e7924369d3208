"""spacy-llm task: translate an annotated Doc and keep every annotation.

Registered as `spacy_deid.AnnotatedTranslation.v1` in spacy-llm's `llm_tasks`
registry; it reproduces the MultiGraSCCo method (shared docs/translation.md):
the source Doc's entities are written as inline tags (`<DATE>4.4.1997</DATE>`),
the model is asked to translate text inside and outside the tags and to adapt
names, places and formats to the target country, and the answer is checked:

- the translation is wrapped in exactly one `<translation>` element and nothing
  but white space stands before or after it (no chatter);
- tags are well-formed, not nested, and use only the configured labels;
- every label occurs as often as in the source;
- every new span aligns to the target language's tokens.

A failing answer is asked again, with the reason fed back to the model, up to
`max_retries` times; then the document is marked failed with every reason. No
entity is ever dropped silently.

How the result is returned: spacy-llm's `llm` component hands the *source* Doc
through the pipeline, and its on-disk cache keys documents by their tokens, so
the task leaves the source Doc unchanged and stores the outcome as a JSON-able
dict in `doc._.deid_translation` (status, target text, target spans, attempts,
errors). The cache persists that dict, so a rerun is free and offline.
`AnnotatedTranslationTask.target_doc(doc)` (or `target_doc(doc)` given a target
tokenizer) then builds the target-language Doc, tokenized by
`spacy_deid.Tokenizer.v1`, with the spans at their new offsets.

Retries: the `llm` component calls the model once per document; the task makes
the further calls itself through `retry_model`, which is the same model block
(in a config: `retry_model = ${components.llm.model}`). So the cache stores only
final outcomes. A model error (timeout, HTTP failure after the model's own
backoff) propagates: the document is not cached and a rerun asks again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

# spacy-llm checks the hook signatures with `typing` generics (it reads `Iterable._name`).
from typing import Iterable as TypingIterable  # noqa: UP035

import spacy
from spacy.tokens import Doc
from spacy_llm.registry import registry

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.profile import language_profile
from spacy_deid.schema import NAME_LABELS, PHI_LABELS
from spacy_deid.translate.alignment import AlignmentReport, doc_char_spans, make_doc
from spacy_deid.translate.inline_tags import (
    CharSpan,
    InlineTagError,
    parse_inline_tags,
    render_inline_tags,
)

EXTENSION = "deid_translation"
# People and places that the method replaces with target-country equivalents.
REPLACED_LABELS: frozenset[str] = NAME_LABELS - {"NAME_TITLE"} | {
    "LOCATION_STREET", "LOCATION_CITY", "LOCATION_HOSPITAL", "LOCATION_ORGANIZATION"}
OPEN_MARK = "<translation>"
CLOSE_MARK = "</translation>"
PROMPT_VERSION = "spacy_deid.AnnotatedTranslation.v1/prompt-1"

# English names of languages, for the prompt; codes not listed are used as they are.
LANGUAGE_NAMES: dict[str, str] = {
    "de": "German", "en": "English", "fr": "French", "it": "Italian", "pl": "Polish",
    "ru": "Russian", "uk": "Ukrainian", "tr": "Turkish", "ar": "Arabic", "fa": "Persian",
    "es": "Spanish", "pt": "Portuguese", "nl": "Dutch", "cs": "Czech", "sk": "Slovak",
    "sl": "Slovenian", "hr": "Croatian", "sr": "Serbian", "bg": "Bulgarian", "ro": "Romanian",
    "hu": "Hungarian", "el": "Greek", "sv": "Swedish", "da": "Danish", "nb": "Norwegian",
    "fi": "Finnish", "et": "Estonian", "lv": "Latvian", "lt": "Lithuanian", "he": "Hebrew",
    "ja": "Japanese", "zh": "Chinese", "ko": "Korean", "hi": "Hindi", "ur": "Urdu",
}

# The method's rules, with {source_name}, {target_name} and {country} to fill in.
INSTRUCTIONS = (resources.files("spacy_deid.translate").joinpath("instructions.txt")
                .read_text(encoding="utf-8").rstrip("\n"))

DOCUMENT_FRAME = "\n\nThe document:\n<document>\n{tagged}\n</document>"

FEEDBACK_FRAME = (
    "\n\nYour previous translation of this document was rejected: {error}\n"
    "Translate the document again and follow every rule."
)


class TranslationAnswerError(ValueError):
    """An LLM answer that cannot be accepted; the message says why (positions and labels only)."""


@dataclass
class TranslationOutcome:
    """What became of one document: the accepted translation or every reason it failed."""

    status: str
    source_lang: str
    target_lang: str
    target_country: str
    source_counts: dict[str, int]
    source_spans: list[list[Any]] = field(default_factory=list)
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    text: str | None = None
    spans: list[list[Any]] = field(default_factory=list)
    alignment: dict[str, int] = field(default_factory=dict)
    unchanged_entities: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (msgpack/JSON-able, so spacy-llm's DocBin cache keeps it)."""
        return {
            "status": self.status, "source_lang": self.source_lang,
            "target_lang": self.target_lang, "target_country": self.target_country,
            "source_counts": dict(self.source_counts),
            "source_spans": [list(span) for span in self.source_spans], "attempts": self.attempts,
            "retries": max(self.attempts - 1, 0), "errors": list(self.errors),
            "text": self.text, "spans": [list(span) for span in self.spans],
            "alignment": dict(self.alignment), "unchanged_entities": self.unchanged_entities,
        }


def unchanged_entities(doc: Doc, text: str, spans: Iterable[CharSpan]) -> int:
    """How many translated people and places kept a source form of the same label.

    The method asks for new names and places; this count is reported, not rejected (a
    city may legitimately stay, e.g. a real hospital town), so reviewers can look.
    """
    replaceable = {(ent.text, ent.label_) for ent in doc.ents if ent.label_ in REPLACED_LABELS}
    return sum((text[span.start:span.end], span.label) in replaceable for span in spans)


def language_name(lang: str) -> str:
    """English name of a language code for the prompt (the code itself if unknown)."""
    return LANGUAGE_NAMES.get(lang, lang)


def doc_name(doc: Doc) -> str:
    """A document's name for messages: its `doc_id` from the converters, else "<doc>"."""
    return str(doc.user_data.get("doc_id", "<doc>"))


def source_span_list(doc: Doc) -> list[list[Any]]:
    """The source entities as [start, end, label] lists (as stored in the record)."""
    return [[span.start, span.end, span.label] for span in doc_char_spans(doc)]


def record_matches_source(record: dict[str, Any] | None, doc: Doc) -> bool:
    """Whether a (possibly cached) record was made for exactly this Doc's entities.

    spacy-llm's cache keys documents by their tokens only; a source whose annotations
    changed since would otherwise get a stale translation.
    """
    if not record:
        return False
    stored = [[int(start), int(end), str(label)] for start, end, label in
              record.get("source_spans", ())]
    return stored == source_span_list(doc)


def source_tagged_text(doc: Doc) -> str:
    """The source Doc's text with its entities written as inline tags."""
    return render_inline_tags(doc.text, doc_char_spans(doc), source=doc_name(doc))


def extract_translation(answer: str) -> str:
    """The text inside the single `<translation>` element; chatter around it is an error."""
    opened = answer.find(OPEN_MARK)
    closed = answer.rfind(CLOSE_MARK)
    if opened < 0 or closed < 0 or closed < opened:
        raise TranslationAnswerError(
            f"the answer is not enclosed in {OPEN_MARK} ... {CLOSE_MARK}")
    if answer[:opened].strip():
        raise TranslationAnswerError(
            f"the answer has {len(answer[:opened].strip())} characters of text before "
            f"{OPEN_MARK}; write the translation only")
    if answer[closed + len(CLOSE_MARK):].strip():
        raise TranslationAnswerError(
            f"the answer has {len(answer[closed + len(CLOSE_MARK):].strip())} characters of "
            f"text after {CLOSE_MARK}; write the translation only")
    inner = answer[opened + len(OPEN_MARK):closed]
    if OPEN_MARK in inner or CLOSE_MARK in inner:
        raise TranslationAnswerError(f"the answer has more than one {OPEN_MARK} element")
    return _strip_frame_newlines(inner)


def _strip_frame_newlines(inner: str) -> str:
    """Drop the one line break that follows `<translation>` and the one before its end."""
    if inner.startswith("\r\n"):
        inner = inner[2:]
    elif inner.startswith("\n"):
        inner = inner[1:]
    if inner.endswith("\r\n"):
        inner = inner[:-2]
    elif inner.endswith("\n"):
        inner = inner[:-1]
    return inner


def label_count_errors(source: Counter, target: Counter) -> list[str]:
    """One message per label whose span count differs between source and translation."""
    return [f"<{label}> occurs {source[label]} times in the source but {target[label]} times "
            f"in the translation" for label in sorted(set(source) | set(target))
            if source[label] != target[label]]


def check_answer(answer: str, source_counts: Counter, labels: Iterable[str],
                 source: str = "<answer>") -> tuple[str, list[CharSpan]]:
    """Validate an answer; return the translated plain text and its spans, or raise why not."""
    inner = extract_translation(answer)
    try:
        text, spans = parse_inline_tags(inner, source=source, labels=labels)
    except InlineTagError as error:
        raise TranslationAnswerError(f"malformed tags at {error}") from error
    mismatches = label_count_errors(source_counts, Counter(span.label for span in spans))
    if mismatches:
        raise TranslationAnswerError("; ".join(mismatches))
    return text, spans


def _alignment_dict(report: AlignmentReport) -> dict[str, int]:
    return {"kept": report.kept, "adjusted": report.adjusted, "lost": report.lost}


def blank_for_language(lang: str) -> spacy.Language:
    """A blank pipeline with `lang`'s tokenizer: spacy_deid.Tokenizer.v1 for our ten languages,
    spaCy's own language class for any other."""
    if lang in LANGUAGES:
        return spacy.blank("xx", config={"nlp": {"tokenizer": {
            "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    try:
        return spacy.blank(lang)
    except ImportError as error:
        raise ValueError(f"spacy_deid.AnnotatedTranslation.v1: no spaCy tokenizer for "
                         f"target_lang {lang!r}") from error


def target_doc(record: dict[str, Any], tokenizer: Callable[[str], Doc],
               name: str = "<doc>") -> Doc:
    """Build the target-language Doc from a `deid_translation` record (status must be "ok")."""
    if not record or record.get("status") != "ok":
        raise ValueError(f"{name}: no accepted translation (status "
                         f"{(record or {}).get('status')!r})")
    spans = [CharSpan(int(start), int(end), str(label)) for start, end, label in record["spans"]]
    doc, report = make_doc(tokenizer, record["text"], spans, source=name)
    if report.lost:
        raise ValueError(f"{name}: {report.lost} translated spans do not align to tokens: "
                         f"{', '.join(report.lost_positions)}")
    doc.user_data["lang"] = record["target_lang"]
    if name != "<doc>":
        doc.user_data["doc_id"] = name
    return doc


class AnnotatedTranslationTask:
    """spacy-llm (non-sharding) task: one prompt per document, answers validated and retried."""

    def __init__(self, source_lang: str, target_lang: str, target_country: str,
                 max_retries: int, retry_model: Callable[..., Any] | None,
                 labels: Sequence[str]) -> None:
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.target_country = target_country
        self.max_retries = max_retries
        self.retry_model = retry_model
        self.labels = tuple(labels)
        self._target_nlp: spacy.Language | None = None
        if not Doc.has_extension(EXTENSION):
            Doc.set_extension(EXTENSION, default=None)

    @property
    def instructions(self) -> str:
        """The rules of the method, with languages and country filled in."""
        return INSTRUCTIONS.format(source_name=language_name(self.source_lang),
                                   target_name=language_name(self.target_lang),
                                   country=self.target_country)

    @property
    def prompt_template(self) -> str:
        """Version, instructions and frames; spacy-llm's cache refuses a cache made with another."""
        return "\n".join((PROMPT_VERSION, self.instructions, DOCUMENT_FRAME, FEEDBACK_FRAME))

    @property
    def target_tokenizer(self) -> Callable[[str], Doc]:
        """The target language's tokenizer (built once)."""
        if self._target_nlp is None:
            self._target_nlp = blank_for_language(self.target_lang)
        return self._target_nlp.tokenizer

    def build_prompt(self, doc: Doc, feedback: str | None = None) -> str:
        """The prompt for one document, with the reason for the last rejection if any."""
        prompt = self.instructions + DOCUMENT_FRAME.format(
            tagged=source_tagged_text(doc))
        if feedback:
            prompt += FEEDBACK_FRAME.format(error=feedback)
        return prompt

    def generate_prompts(self, docs: TypingIterable[Doc]) -> TypingIterable[str]:
        """spacy-llm hook: one prompt per document."""
        for doc in docs:
            self._check_source(doc)
            yield self.build_prompt(doc)

    def _check_source(self, doc: Doc) -> None:
        """A source entity with a label outside `labels` could never validate: fail early."""
        unknown = sorted({ent.label_ for ent in doc.ents} - set(self.labels))
        if unknown:
            raise ValueError(f"{doc_name(doc)}: entity labels {unknown} are not in the task's "
                             f"`labels`")

    def parse_responses(self, docs: TypingIterable[Doc],
                        responses: TypingIterable[str]) -> TypingIterable[Doc]:
        """spacy-llm hook: validate each answer, ask again if needed, store the outcome.

        Each element of `responses` is, at run time, the list of answers for one document
        (one answer: this task does not shard); a bare string is accepted as well.
        """
        for doc, response in zip(docs, responses, strict=True):
            answer = response if isinstance(response, str) else list(response)[0]
            doc._.set(EXTENSION, self.translate(doc, answer).to_dict())
            yield doc

    def translate(self, doc: Doc, answer: str) -> TranslationOutcome:
        """Check `answer` for `doc`; on rejection ask `retry_model` again, up to `max_retries`."""
        counts = Counter(ent.label_ for ent in doc.ents)
        outcome = TranslationOutcome("failed", self.source_lang, self.target_lang,
                                     self.target_country, dict(counts), source_span_list(doc))
        name = doc_name(doc)
        while True:
            outcome.attempts += 1
            try:
                text, spans = check_answer(answer, counts, self.labels, source=name)
                alignment = self._check_alignment(text, spans, name)
            except TranslationAnswerError as error:
                outcome.errors.append(str(error))
            else:
                outcome.status, outcome.text, outcome.alignment = "ok", text, alignment
                outcome.spans = [[span.start, span.end, span.label] for span in spans]
                outcome.unchanged_entities = unchanged_entities(doc, text, spans)
                return outcome
            if outcome.attempts > self.max_retries or self.retry_model is None:
                return outcome
            answer = self._ask_again(doc, outcome.errors[-1])

    def _check_alignment(self, text: str, spans: list[CharSpan], name: str) -> dict[str, int]:
        """Every translated span must become a token-aligned entity in the target language."""
        _, report = make_doc(self.target_tokenizer, text, spans, source=name)
        if report.lost:
            raise TranslationAnswerError(
                f"{report.lost} tagged spans cannot be aligned to {self.target_lang} tokens "
                f"(overlapping after tokenization): {', '.join(report.lost_positions)}")
        return _alignment_dict(report)

    def _ask_again(self, doc: Doc, error: str) -> str:
        """One more model call for `doc`, telling the model why its last answer was rejected."""
        assert self.retry_model is not None
        answers = list(self.retry_model([[self.build_prompt(doc, feedback=error)]]))
        return list(answers[0])[0]

    def target_doc(self, doc: Doc) -> Doc:
        """The translated Doc (target tokenizer, spans at their new offsets) for a processed doc."""
        return self.target_doc_from_record(doc._.get(EXTENSION), doc_name(doc))

    def target_doc_from_record(self, record: dict[str, Any], name: str = "<doc>") -> Doc:
        """The translated Doc from a `deid_translation` record (e.g. read back from a report)."""
        return target_doc(record, self.target_tokenizer, name=name)


def resolve_country(target_lang: str, target_country: str | None) -> str:
    """The configured country, else the paper's country for the target language."""
    if target_country:
        return target_country
    if target_lang in LANGUAGES:
        return language_profile(target_lang).country
    raise ValueError(f"spacy_deid.AnnotatedTranslation.v1: set `target_country` for "
                     f"target_lang {target_lang!r} (no default)")


@registry.llm_tasks("spacy_deid.AnnotatedTranslation.v1")
def make_annotated_translation_task(
    source_lang: str = "de",
    target_lang: str = "en",
    target_country: str | None = None,
    max_retries: int = 10,
    retry_model: Callable[..., Any] | None = None,
    labels: list[str] = list(PHI_LABELS),  # noqa: B006, B008 - spaCy config default
) -> AnnotatedTranslationTask:
    """Registered task. `target_country` defaults per language (en: USA, fr: France ...);
    `retry_model` is the model used to ask again (`${components.llm.model}` in a config) and
    is required when `max_retries` > 0."""
    for setting, lang in (("source_lang", source_lang), ("target_lang", target_lang)):
        if not lang or not lang.isalpha() or not lang.islower():
            raise ValueError(f"spacy_deid.AnnotatedTranslation.v1: `{setting}` must be a "
                             f"lowercase language code, got {lang!r}")
    if source_lang == target_lang:
        raise ValueError("spacy_deid.AnnotatedTranslation.v1: `source_lang` and `target_lang` "
                         f"are both {source_lang!r}")
    if max_retries < 0:
        raise ValueError(f"spacy_deid.AnnotatedTranslation.v1: `max_retries` must be >= 0, "
                         f"got {max_retries!r}")
    if max_retries > 0 and retry_model is None:
        raise ValueError("spacy_deid.AnnotatedTranslation.v1: `retry_model` is required when "
                         "`max_retries` > 0 (in a config: retry_model = ${components.llm.model})")
    unknown = sorted(set(labels) - set(PHI_LABELS))
    if unknown or not labels:
        raise ValueError(f"spacy_deid.AnnotatedTranslation.v1: `labels` must be PHI labels, "
                         f"unknown: {unknown}")
    country = resolve_country(target_lang, target_country)
    task = AnnotatedTranslationTask(source_lang, target_lang, country, max_retries, retry_model,
                                    labels)
    task.target_tokenizer  # noqa: B018 - fail at creation if the target has no tokenizer
    return task
