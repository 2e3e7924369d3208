"""deid_recase: documents in lower case or capitals only are read again in their usual case."""

import pytest
import spacy
from spacy.training import Example

from spacy_deid.detect.recase import letter_case
from tests.annotated_docs import annotated, blank

TRAINING = [
    ("Frau Helga Schmidt kam heute mit ihrer Tochter zur Kontrolle in die Ambulanz.",
     [("Helga Schmidt", "NAME_PATIENT")]),
    ("Die Tochter von Frau Ute Brandt berichtet, dass es ihr heute besser geht.",
     [("Ute Brandt", "NAME_PATIENT")]),
    ("Das EKG von Frau Eva Roth war heute unauffällig.", [("Eva Roth", "NAME_PATIENT")]),
]
# Where "Anna" stands before a capitalised word, the stand-in NER finds a patient name.
NAME_PATTERN = [{"TEXT": "Anna"}, {"IS_TITLE": True}]


def pipeline(**config):
    """A pipeline whose "NER" is an entity ruler that needs capitals, then deid_recase
    initialized from the training sentences."""
    nlp = blank("de")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": NAME_PATTERN}])
    settings = {"ner_components": ["entity_ruler"], "min_cased": 20, **config}
    recase = nlp.add_pipe("deid_recase", config=settings)
    examples = [Example(nlp.make_doc(text), annotated(nlp, text, ents)) for text, ents in TRAINING]
    recase.initialize(lambda: examples, nlp=nlp)
    return nlp


def entities(doc):
    return [(ent.text, ent.label_) for ent in doc.ents]


@pytest.mark.parametrize("text", [
    "frau anna berger kam heute mit ihrer tochter zur kontrolle.",
    "FRAU ANNA BERGER KAM HEUTE MIT IHRER TOCHTER ZUR KONTROLLE.",
])
def test_a_name_in_a_text_without_case_cues_is_found_on_its_usual_case(text):
    nlp = pipeline()
    with nlp.select_pipes(disable=["deid_recase"]):
        assert nlp(text).ents == ()
    doc = nlp(text)
    assert entities(doc) == [(text[5:16], "NAME_PATIENT")]
    assert doc.text == text


def test_the_recased_copy_writes_known_words_as_learned_and_unknown_ones_capitalised():
    nlp = pipeline()
    recase = nlp.get_pipe("deid_recase")
    copy = recase.recased(nlp.make_doc("FRAU ANNA BERGER KAM ZUR KONTROLLE, 12B."))
    assert copy.text == "Frau Anna Berger kam zur Kontrolle, 12B."
    # words inside PHI are not learned: "Helga" is capitalised because it is unknown
    assert recase.written_form("helga") == "Helga" and "helga" not in recase.forms


def test_an_unknown_form_of_a_word_written_in_lower_case_stays_in_lower_case():
    recase = pipeline().get_pipe("deid_recase")
    # "berichtet" is known in lower case: "berichten" shares its stem "berich"
    assert recase.written_form("BERICHTEN") == "berichten"
    # "Kontrolle" is known capitalised: its stem is no lower-case stem
    assert recase.written_form("kontrollen") == "Kontrollen"


def test_a_text_with_ordinary_capitals_is_left_as_it_is():
    nlp = pipeline()
    text = "Frau Anna berger kam heute mit ihrer Tochter zur Kontrolle."
    assert nlp(text).ents == ()


def test_a_text_shorter_than_min_cased_is_left_as_it_is():
    nlp = pipeline(min_cased=100)
    assert nlp("frau anna berger kam heute mit ihrer tochter zur kontrolle.").ents == ()


def test_the_entities_found_on_the_copy_replace_those_of_the_first_reading():
    nlp = pipeline()
    recase = nlp.get_pipe("deid_recase")
    doc = nlp.make_doc("ANNA BERGER KAM HEUTE MIT IHRER TOCHTER ZUR KONTROLLE.")
    doc.ents = [doc.char_span(0, 4, label="LOCATION_CITY"), doc.char_span(16, 21,
                                                                          label="NAME_OTHER")]
    assert entities(recase(doc)) == [("ANNA BERGER", "NAME_PATIENT")]


@pytest.mark.parametrize(("text", "expected"), [
    ("ein text ganz in kleinbuchstaben", "lower"),
    ("EIN TEXT GANZ IN GROSSBUCHSTABEN", "upper"),
    ("Ein Text mit gewöhnlicher Schreibung", None),
    ("kurz", None),
    ("123 456 789 / 12.03.2024 - 55 66 77", None),
    # few capitals, but the sentences start with one: ordinary text without names
    ("Der Befund ist unauffällig. Keine weiteren Maßnahmen erforderlich", None),
    # sentences starting in lower case; the period of "z.b." ends no sentence
    ("bauchschmerzen seit gestern, z.b. nach dem essen. hausarzt informiert", "lower"),
    # an Arabic text with a login and an address in Latin letters
    ("راجع الطبيب سامر القحطاني المريض في العيادة اليوم، توقيع: sqahtani، البريد: "
     "sqahtani@example.org", None),
])
def test_letter_case(text, expected):
    assert letter_case(text, min_cased=20, lower_share=0.01, upper_share=0.8) == expected


def test_what_it_learned_is_saved_with_the_pipeline(tmp_path):
    nlp = pipeline()
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("deid_recase").forms == nlp.get_pipe("deid_recase").forms
    assert entities(loaded("frau anna berger kam heute zur kontrolle.")) == [
        ("anna berger", "NAME_PATIENT")]


SURNAME_IN_CAPITALS = "Frau Anna BERGER kam heute mit ihrer Tochter zur Kontrolle."


def test_a_surname_in_capitals_in_ordinary_text_is_found_on_its_usual_case():
    doc = pipeline(min_word_capitals=3)(SURNAME_IN_CAPITALS)
    assert entities(doc) == [("Anna BERGER", "NAME_PATIENT")]


def test_words_in_capitals_are_left_alone_by_default():
    assert pipeline()(SURNAME_IN_CAPITALS).ents == ()


def test_only_long_words_in_capitals_that_are_usually_written_otherwise_are_rewritten():
    nlp = pipeline(min_word_capitals=3)
    recase = nlp.get_pipe("deid_recase")
    doc = nlp.make_doc("Das EKG von Anna BERGER, AB.")
    words = recase.unusual_capitals(doc)
    assert [doc[i].text for i in sorted(words)] == ["BERGER"]
    assert recase.recased(doc, only=words).text == "Das EKG von Anna Berger, AB."


def test_an_entity_on_a_word_in_capitals_replaces_only_entities_it_encloses():
    recase = pipeline(min_word_capitals=3).get_pipe("deid_recase")
    inside = recase.nlp.make_doc(SURNAME_IN_CAPITALS)
    inside.ents = [inside.char_span(5, 9, label="NAME_OTHER")]
    assert entities(recase(inside)) == [("Anna BERGER", "NAME_PATIENT")]
    across = recase.nlp.make_doc(SURNAME_IN_CAPITALS)
    across.ents = [across.char_span(10, 20, label="NAME_OTHER")]
    assert entities(recase(across)) == [("BERGER kam", "NAME_OTHER")]


@pytest.mark.parametrize("config", [{"ner_components": []}, {"lower_share": 0.9},
                                    {"min_cased": 0}, {"min_word_capitals": -1}])
def test_bad_settings_are_refused(config):
    with pytest.raises(ValueError, match="deid_recase"):
        pipeline(**config)


def test_a_pipeline_without_any_of_its_ner_components_is_a_clear_error():
    nlp = pipeline(ner_components=["ner"])
    with pytest.raises(ValueError, match="none of ner_components"):
        nlp("frau anna berger kam heute mit ihrer tochter zur kontrolle.")
