"""Presidio integration: pattern recognizers, the analyzer and anonymizer operator.

Importing this package installs `logs.DocumentTextFilter` on Presidio's loggers, so that
no Presidio log record carries text of a document processed here.
"""

from spacy_deid.presidio.logs import install_log_filter

install_log_filter()
