"""`trim_span`: markup, control and invisible characters and white space leave a span's
edges; what lies between them stays."""

from __future__ import annotations

import pytest

from spacy_deid.lang.markup import trim_span


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anna Hufnagel", "Anna Hufnagel"),
        ("<b>Anna Hufnagel</b>", "Anna Hufnagel"),
        ("\u202eAnna\u202c", "Anna"),
        ("&nbsp;Anna&amp;", "Anna"),
        ("\x07 Anna \x00", "Anna"),
        ("'>Dr", "Dr"),
        ("Hufnagel</b", "Hufnagel"),
        ("Anna <b>Hufnagel", "Anna <b>Hufnagel"),  # inside the span: kept
        ("<p>", ""),
        ("&nbsp;", ""),
        ("", ""),
    ],
)
def test_trim_span(text, expected):
    padded = "xy" + text + "z"
    start, end = trim_span(padded, 2, 2 + len(text))
    assert padded[start:end] == expected
    assert 2 <= start <= end <= 2 + len(text)
