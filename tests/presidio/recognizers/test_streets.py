"""German streets with a house number; no street recognizer in other languages."""

from __future__ import annotations

import pytest

from spacy_deid.presidio.recognizers import build_recognizers
from tests.presidio.recognizers.matching import matches


@pytest.mark.parametrize(("text", "expected"), [
    ("Herrn Dr. Kallweit\nLindenweg 14\n92224 Amberg", ["Lindenweg 14"]),
    ("Kirchgasse 3a, 95615 Marktredwitz", ["Kirchgasse 3a"]),
    ("wohnhaft Robert-Koch-Str. 17, Leipzig", ["Robert-Koch-Str. 17"]),
    ("Bergheimer Straße 133 und Eybacher Steige 30", ["Bergheimer Straße 133",
                                                       "Eybacher Steige 30"]),
    ("Adresse: Schillerstraße 9", ["Schillerstraße 9"]),
    ("Bettplatz 8 auf Station", []),
    ("der Rückweg 2 km weit", []),
    ("in der Egerstraße wohnt sie", []),  # no house number
])
def test_german_streets_with_a_house_number(text, expected):
    assert matches("de", "DeidStreet", text) == expected


def test_street_and_hospital_patterns_are_german_only():
    names = {recognizer.name for recognizer in build_recognizers("pl")}
    assert not {name for name in names if name.startswith(("DeidStreet", "DeidHospital"))}
