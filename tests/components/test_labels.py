import pytest
from spacy_deid.labels import (
    LANGUAGES,
    PHI_LABELS,
    PRESIDIO_ENTITY_BY_LABEL,
    parse_language_codes,
    validate_label,
    validate_language,
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
