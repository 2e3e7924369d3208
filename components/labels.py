"""The PHI label schema (GraSCCo_PHI / GeMTeX) and its mappings.

One place for label names so that converters, components and evaluation agree.
"""

from __future__ import annotations

PHI_LABELS: tuple[str, ...] = (
    "NAME_PATIENT",
    "NAME_DOCTOR",
    "NAME_TITLE",
    "NAME_RELATIVE",
    "NAME_EXT",
    "NAME_USERNAME",
    "NAME_OTHER",
    "DATE",
    "AGE",
    "ID",
    "CONTACT_PHONE",
    "CONTACT_FAX",
    "CONTACT_EMAIL",
    "CONTACT_URL",
    "LOCATION_STREET",
    "LOCATION_ZIP",
    "LOCATION_CITY",
    "LOCATION_STATE",
    "LOCATION_COUNTRY",
    "LOCATION_HOSPITAL",
    "LOCATION_ORGANIZATION",
    "LOCATION_OTHER",
    "PROFESSION",
    "OTHER",
)

NAME_LABELS: frozenset[str] = frozenset(label for label in PHI_LABELS if label.startswith("NAME_"))
# Labels of people (a surrogate person replaces them): names without titles and usernames.
PERSON_LABELS: frozenset[str] = NAME_LABELS - {"NAME_TITLE", "NAME_USERNAME"}

# Fine PHI label -> Presidio entity type (see shared docs/schema.md).
PRESIDIO_ENTITY_BY_LABEL: dict[str, str] = {
    **{label: "PERSON" for label in NAME_LABELS if label != "NAME_TITLE"},
    "NAME_TITLE": "TITLE",
    "DATE": "DATE_TIME",
    "AGE": "AGE",
    "ID": "ID",
    "CONTACT_PHONE": "PHONE_NUMBER",
    "CONTACT_FAX": "PHONE_NUMBER",
    "CONTACT_EMAIL": "EMAIL_ADDRESS",
    "CONTACT_URL": "URL",
    "LOCATION_STREET": "LOCATION",
    "LOCATION_ZIP": "LOCATION",
    "LOCATION_CITY": "LOCATION",
    "LOCATION_STATE": "LOCATION",
    "LOCATION_COUNTRY": "LOCATION",
    "LOCATION_OTHER": "LOCATION",
    "LOCATION_HOSPITAL": "ORGANIZATION",
    "LOCATION_ORGANIZATION": "ORGANIZATION",
    "PROFESSION": "PROFESSION",
    "OTHER": "OTHER",
}

# The ten languages of the MultiGraSCCo benchmark with the country each was adapted to.
LANGUAGES: tuple[str, ...] = ("de", "en", "fr", "it", "pl", "ru", "uk", "tr", "ar", "fa")
COUNTRY_BY_LANGUAGE: dict[str, str] = {
    "de": "Germany",
    "en": "USA",
    "fr": "France",
    "it": "Italy",
    "pl": "Poland",
    "ru": "Russia",
    "uk": "Ukraine",
    "tr": "Türkiye",
    "ar": "Syria",
    "fa": "Iran",
}


def validate_label(label: str) -> str:
    """Return `label` if it is a known PHI label, else raise a ValueError naming it."""
    if label not in PHI_LABELS:
        raise ValueError(f"Unknown PHI label {label!r}; known labels: {', '.join(PHI_LABELS)}")
    return label


def validate_language(lang: str) -> str:
    """Return `lang` if it is one of the supported language codes, else raise a ValueError."""
    if lang not in LANGUAGES:
        raise ValueError(f"Unsupported language code {lang!r}; supported: {', '.join(LANGUAGES)}")
    return lang


def parse_language_codes(codes: str) -> list[str]:
    """"de,en pl" -> ["de", "en", "pl"]: comma- or space-separated codes, in order, each once."""
    parsed: list[str] = []
    for code in codes.replace(",", " ").split():
        if code not in parsed:
            parsed.append(code)
    return parsed
