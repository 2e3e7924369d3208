"""A Presidio anonymizer operator that writes spacy-deid's locale-aware surrogates.

    from presidio_anonymizer import AnonymizerEngine
    from spacy_deid.presidio.operator import DeidSurrogateOperator, surrogate_operators
    engine = AnonymizerEngine()
    engine.add_anonymizer(DeidSurrogateOperator)
    operators = surrogate_operators(text, lang="pl", seed=0)   # one document session
    result = engine.anonymize(text=text, analyzer_results=results, operators=operators)

Presidio creates a fresh operator object for every entity and hands it only the
entity's text and the operator's params, so the per-document state (one date shift,
one surrogate per person) lives in a `DocumentSession` of `SurrogateGenerator`, passed
in the params: every mention of the same original in the same session gets the same
surrogate, exactly as in the spaCy anonymizer component. Entity types may be our fine
labels (an analyzer built with `keep_fine_labels=True`, best) or Presidio's types,
which are mapped to the nearest fine label (`spacy_deid.schema.fine_label`).
"""

from __future__ import annotations

from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import (
    ConflictResolutionStrategy,
    EngineResult,
    InvalidParamError,
    OperatorConfig,
)
from presidio_anonymizer.entities import RecognizerResult as AnonymizerResult
from presidio_anonymizer.operators import Operator, OperatorType

from spacy_deid.anonymize.surrogates import DocumentSession, SurrogateGenerator
from spacy_deid.lang import validate_language
from spacy_deid.lang.markup import trim_span
from spacy_deid.schema import PHI_LABELS, fine_label

OPERATOR_NAME = "deid_surrogate"



def surrogate_label(entity_type: str, text: str) -> str:
    """The fine label whose surrogate replaces `text` found as `entity_type`.

    A fine label is used as it is. Presidio's coarse LOCATION covers postal codes too: a
    LOCATION with digits and no lower-case letter ("81675", "00-950", "SW1A 1AA") is
    replaced as a postal code, not by a city name."""
    label = fine_label(entity_type)
    if (entity_type not in PHI_LABELS and label == "LOCATION_OTHER" and len(text) >= 4
            and any(char.isdigit() for char in text) and not any(c.islower() for c in text)):
        return "LOCATION_ZIP"
    return label


class DeidSurrogateOperator(Operator):
    """Replaces an entity by a surrogate from the `session` given in the params.

    Params: `session` (a `DocumentSession`, required), `label` (a fine label; default:
    derived from `entity_type` and the text, `surrogate_label`), `context` (text around the
    entity, e.g. the whole document, used for cues such as Herr/Frau; optional).
    """

    def operate(self, text: str, params: dict | None = None) -> str:  # noqa: D102
        params = params or {}
        label = params.get("label") or surrogate_label(params.get("entity_type", ""), text)
        return params["session"].surrogate(text=text, label=label,
                                           context=params.get("context", ""))

    def validate(self, params: dict | None = None) -> None:  # noqa: D102
        params = params or {}
        if not isinstance(params.get("session"), DocumentSession):
            raise InvalidParamError(
                f"{OPERATOR_NAME}: param 'session' must be a DocumentSession "
                "(SurrogateGenerator(lang).new_document()); see surrogate_operators()")
        label = params.get("label")
        if label is not None and label not in PHI_LABELS:
            raise InvalidParamError(f"{OPERATOR_NAME}: unknown label {label!r}")
        if not isinstance(params.get("context", ""), str):
            raise InvalidParamError(f"{OPERATOR_NAME}: param 'context' must be a str")

    def operator_name(self) -> str:  # noqa: D102
        return OPERATOR_NAME

    def operator_type(self) -> OperatorType:  # noqa: D102
        return OperatorType.Anonymize


def surrogate_operators(text: str, lang: str | None = None, seed: int = 0,
                        secret_key: str | None = None,
                        session: DocumentSession | None = None) -> dict[str, OperatorConfig]:
    """Operators for `AnonymizerEngine.anonymize` that surrogate every entity of one text.

    Give `session` to share surrogates across calls (e.g. the parts of one document);
    otherwise a new session of `SurrogateGenerator(lang, seed, secret_key)` is made.
    """
    if session is None:
        if lang is None:
            raise ValueError("surrogate_operators needs `lang` or a `session`")
        session = SurrogateGenerator(validate_language(lang), seed=seed,
                                     secret_key=secret_key).new_document(doc_key=text)
    return {"DEFAULT": OperatorConfig(OPERATOR_NAME, {"session": session, "context": text})}


class DeidAnonymizerEngine(AnonymizerEngine):
    """Presidio's `AnonymizerEngine` that keeps adjacent entities apart by default.

    Presidio merges two entities of the same type that only spaces separate into one. With
    Presidio's coarse types that joins different identifiers: a postal code and its city
    (`81675 München`, both LOCATION) would become one city surrogate without the postal code.
    Here every entity keeps its own surrogate unless `merge_entities_with_spaces=True` is
    passed.
    """

    def anonymize(self, text: str, analyzer_results: list, operators=None,  # noqa: D102
                  conflict_resolution=ConflictResolutionStrategy.MERGE_SIMILAR_OR_CONTAINED,
                  merge_entities_with_spaces: bool = False) -> EngineResult:
        return super().anonymize(text=text, analyzer_results=analyzer_results,
                                 operators=operators, conflict_resolution=conflict_resolution,
                                 merge_entities_with_spaces=merge_entities_with_spaces)


def anonymizer_engine() -> DeidAnonymizerEngine:
    """A `DeidAnonymizerEngine` (adjacent entities kept apart) with the surrogate operator."""
    engine = DeidAnonymizerEngine()
    engine.add_anonymizer(DeidSurrogateOperator)
    return engine


def anonymize(text: str, analyzer_results: list, lang: str, seed: int = 0,
              secret_key: str | None = None,
              engine: AnonymizerEngine | None = None) -> EngineResult:
    """Replace every analyzer result in `text` by a surrogate (one document session).

    Each result is first trimmed of markup, control and invisible characters at its edges
    (`spacy_deid.lang.markup.trim_span`; a result of nothing else is dropped), and results
    are never merged with their neighbours, so only the characters of detected entities
    change. Empty or white-space-only text comes back unchanged.
    """
    engine = engine or anonymizer_engine()
    results = []
    for result in analyzer_results:
        start, end = trim_span(text, result.start, result.end)
        if end > start:
            results.append(AnonymizerResult(result.entity_type, start, end, result.score))
    return engine.anonymize(text=text, analyzer_results=results,
                            operators=surrogate_operators(text, lang, seed, secret_key),
                            merge_entities_with_spaces=False)
