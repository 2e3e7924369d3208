"""Keep document text out of Presidio's log records.

Presidio logs as it works, and some of its records quote the document: the analyzer's
context enhancer logs the words around every match at DEBUG ("Context list is: 0911 tel.
hufnagel 03.07.1961 ..."), the IBAN recognizer logs a text it could not validate at
ERROR, the anonymizer logs every operator with its params (ours carry the whole text)
at DEBUG, and the `decision_process` tracer logs all tokens at INFO. A de-identification
tool must not write the PHI it removes to a log file, whatever level a user turns on.

`DocumentTextFilter`, installed on Presidio's loggers when `spacy_deid.presidio` is
imported, therefore drops every record below WARNING from them (those describe the
processing of one document) and, in the records it lets through, replaces every argument
that is not a number by `<redacted>` and an exception's traceback by the exception's type
name (an argument or an exception message may quote text; numbers are offsets, counts and
scores). Presidio's warnings about its configuration are still seen.
"""

from __future__ import annotations

import logging
import numbers

# Presidio's loggers: analyzer, anonymizer, and the analyzer's decision-process tracer.
PRESIDIO_LOGGERS: tuple[str, ...] = ("presidio-analyzer", "presidio-anonymizer",
                                     "decision_process")
REDACTED = "<redacted>"


def _safe_argument(value: object) -> object:
    """A number as it is (it is no text), anything else as `REDACTED`."""
    if isinstance(value, numbers.Number):
        return value
    return REDACTED


class DocumentTextFilter(logging.Filter):
    """Drops Presidio's records below WARNING and redacts the rest (module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:  # noqa: D102
        if record.levelno < logging.WARNING:
            return False
        if isinstance(record.args, dict):
            record.args = {key: _safe_argument(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_safe_argument(value) for value in record.args)
        if record.exc_info:
            exc_type = record.exc_info[0]
            record.msg = f"{record.msg} ({exc_type.__name__ if exc_type else 'exception'})"
            record.exc_info = None
            record.exc_text = None
        record.stack_info = None
        return True


def install_log_filter() -> None:
    """Put a `DocumentTextFilter` on each of Presidio's loggers (once; again: no-op)."""
    for name in PRESIDIO_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, DocumentTextFilter) for existing in logger.filters):
            logger.addFilter(DocumentTextFilter())
