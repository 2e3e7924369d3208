"""German hospital names ("Klinikum St. Elisabeth Straubing", "St.-Marien-Krankenhaus").

A hospital's name reveals where a patient was treated; German names follow a hospital word
or end in one, which these patterns use while leaving departments ("Klinik für Innere
Medizin") and days ("Klinik am Montag") out. Other languages have no hospital recognizer.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

from spacy_deid.presidio.recognizers.common import MEDIUM, own_recognizer
from spacy_deid.schema import HOSPITAL_ENTITY

# German hospital names: a hospital word ("Krankenhaus", "Klinikum", "Fachklinik",
# "St.-Marien-Krankenhaus") and the name after it, 1-3 capitalised words on the same line
# ("Klinik Hohe Warte Bayreuth", "Klinikum St. Elisabeth Straubing", "Klinik am Dünsberg");
# or a hyphenated name compound alone ("Christian-Drosten-Klinik"). A department ("Klinik
# für Innere Medizin", "Hals-Nasen-Ohren-Klinik") or a day after "am" is not a name.
HOSPITAL_WORDS_DE = "Krankenhaus|Klinik|Klinikum|Spital|Hospital"
NOT_HOSPITAL_NAMES_DE = ("Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag|Wochenende"
                         "|Morgen|Vormittag|Mittag|Nachmittag|Abend|Januar|Februar|März|April"
                         "|Mai|Juni|Juli|August|September|Oktober|November|Dezember")


def hospital_patterns(lang: str) -> list[Pattern]:
    """Hospital names (German only; other languages: none)."""
    if lang != "de":
        return []
    word = (rf"(?!(?:{NOT_HOSPITAL_NAMES_DE})(?!\p{{L}}))"
            r"\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)*")
    suffix = "(?:krankenhaus|klinik|klinikum|spital|hospital)"
    compound = rf"(?!Hals-Nasen-Ohren|Mund-Kiefer)(?:\p{{Lu}}[\p{{L}}.]*-)+(?:{HOSPITAL_WORDS_DE})"
    head = rf"(?:{compound}|\p{{Lu}}\p{{Ll}}*{suffix}|{HOSPITAL_WORDS_DE})"
    link = r"(?:St\.|Sankt|am|an der|im|der|des|Am|An der|Zum|Zur) "
    return [Pattern("hospital word and name",
                    rf"(?<![\w.-])(?:{head} (?:{link})?{word}(?: (?:St\. )?{word}){{0,2}}"
                    rf"|{compound})(?![\w-])", MEDIUM)]


def hospital_recognizers(lang: str) -> list[PatternRecognizer]:
    """The hospital recognizer of `lang` if it has hospital patterns (German), else none."""
    patterns = hospital_patterns(lang)
    if not patterns:
        return []
    return [own_recognizer(HOSPITAL_ENTITY, f"DeidHospital_{lang}", patterns, [], lang)]
