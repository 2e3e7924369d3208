"""E-mail addresses and URLs: Presidio's recognizers without the markup around them."""

from __future__ import annotations

import pytest

from tests.presidio.recognizers.matching import matches


@pytest.mark.parametrize(("text", "expected"), [
    ("<a href=x.y@klinik.de>Dr</a>", ["x.y@klinik.de"]),
    ("<a href='mailto:h.meier@klinik-amberg.de'>Dr", ["h.meier@klinik-amberg.de"]),
    ("&lt;x@klinik.de&gt;", ["x@klinik.de"]),
    ("a=b@klinik.de", ["a=b@klinik.de"]),  # outside a tag "=" may be part of the address
])
def test_email_addresses_leave_markup_out(text, expected):
    assert matches("de", "EmailRecognizer", text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ('<a href="https://www.klinik-amberg.de/team">Team</a>',
     ["https://www.klinik-amberg.de/team"]),
    ("Siehe 'www.klinik-amberg.de' oder https://klinik.de/a.",
     ["www.klinik-amberg.de", "https://klinik.de/a"]),
    ("<url>https://klinik.de/a</url>", ["https://klinik.de/a"]),
])
def test_urls_leave_quotes_and_markup_out(text, expected):
    assert matches("de", "UrlRecognizer", text) == expected
