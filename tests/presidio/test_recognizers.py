"""The project's own Presidio recognizers and its changes to Presidio's: e-mail addresses and
URLs without the markup around them, phone numbers after a phone word taken whole, German
streets and hospitals."""

from __future__ import annotations

import pytest

from spacy_deid.presidio.recognizers import build_recognizers


def matches(lang: str, name: str, text: str) -> list[str]:
    recognizer = next(r for r in build_recognizers(lang) if r.name.startswith(name))
    results = recognizer.analyze(text, recognizer.supported_entities)
    return [text[r.start:r.end] for r in sorted(results, key=lambda r: r.start)]


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


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("de", "Die Tochter ist unter Tel. 0 96 21 / 4 71 12 erreichbar.", ["0 96 21 / 4 71 12"]),
    ("de", "Ehemann (Tel. 0171-23 45 678) informiert.", ["0171-23 45 678"]),
    ("de", "Telefon: (09621) 47 11 23, Fax 09621/4712", ["(09621) 47 11 23", "09621/4712"]),
    ("de", "mobil 3 Tage nach der Operation", []),  # fewer than three digits
    ("de", "Tel. 12.03.2024", []),  # a date is no run of digit groups
    ("pl", "tel. 52 585 42 23, faks: 52 585 43 38", ["52 585 42 23", "52 585 43 38"]),
    ("ru", "тел.: +7 (4852) 72-61-30", ["+7 (4852) 72-61-30"]),
    ("fa", "تلفن: ۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵", ["۰۲۱ ۸۸ ۷۷ ۶۶ ۵۵"]),
])
def test_a_number_after_a_phone_word_is_taken_whole(lang, text, expected):
    assert matches(lang, "DeidPhoneAfterCue", text) == expected


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


def test_street_and_hospital_patterns_are_german_only():
    names = {recognizer.name for recognizer in build_recognizers("pl")}
    assert not {name for name in names if name.startswith(("DeidStreet", "DeidHospital"))}
