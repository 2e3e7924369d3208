import pytest

from spacy_deid.lang.casing import has_case, lower, match_case, upper


@pytest.mark.parametrize(("word", "expected"), [
    ("Müller", True), ("иванов", True), ("ÖZTÜRK", True),
    ("محمد", False), ("رضایی", False), ("4B", True), ("123", False), ("", False),
])
def test_has_case_tells_scripts_with_case_from_those_without(word: str, expected: bool) -> None:
    assert has_case(word) is expected


def test_turkish_dotted_and_dotless_i() -> None:
    assert upper("ışık", "tr") == "IŞIK"
    assert upper("istanbul", "tr") == "İSTANBUL"
    assert lower("IŞIK", "tr") == "ışık"
    assert upper("istanbul") == "ISTANBUL"


@pytest.mark.parametrize(("template", "word", "expected"), [
    ("MÜLLER", "schmidt", "SCHMIDT"),
    ("müller", "Schmidt", "schmidt"),
    ("Müller", "schmidt", "Schmidt"),
    ("محمد", "Schmidt", "Schmidt"),
])
def test_match_case_copies_the_template_pattern(template: str, word: str, expected: str) -> None:
    assert match_case(template, word) == expected
