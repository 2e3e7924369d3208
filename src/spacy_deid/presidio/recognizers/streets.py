"""German street names with a house number ("Lindenweg 14", "Robert-Koch-Str. 17").

German writes streets as compounds of a name and a street word, which the NER splits or
misses; the street word, a capitalised name and a house number together are a sure address.
Other languages have no street recognizer.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import STRONG, own_recognizer
from spacy_deid.schema import STREET_ENTITY

# German street names: a word ending in a street word with a house number ("Lindenweg 14",
# "Robert-Koch-Str. 17"), or a name before a street word ("Bergheimer Straße 133").
# Compounds of these words that are not streets ("Bettplatz 8", "Rückweg 2 km") are left out.
STREET_SUFFIXES_DE = (r"straße|strasse|strße|str\.|weg|gasse|allee|platz|damm|ufer|steige?|pfad"
                      r"|chaussee|kamp|graben|wall|zeile|stieg|promenade|twiete|gässchen")
STREET_WORDS_DE = (r"Straße|Strasse|Str\.|Weg|Gasse|Allee|Platz|Damm|Ufer|Steige?|Pfad"
                   r"|Chaussee|Ring|Landstraße|Heerstraße|Dorfstraße|Hauptstraße")
NOT_STREETS_DE = ("Bett|Arbeits|Park|Stell|Sitz|Pflege|Heim|Therapie|Reha|Kita|Studien|Rück"
                  "|Zugangs|Aus|Um|Ab|Hin|Lösungs|Behandlungs|Infektions|Übertragungs|Zu|Fuß"
                  "|Lebens|Leidens|Liege|Warte|Bahn")
HOUSE_NUMBER = (r"\d{1,4}(?: ?[a-zA-Z](?![\w.-]))?(?: ?[-–/] ?\d{1,4}[a-z]?)?(?![\w,.]?\d)"
                r"(?! ?(?:km|m|min|h|Std|Tage?n?|Wochen?|Monate?n?|Jahre?n?|mg|ml|mm|cm|%|x"
                r"|mal)\b)")


def street_patterns(lang: str) -> list[Pattern]:
    """Street and house number (German only; other languages: none)."""
    if lang != "de":
        return []
    name = (rf"(?<![\w.-])(?!(?:{NOT_STREETS_DE})(?:platz|weg|gasse|pfad|damm))"
            rf"(?:\p{{Lu}}\p{{Ll}}+ (?:{STREET_WORDS_DE})|(?:\p{{Lu}}[\p{{L}}.]*-)+"
            rf"(?:{STREET_WORDS_DE})|\p{{Lu}}\p{{Ll}}*(?:{STREET_SUFFIXES_DE}))")
    return [Pattern("street and house number", rf"{name} ?{HOUSE_NUMBER}", STRONG)]


def street_recognizers(lang: str) -> list[PatternRecognizer]:
    """The street recognizer of `lang` if it has street patterns (German), else none."""
    patterns = street_patterns(lang)
    if not patterns:
        return []
    return [own_recognizer(STREET_ENTITY, f"DeidStreet_{lang}", patterns, [], lang)]
