import pytest

from spacy_deid.lang import LANGUAGES, parse_language_codes, validate_language
from spacy_deid.schema import (
    FALLBACK_LABEL,
    LABEL_BY_ENTITY,
    PHI_LABELS,
    PRESIDIO_ENTITY_BY_LABEL,
    fine_label,
    validate_label,
)


def test_every_label_maps_to_a_presidio_entity():
    assert set(PRESIDIO_ENTITY_BY_LABEL) == set(PHI_LABELS)
    assert PRESIDIO_ENTITY_BY_LABEL["NAME_DOCTOR"] == "PERSON"
    assert PRESIDIO_ENTITY_BY_LABEL["CONTACT_FAX"] == "PHONE_NUMBER"


def test_language_codes_are_parsed_in_order_once():
    assert parse_language_codes("de, en de  fr") == ["de", "en", "fr"]
    assert parse_language_codes("") == []


def test_validation_names_the_bad_value():
    assert validate_language("pl") == "pl" and len(LANGUAGES) == 10
    with pytest.raises(ValueError, match="Unsupported language code 'es'"):
        validate_language("es")
    with pytest.raises(ValueError, match="Unknown PHI label 'PET'"):
        validate_label("PET")


def test_one_map_and_one_fallback_for_every_foreign_entity_type():
    assert fine_label("PERSON") == "NAME_OTHER"
    assert fine_label("ORG") == "LOCATION_ORGANIZATION"
    assert fine_label("CONTACT_FAX") == "CONTACT_FAX"
    assert fine_label("PL_PESEL") == FALLBACK_LABEL == "ID"
    assert set(LABEL_BY_ENTITY.values()) <= set(PHI_LABELS)
