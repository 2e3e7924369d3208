"""A Presidio anonymizer operator that writes spacy-deid's locale-aware surrogates.

    from presidio_anonymizer import AnonymizerEngine
    from spacy_deid.presidio_operator import DeidSurrogateOperator, surrogate_operators
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
which are mapped to the nearest fine label (`FINE_LABEL_BY_PRESIDIO_ENTITY`).
"""

from __future__ import annotations

from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import EngineResult, InvalidParamError, OperatorConfig
from presidio_anonymizer.entities import RecognizerResult as AnonymizerResult
from presidio_anonymizer.operators import Operator, OperatorType

from .labels import PHI_LABELS, validate_language
from .surrogates import DocumentSession, SurrogateGenerator

OPERATOR_NAME = "deid_surrogate"

# Presidio entity type -> the fine label whose surrogate fits it best. Types not listed
# (country-specific identifiers such as PL_PESEL, IBAN_CODE) get an ID surrogate, which
# keeps the shape digit for digit and letter for letter.
FINE_LABEL_BY_PRESIDIO_ENTITY: dict[str, str] = {
    "PERSON": "NAME_OTHER",
    "TITLE": "NAME_TITLE",
    "DATE_TIME": "DATE",
    "AGE": "AGE",
    "ID": "ID",
    "PHONE_NUMBER": "CONTACT_PHONE",
    "EMAIL_ADDRESS": "CONTACT_EMAIL",
    "URL": "CONTACT_URL",
    "LOCATION": "LOCATION_OTHER",
    "ORGANIZATION": "LOCATION_ORGANIZATION",
    "PROFESSION": "PROFESSION",
    "OTHER": "OTHER",
}


def fine_label_for(entity_type: str) -> str:
    """The fine PHI label used to make a surrogate for a Presidio entity type."""
    if entity_type in PHI_LABELS:
        return entity_type
    return FINE_LABEL_BY_PRESIDIO_ENTITY.get(entity_type, "ID")


class DeidSurrogateOperator(Operator):
    """Replaces an entity by a surrogate from the `session` given in the params.

    Params: `session` (a `DocumentSession`, required), `label` (a fine label; default:
    derived from `entity_type`), `context` (text around the entity, e.g. the whole
    document, used for cues such as Herr/Frau; optional).
    """

    def operate(self, text: str, params: dict | None = None) -> str:  # noqa: D102
        params = params or {}
        label = params.get("label") or fine_label_for(params.get("entity_type", ""))
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


def anonymizer_engine() -> AnonymizerEngine:
    """A Presidio `AnonymizerEngine` with the surrogate operator added."""
    engine = AnonymizerEngine()
    engine.add_anonymizer(DeidSurrogateOperator)
    return engine


def anonymize(text: str, analyzer_results: list, lang: str, seed: int = 0,
              secret_key: str | None = None,
              engine: AnonymizerEngine | None = None) -> EngineResult:
    """Replace every analyzer result in `text` by a surrogate (one document session)."""
    engine = engine or anonymizer_engine()
    results = [AnonymizerResult(r.entity_type, r.start, r.end, r.score) for r in analyzer_results]
    return engine.anonymize(text=text, analyzer_results=results,
                            operators=surrogate_operators(text, lang, seed, secret_key))
