import pytest
import spacy
from spacy_deid.tokenizer import create_deid_tokenizer


def tokens(lang, text):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    return [t.text for t in nlp(text)]


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("de", "Hr.Baastrup", ["Hr.", "Baastrup"]),
        ("de", "am 27.03.2029.", ["am", "27.03.2029", "."]),
        ("de", "vom 11.01.-14.01.2026", ["vom", "11.01.", "-", "14.01.2026"]),
        ("de", "geb. 30.12.1987der", ["geb.", "30.12.1987", "der"]),
        ("de", "20.05.2034:Leukozyten", ["20.05.2034", ":", "Leukozyten"]),
        ("tr", "Ankara'da", ["Ankara", "'", "da"]),
        ("tr", "2007'den beri", ["2007", "'", "den", "beri"]),
        ("ru", "05.2023–05.2019", ["05.2023", "–", "05.2019"]),
        ("ar", "والمصري", ["و", "المصري"]),
        ("ar", "\u200f24/12/2027", ["\u200f", "24", "/", "12", "/", "2027"]),
        ("fa", "(۲۰۳۳).", ["(", "۲۰۳۳", ")", "."]),
    ],
)
def test_phi_boundaries_become_token_boundaries(lang, text, expected):
    assert tokens(lang, text) == expected


def test_language_rules_are_the_languages_own():
    # German keeps its abbreviation exceptions, English its contractions
    assert tokens("de", "z.B. heute") == ["z.B.", "heute"]
    assert tokens("en", "don't") == ["do", "n't"]


def test_tokenizer_survives_serialization(tmp_path):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "tr"}}})
    nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)
    assert [t.text for t in loaded("Ankara'da 2006.")] == ["Ankara", "'", "da", "2006", "."]


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="Unsupported language code 'xy'"):
        create_deid_tokenizer("xy")


def test_multilingual_tokenizer_has_every_languages_extra_splits():
    assert tokens("xx", "Ankara'da والمصري 27.03.2029.") == [
        "Ankara", "'", "da", "و", "المصري", "27.03.2029", "."]


def test_a_new_language_gets_spacys_rules_and_the_common_splits():
    assert tokens("es", "del 27.03.2029.") == ["del", "27.03.2029", "."]
