"""Digit systems (Latin, Persian, Arabic-Indic): reading and writing numbers as the text does."""

from __future__ import annotations

# Digit systems found in the corpus; dates and shapes are written back in the original's.
DIGIT_SYSTEMS: dict[str, str] = {
    "latin": "0123456789",
    "persian": "۰۱۲۳۴۵۶۷۸۹",
    "arabic": "٠١٢٣٤٥٦٧٨٩",
}


_TO_LATIN = {ord(ch): str(i) for system in DIGIT_SYSTEMS.values() for i, ch in enumerate(system)}


def to_latin_digits(text: str) -> str:
    """Replace Persian and Arabic-Indic digits by ASCII digits (same length)."""
    return text.translate(_TO_LATIN)


def digit_system(text: str) -> str:
    """The digit system of the first digit in `text` ("latin" when there is none)."""
    for ch in text:
        for name, digits in DIGIT_SYSTEMS.items():
            if ch in digits:
                return name
    return "latin"


def to_digit_system(text: str, system: str) -> str:
    """Write the ASCII digits of `text` in `system`."""
    if system == "latin":
        return text
    digits = DIGIT_SYSTEMS[system]
    return "".join(digits[int(ch)] if "0" <= ch <= "9" else ch for ch in text)
