"""No log record carries text of the document: every logger is captured at DEBUG while a
German letter goes through (a) a small pipeline with `deid_presidio_patterns` and
`deid_anonymizer`, (b) the Presidio analyzer path, (c) Presidio's anonymizer with our
surrogate operator; no PHI string of the letter may appear in any record."""

from __future__ import annotations

import logging

import pytest
import spacy
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

from spacy_deid.presidio.analyzer import build_analyzer
from spacy_deid.presidio.logs import PRESIDIO_LOGGERS, DocumentTextFilter, install_log_filter
from spacy_deid.presidio.operator import anonymize

SURNAME = "Hufnagel"
BIRTH_DATE = "03.07.1961"
PHONE = "0911 4567890"
INSURANCE_NUMBER = "A123456780"
PHI = (SURNAME, BIRTH_DATE, PHONE, "4567890", INSURANCE_NUMBER)

LETTER = (f"Klinikum Nürnberg, Medizinische Klinik 3\n\n"
          f"Sehr geehrte Frau Kollegin,\n\n"
          f"wir berichten über Frau Gerda {SURNAME}, geb. {BIRTH_DATE}, Tel. {PHONE}, "
          f"Versichertennummer {INSURANCE_NUMBER}, Fallnummer 31857924, die vom 12.03.2024 "
          f"bis 19.03.2024 stationär behandelt wurde. Frau {SURNAME} ist unter der Nummer "
          f"{PHONE} erreichbar.\n\nMit freundlichen Grüßen\nDr. med. K. Lange")


class Collector(logging.Handler):
    """Keeps every record that reaches the root logger."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def records(caplog):
    """Every record of every logger at DEBUG, from the root handler and from caplog."""
    caplog.set_level(logging.DEBUG)
    for name in [*logging.root.manager.loggerDict, *PRESIDIO_LOGGERS]:
        caplog.set_level(logging.DEBUG, logger=name)
    collector = Collector()
    logging.root.addHandler(collector)
    try:
        yield lambda: collector.records + caplog.records
    finally:
        logging.root.removeHandler(collector)


def leaks(records: list[logging.LogRecord]) -> list[str]:
    """The records (formatted, with their arguments) that contain a PHI string."""
    found = []
    for record in records:
        shown = " ".join([record.getMessage(), repr(record.msg), repr(record.args),
                          str(record.exc_text or ""), str(record.exc_info or "")]).lower()
        if any(phi.lower() in shown for phi in PHI):
            found.append(f"{record.name}:{record.levelname}:{record.getMessage()[:200]}")
    return found


def small_pipeline(lang: str = "de") -> spacy.language.Language:
    """A pipeline built in seconds: an entity ruler for the surname, the patterns, the
    anonymizer."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": SURNAME}])
    nlp.add_pipe("deid_presidio_patterns", config={"lang": lang})
    nlp.add_pipe("deid_anonymizer", config={"lang": lang})
    return nlp


@pytest.fixture(scope="module")
def pipeline_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "xx_deid_de"
    small_pipeline().to_disk(path)
    return str(path)


def test_pipeline_logs_no_document_text(records):
    nlp = small_pipeline()
    doc = nlp(LETTER)
    assert SURNAME not in doc._.deid_text and PHONE not in doc._.deid_text
    assert leaks(records()) == []


def test_presidio_analyzer_and_anonymizer_log_no_document_text(records, pipeline_path):
    """Through `build_analyzer` (the pipeline inside Presidio) and Presidio's anonymizer,
    whose records describe every operator."""
    analyzer = build_analyzer("de", pipeline_path)
    results = analyzer.analyze(LETTER, language="de")
    assert {LETTER[r.start:r.end] for r in results} >= {SURNAME, PHONE, BIRTH_DATE}
    anonymized = anonymize(LETTER, results, "de").text
    assert SURNAME not in anonymized
    assert leaks(records()) == []


def with_presidio_enhancer(nlp: spacy.language.Language) -> spacy.language.Language:
    """`nlp` with Presidio's own context enhancer, which logs the words around each match."""
    analyzer = nlp.get_pipe("deid_presidio_patterns").analyzer
    analyzer.context_aware_enhancer = LemmaContextAwareEnhancer(context_prefix_count=5,
                                                                context_suffix_count=0)
    return nlp


def test_the_filter_stops_presidio_own_enhancer_from_logging_text(records):
    nlp = with_presidio_enhancer(small_pipeline())
    nlp(LETTER)
    assert leaks(records()) == []


def test_without_the_filter_presidio_would_log_the_letter(records):
    """The capture does see Presidio's records that quote the text: the tests above are no
    empty pass."""
    nlp = with_presidio_enhancer(small_pipeline())
    for name in PRESIDIO_LOGGERS:
        logger = logging.getLogger(name)
        for log_filter in [f for f in logger.filters if isinstance(f, DocumentTextFilter)]:
            logger.removeFilter(log_filter)
    try:
        nlp(LETTER)
        assert any("Context list is" in leak for leak in leaks(records()))
    finally:
        install_log_filter()
    assert all(any(isinstance(f, DocumentTextFilter) for f in logging.getLogger(name).filters)
               for name in PRESIDIO_LOGGERS)


def test_warnings_pass_with_their_arguments_redacted():
    log_filter = DocumentTextFilter()
    debug = logging.LogRecord("presidio-analyzer", logging.DEBUG, __file__, 1,
                              "Context list is: %s", (SURNAME.lower(),), None)
    assert not log_filter.filter(debug)
    error = logging.LogRecord("presidio-analyzer", logging.ERROR, __file__, 1,
                              "Failed to validate text %s at %d", (INSURANCE_NUMBER, 17), None)
    assert log_filter.filter(error)
    assert error.getMessage() == "Failed to validate text <redacted> at 17"
    try:
        raise ValueError(f"Did not find word '{SURNAME}'")
    except ValueError as exc:
        failed = logging.LogRecord("presidio-analyzer", logging.ERROR, __file__, 1,
                                   "Lookup failed", None, (type(exc), exc, exc.__traceback__))
    assert log_filter.filter(failed)
    assert failed.exc_info is None and failed.getMessage() == "Lookup failed (ValueError)"
