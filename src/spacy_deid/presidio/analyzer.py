"""A ready Presidio `AnalyzerEngine` on top of an `xx_deid_<lang>` pipeline.

    from spacy_deid.presidio.analyzer import build_analyzer
    analyzer = build_analyzer("pl")                      # installed package xx_deid_pl
    results = analyzer.analyze(text, language="pl")      # RecognizerResult list

The engine is made through Presidio's own spaCy NLP engine configuration
(`NlpEngineProvider` with `nlp_engine_name: spacy` and a `ner_model_configuration`
whose `model_to_presidio_entity_mapping` is `labels.PRESIDIO_ENTITY_BY_LABEL`, or the
identity on our fine labels with `keep_fine_labels=True`). The spaCy engine is our
subclass of Presidio's `SpacyNlpEngine` that (a) never tries to download a missing
pipeline but raises `PipelineNotInstalledError`, (b) switches off the pipeline's
anonymizer (Presidio users anonymize with `AnonymizerEngine`), and (c) reports the
score a detector left in `span._.deid_score` (pattern results) instead of the flat
default score (statistical NER, which has no calibrated score).

The pipeline's detections (NER merged with the Presidio patterns inside the pipeline)
are the only recognizer: Presidio's default English recognizers are not added, since
the pipeline already ran the pattern recognizers of its language. Context words are
weighed by `IndexedContextEnhancer` (Presidio's scores, in time linear in the text).
"""

from __future__ import annotations

from pathlib import Path

import spacy
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpEngineProvider, SpacyNlpEngine
from spacy.tokens import Doc

from spacy_deid.extensions import register_extensions
from spacy_deid.lang import LANGUAGES, validate_language
from spacy_deid.presidio.context import IndexedContextEnhancer
from spacy_deid.schema import PHI_LABELS, PRESIDIO_ENTITY_BY_LABEL

DEFAULT_NER_SCORE = 0.85
# Components that turn detections into text; Presidio does that part itself.
NON_DETECTOR_FACTORIES: frozenset[str] = frozenset({"deid_anonymizer"})


class PipelineNotInstalledError(OSError):
    """The spaCy pipeline for a language is neither an installed package nor a path."""


def pipeline_name(lang: str) -> str:
    """The package name of the pipeline for `lang`: `xx_deid_<lang>`."""
    return f"xx_deid_{validate_language(lang)}"


def entity_mapping(keep_fine_labels: bool = False) -> dict[str, str]:
    """Fine PHI label -> Presidio entity type (or -> itself with `keep_fine_labels`)."""
    if keep_fine_labels:
        return {label: label for label in PHI_LABELS}
    return dict(PRESIDIO_ENTITY_BY_LABEL)


def check_pipeline_available(model_name: str) -> None:
    """Raise `PipelineNotInstalledError` unless `model_name` is a package or a directory."""
    if spacy.util.is_package(model_name) or Path(model_name).is_dir():
        return
    hint = (f"install the package (pip install packages/{model_name}-*.whl) or pass the path"
            if "/" not in model_name and "\\" not in model_name else "pass the path")
    raise PipelineNotInstalledError(
        f"spaCy pipeline {model_name!r} is not installed and is not a directory: {hint} of a "
        f"pipeline saved with nlp.to_disk. Nothing is downloaded.")


class DeidSpacyNlpEngine(SpacyNlpEngine):
    """Presidio's spaCy NLP engine for spacy-deid pipelines (see the module docstring)."""

    engine_name = "spacy"

    def load(self) -> None:
        """Load each configured pipeline, without downloading and without the anonymizer."""
        register_extensions()
        self.nlp = {}
        for model in self.models:
            self._validate_model_params(model)
            check_pipeline_available(model["model_name"])
            nlp = spacy.load(model["model_name"])
            for name in nlp.pipe_names:
                if nlp.get_pipe_meta(name).factory in NON_DETECTOR_FACTORIES:
                    nlp.disable_pipe(name)
            self.nlp[model["lang_code"]] = nlp

    def _get_scores_for_entities(self, doc: Doc) -> list[float]:
        default = self.ner_model_configuration.default_score
        scores = [ent._.deid_score for ent in doc.ents]
        return [default if score is None else float(score) for score in scores]


class DeidAnalyzerEngine(AnalyzerEngine):
    """An `AnalyzerEngine` that rejects unsupported languages and non-text clearly."""

    def analyze(self, text: str, language: str, **kwargs) -> list[RecognizerResult]:
        """Presidio's `analyze`, after checking the text and the language.

        Empty or white-space-only text has no entities: the result is an empty list, as
        the spaCy pipeline's anonymizer returns such text unchanged."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        if language not in self.supported_languages:
            raise ValueError(f"language {language!r} is not supported by this analyzer; "
                             f"it serves {', '.join(self.supported_languages)}")
        if not text.strip():
            return []
        return super().analyze(text, language, **kwargs)


def nlp_configuration(lang: str, model_name: str, keep_fine_labels: bool = False,
                      default_score: float = DEFAULT_NER_SCORE) -> dict:
    """Presidio's NLP engine configuration for one spacy-deid pipeline."""
    return {
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": lang, "model_name": model_name}],
        "ner_model_configuration": {
            "model_to_presidio_entity_mapping": entity_mapping(keep_fine_labels),
            "labels_to_ignore": [],
            "low_score_entity_names": [],
            "default_score": default_score,
        },
    }


def build_analyzer(lang: str, pipeline: str | Path | None = None, keep_fine_labels: bool = False,
                   default_score: float = DEFAULT_NER_SCORE,
                   score_threshold: float = 0.0) -> DeidAnalyzerEngine:
    """An `AnalyzerEngine` for `lang` running `pipeline` (default: package `xx_deid_<lang>`).

    `keep_fine_labels=True` returns our fine labels (NAME_PATIENT, CONTACT_FAX, ...) as
    entity types instead of Presidio's (PERSON, PHONE_NUMBER, ...).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"Unsupported language code {lang!r}; supported: {', '.join(LANGUAGES)}")
    model_name = str(pipeline) if pipeline is not None else pipeline_name(lang)
    check_pipeline_available(model_name)
    provider = NlpEngineProvider(
        nlp_engines=(DeidSpacyNlpEngine,),
        nlp_configuration=nlp_configuration(lang, model_name, keep_fine_labels, default_score))
    nlp_engine = provider.create_engine()
    registry = RecognizerRegistry(supported_languages=[lang])
    registry.add_nlp_recognizer(nlp_engine=nlp_engine)
    return DeidAnalyzerEngine(registry=registry, nlp_engine=nlp_engine,
                              supported_languages=[lang],
                              default_score_threshold=score_threshold,
                              context_aware_enhancer=IndexedContextEnhancer())
