import pytest
import spacy

from spacy_deid.lang.tokenizer import DeidTokenizer, create_deid_tokenizer


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


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("de", "Patientin: <b>Annegret Hufnagel</b>,",
         ["Patientin", ":", "<b>", "Annegret", "Hufnagel", "</b>", ","]),
        ("de", "<nachname>Hufnagel</nachname>", ["<nachname>", "Hufnagel", "</nachname>"]),
        ("de", "kam.</p>", ["kam", ".", "</p>"]),
        ("de", "Anna<br/>Hufnagel", ["Anna", "<br/>", "Hufnagel"]),
        ("de", "Frau&nbsp;Anna Hufnagel&amp;Sohn&#160;",
         ["Frau", "&nbsp;", "Anna", "Hufnagel", "&amp;", "Sohn", "&#160;"]),
        ("de", "Frau Anna Hufnagel\x07 kam", ["Frau", "Anna", "Hufnagel", "\x07", "kam"]),
        ("pl", "Anna\x00Kowalska\x1b", ["Anna", "\x00", "Kowalska", "\x1b"]),
        ("de", "Anna\u200bHufnagel\ufeff", ["Anna", "\u200b", "Hufnagel", "\ufeff"]),
        ("de", "Frau\u202eAnna\u2066Hufnagel\u2069", ["Frau", "\u202e", "Anna", "\u2066",
                                                     "Hufnagel", "\u2069"]),
        ("de", "Anna\u200fHufnagel", ["Anna", "\u200f", "Hufnagel"]),
        ("de", "mailto:h.meier@klinik.de'>Dr",
         ["mailto", ":", "h.meier@klinik.de", "'>", "Dr"]),
        ("de", "class=x>Anna", ["class", "=", "x", ">", "Anna"]),
        ("de", "Hufnagel<span", ["Hufnagel", "<", "span"]),
    ],
)
def test_markup_and_invisible_characters_are_tokens_of_their_own(lang, text, expected):
    assert tokens(lang, text) == expected


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        # words that keep their invisible characters: Persian's zero-width non-joiner,
        # a soft hyphen, a bidi mark after a slash inside an Arabic token
        ("fa", "آنتی\u200cبیوتیک", ["آنتی\u200cبیوتیک"]),
        ("de", "Huf\u00adnagel", ["Huf\u00adnagel"]),
        ("ar", "B/\u200fPanIN", ["B/\u200fPanIN"]),
        # arrows, comparisons and e-mail addresses in angle brackets are not tags
        ("de", "Befund --> Therapie", ["Befund", "--", ">", "Therapie"]),
        ("de", "Hb <8 g/dl", ["Hb", "<", "8", "g", "/", "dl"]),
        ("en", "<c.okereke2@nhs.net>", ["<", "c.okereke2@nhs.net", ">"]),
        ("de", "R&D-Abteilung", ["R&D-Abteilung"]),
    ],
)
def test_text_that_only_looks_like_markup_keeps_its_tokens(lang, text, expected):
    assert tokens(lang, text) == expected


def test_a_saved_pipeline_loads_with_the_codes_rules_and_its_own_special_cases(tmp_path):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    nlp.tokenizer.add_special_case("Stat.3", [{"ORTH": "Stat."}, {"ORTH": "3"}])
    # a pipeline saved by a version whose rules knew no markup: no prefixes at all
    nlp.tokenizer.prefix_search = None
    nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)
    assert isinstance(loaded.tokenizer, DeidTokenizer)
    assert loaded.tokenizer.lang == "de"
    assert [t.text for t in loaded("<b>Anna</b> Stat.3")] == ["<b>", "Anna", "</b>", "Stat.",
                                                              "3"]


def test_a_link_in_an_attribute_starts_and_ends_on_token_edges():
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    text = '<a href="https://www.klinik.de/team">Team</a>'
    doc = nlp(text)
    start = text.index("https")
    span = doc.char_span(start, start + len("https://www.klinik.de/team"))
    assert span is not None
    assert [t.text for t in doc][-3:] == ['">', "Team", "</a>"]
