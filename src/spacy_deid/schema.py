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

# Entity types of our own Presidio pattern recognizers.
DATE_ENTITY = "DEID_DATE"
POSTAL_CODE_ENTITY = "DEID_POSTAL_CODE"
CASE_NUMBER_ENTITY = "DEID_CASE_NUMBER"
DICTATION_SIGN_ENTITY = "DEID_DICTATION_SIGN"
STREET_ENTITY = "DEID_STREET"
HOSPITAL_ENTITY = "DEID_HOSPITAL"
AGE_ENTITY = "DEID_AGE"

# Any other entity type (a Presidio or spaCy NER type, a recognizer's type) -> the fine PHI
# label whose detection and surrogate fit it best. Types not listed (country-specific
# identifiers such as PL_PESEL) fall back to `FALLBACK_LABEL`.
LABEL_BY_ENTITY: dict[str, str] = {
    "PERSON": "NAME_OTHER",
    "PER": "NAME_OTHER",
    "TITLE": "NAME_TITLE",
    "DATE_TIME": "DATE",
    "AGE": "AGE",
    "ID": "ID",
    "PHONE_NUMBER": "CONTACT_PHONE",
    "EMAIL_ADDRESS": "CONTACT_EMAIL",
    "URL": "CONTACT_URL",
    "LOCATION": "LOCATION_OTHER",
    "LOC": "LOCATION_OTHER",
    "GPE": "LOCATION_CITY",
    "ORGANIZATION": "LOCATION_ORGANIZATION",
    "ORG": "LOCATION_ORGANIZATION",
    "PROFESSION": "PROFESSION",
    "OTHER": "OTHER",
    "IBAN_CODE": "ID",
    "IP_ADDRESS": "ID",
    "CREDIT_CARD": "ID",
    "DE_PLZ": "LOCATION_ZIP",
    DATE_ENTITY: "DATE",
    POSTAL_CODE_ENTITY: "LOCATION_ZIP",
    CASE_NUMBER_ENTITY: "ID",
    DICTATION_SIGN_ENTITY: "NAME_USERNAME",
    STREET_ENTITY: "LOCATION_STREET",
    HOSPITAL_ENTITY: "LOCATION_HOSPITAL",
    AGE_ENTITY: "AGE",
}
# An identifier of unknown kind: replaced shape for shape (digit for digit, letter for
# letter), which keeps the text's form and leaks none of its characters.
FALLBACK_LABEL = "ID"


def fine_label(entity_type: str) -> str:
    """The fine PHI label of a label or entity type: itself if it is one, else its entry in
    `LABEL_BY_ENTITY`, else `FALLBACK_LABEL`."""
    if entity_type in PHI_LABELS:
        return entity_type
    return LABEL_BY_ENTITY.get(entity_type, FALLBACK_LABEL)


def validate_label(label: str) -> str:
    """Return `label` if it is a known PHI label, else raise a ValueError naming it."""
    if label not in PHI_LABELS:
        raise ValueError(f"Unknown PHI label {label!r}; known labels: {', '.join(PHI_LABELS)}")
    return label


