"""German hospital names, without departments and days."""

from __future__ import annotations

import pytest

from tests.presidio.recognizers.matching import matches


@pytest.mark.parametrize(("text", "expected"), [
    ("vom St.-Marien-Krankenhaus Amberg zu uns verlegt", ["St.-Marien-Krankenhaus Amberg"]),
    ("zuvor in der Klinik Hohe Warte Bayreuth behandelt", ["Klinik Hohe Warte Bayreuth"]),
    ("Kontrolle im Klinikum St. Elisabeth Straubing", ["Klinikum St. Elisabeth Straubing"]),
    ("Aufnahme in die Fachklinik Helfenstein.", ["Fachklinik Helfenstein"]),
    ("Klinik am Dünsberg", ["Klinik am Dünsberg"]),
    ("Klinik für Innere Medizin", []),
    ("Hals-Nasen-Ohren-Klinik", []),
    ("Wiedervorstellung in der Klinik am Montag", []),
    ("Klinikum\nAnna Meier", []),  # a name on the next line is not the hospital's
])
def test_german_hospital_names(text, expected):
    assert matches("de", "DeidHospital", text) == expected
