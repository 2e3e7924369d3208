import pytest
import spacy
from spacy.tokens import Span

from tests.annotated_docs import annotated, initialized


def pipeline(lang="de", config=None):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    nlp.add_pipe("deid_mention_propagation", config=config or {})
    return nlp


def with_entities(nlp, text, entities):
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label)
                for t, label in entities]
    return nlp.get_pipe("deid_mention_propagation")(doc)


def test_surname_and_uppercase_mentions_are_added():
    nlp = pipeline()
    text = "Patientin Beate Albrecht kam. Frau Albrecht ist stabil. ALBRECHT, Beate"
    doc = with_entities(nlp, text, [("Beate Albrecht", "NAME_PATIENT")])
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Beate Albrecht", "NAME_PATIENT"), ("Albrecht", "NAME_PATIENT"),
        ("ALBRECHT", "NAME_PATIENT"), ("Beate", "NAME_PATIENT")]


def test_lowercase_words_and_existing_entities_are_left_alone():
    nlp = pipeline("en")
    text = "Dr. Rose saw Ann Rose. The rose garden. Rose Street"
    doc = with_entities(nlp, text, [("Ann Rose", "NAME_PATIENT"),
                                    ("Rose Street", "LOCATION_STREET")])
    labels = [(e.text, e.label_) for e in doc.ents]
    assert ("Rose", "NAME_PATIENT") in labels            # "Dr. Rose"
    assert ("Rose Street", "LOCATION_STREET") in labels  # existing entity kept
    assert not any(e.text == "rose" for e in doc.ents)   # the flower


def test_ids_and_places_propagate_as_whole_strings():
    nlp = pipeline()
    text = "Fall-Nr. 4711-22 in Leipzig. Rueckfragen zu 4711-22 aus Leipzig."
    doc = with_entities(nlp, text, [("4711-22", "ID"), ("Leipzig", "LOCATION_CITY")])
    assert [e.label_ for e in doc.ents] == ["ID", "LOCATION_CITY", "ID", "LOCATION_CITY"]


def test_an_id_found_again_inside_a_longer_code_word_takes_the_whole_word():
    nlp = pipeline("en")
    text = "Ward C412 from Monday. Printed by ST-C412-WS3 on Monday."
    doc = with_entities(nlp, text, [("C412", "ID")])
    assert [(e.text, e.label_) for e in doc.ents] == [("C412", "ID"), ("ST-C412-WS3", "ID")]


def test_a_roman_numeral_id_is_not_looked_for_elsewhere():
    nlp = pipeline()
    text = "Intensivstation III, Zimmer B42. Labor: AT III normal, B42 frei."
    doc = with_entities(nlp, text, [("III", "ID"), ("B42", "ID")])
    assert [(e.start_char, e.text) for e in doc.ents] == [
        (16, "III"), (28, "B42"), (55, "B42")]


def test_scripts_without_case_are_matched():
    nlp = pipeline("ar")
    text = "المريضة روعة الطويل. اتصلت الطويل أمس"
    doc = with_entities(nlp, text, [("روعة الطويل", "NAME_PATIENT")])
    assert [e.text for e in doc.ents] == ["روعة الطويل", "الطويل"]


def test_titles_and_dates_do_not_propagate():
    nlp = pipeline()
    doc = nlp.make_doc("Dr. med. Weber am 5.3. und Dr. med. am 5.3.")
    doc.ents = [Span(doc, 0, 2, label="NAME_TITLE"), Span(doc, 5, 6, label="DATE")]
    assert len(nlp.get_pipe("deid_mention_propagation")(doc).ents) == 2


def test_bad_config_fails_at_creation():
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    with pytest.raises(ValueError, match="Unknown PHI label 'PET'"):
        nlp.add_pipe("deid_mention_propagation", config={"labels": ["PET"]})
    with pytest.raises(ValueError, match="min_length must be >= 1"):
        nlp.add_pipe("deid_mention_propagation", name="p2", config={"min_length": 0})
    with pytest.raises(ValueError, match="max_suffix must be >= 0"):
        nlp.add_pipe("deid_mention_propagation", name="p3", config={"max_suffix": -1})
    with pytest.raises(ValueError, match="min_lowercase_length must be >= 0"):
        nlp.add_pipe("deid_mention_propagation", name="p4",
                     config={"min_lowercase_length": -1})


@pytest.mark.parametrize("lang, text, name, inflected", [
    ("de", "Marija kam. Marijas Zustand ist stabil.", "Marija", "Marijas"),
    ("pl", "Pan Nowak przyszedł. Podano Nowakowi leki.", "Nowak", "Nowakowi"),
    ("ru", "Иванов поступил. Иванову назначено лечение.", "Иванов", "Иванову"),
])
def test_inflected_forms_of_a_one_word_name_are_added(lang, text, name, inflected):
    doc = with_entities(pipeline(lang), text, [(name, "NAME_PATIENT")])
    assert (inflected, "NAME_PATIENT") in [(e.text, e.label_) for e in doc.ents]


def test_long_endings_lowercase_words_and_places_are_not_inflections():
    nlp = pipeline()
    text = "Frau Alber kam. Albersheimer Weg, alberne Idee. Leipzig, Leipzigs Zoo."
    doc = with_entities(nlp, text, [("Alber", "NAME_PATIENT"), ("Leipzig", "LOCATION_CITY")])
    assert [e.text for e in doc.ents] == ["Alber", "Leipzig"]


def test_max_suffix_zero_turns_inflections_off():
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    nlp.add_pipe("deid_mention_propagation", config={"max_suffix": 0})
    doc = with_entities(nlp, "Marija kam. Marijas Zustand.", [("Marija", "NAME_PATIENT")])
    assert [e.text for e in doc.ents] == ["Marija"]


@pytest.mark.parametrize("lang, text, name, inflected", [
    ("ru", "Эльвира поступила. Состояние Эльвиры стабильно.", "Эльвира", "Эльвиры"),
    ("ru", "Ортоптист: Фёдорова. Подписано Фёдоровой.", "Фёдорова", "Фёдоровой"),
    ("uk", "Ольга прийшла. Стан Ольги добрий, Ользі краще.", "Ольга", "Ользі"),
    ("pl", "Agnieszka przyszła. Podano Agnieszce leki.", "Agnieszka", "Agnieszce"),
    ("pl", "Maja przyszła. Stan Mai jest dobry.", "Maja", "Mai"),
    ("ar", "حضرت ياسمين اليوم. حالة ياسمن جيدة.", "ياسمين", "ياسمن"),
    ("fa", "یاسمین امروز آمد. حال یاسمن خوب است.", "یاسمین", "یاسمن"),
])
def test_with_lang_forms_with_a_changed_ending_are_added(lang, text, name, inflected):
    def found(nlp):
        doc = with_entities(nlp, text, [(name, "NAME_PATIENT")])
        return [(e.text, e.label_) for e in doc.ents]

    assert (inflected, "NAME_PATIENT") in found(pipeline(lang, {"lang": lang}))
    # the forms come from the language's morphology: an English pipeline adds none
    assert (inflected, "NAME_PATIENT") not in found(pipeline("en"))


def test_an_unknown_lang_is_refused():
    with pytest.raises(ValueError, match="xx"):
        pipeline("de", {"lang": "xx"})


@pytest.mark.parametrize("lang, text, patient, initial", [
    ("tr", "Hastamız Elif Acar hakkında.\nİlk başvuru:\nE. yaklaşık L5 seviyesinde.",
     "Elif Acar", "E."),
    ("fa", "بیمار نازنین بیگدلی\nنخستین مراجعه:\nن. با اسپینا بیفیدا", "نازنین بیگدلی", "ن."),
])
def test_a_patient_initial_opening_a_line_before_a_lowercase_word_is_the_patient(
        lang, text, patient, initial):
    doc = with_entities(pipeline(lang), text, [(patient, "NAME_PATIENT")])
    assert (initial, "NAME_PATIENT") in [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize("text", [
    "Frau Maria Huber kam.\nM. Parkinson ist bekannt.",  # a capitalised word follows
    "Frau Maria Huber kam.\nZ. n. Operation.",           # not the patient's initial
    "Frau Maria Huber kam. Siehe M. wird besprochen.",   # not at the start of a line
])
def test_other_initials_are_left_alone(text):
    doc = with_entities(pipeline("de"), text, [("Maria Huber", "NAME_PATIENT")])
    assert [e.text for e in doc.ents] == ["Maria Huber"]


def test_initials_need_the_patient_label_in_labels():
    nlp = pipeline("tr", {"labels": ["NAME_DOCTOR"]})
    doc = with_entities(nlp, "Elif Acar\nE. yaklaşık", [("Elif Acar", "NAME_PATIENT")])
    assert [e.text for e in doc.ents] == ["Elif Acar"]


def test_the_labels_are_listed_in_one_order():
    nlp = spacy.blank("de")
    component = nlp.add_pipe("deid_mention_propagation",
                             config={"labels": ["NAME_PATIENT", "ID", "LOCATION_CITY"]})
    assert component.labels == ("ID", "LOCATION_CITY", "NAME_PATIENT")
    assert nlp.meta["labels"]["deid_mention_propagation"] == [
        "ID", "LOCATION_CITY", "NAME_PATIENT"]


LOWERCASE_TRAINING = [
    ("The masse was palpable. The masse grew. Seen by Ellen Okafor.",
     [("Ellen Okafor", "NAME_DOCTOR")]),
    ("Nurse: the masse is smaller today.", []),
]


def lowercase_pipeline(**config):
    return initialized("deid_mention_propagation", "en", LOWERCASE_TRAINING,
                       {"min_lowercase_length": 4, **config})


def propagated(nlp, text, entities):
    doc = nlp.get_pipe("deid_mention_propagation")(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_a_lowercase_surname_of_a_detected_name_is_added():
    text = "Patient: Peter Hepworth. 13:00 hepworth mobilised to the bay window."
    assert propagated(lowercase_pipeline(), text, [("Peter Hepworth", "NAME_PATIENT")]) == [
        ("Peter Hepworth", "NAME_PATIENT"), ("hepworth", "NAME_PATIENT")]


def test_an_ordinary_word_short_word_or_place_is_not_taken_in_lowercase():
    text = "Ms Anna Masse, Kent Street. The masse is soft; anna slept; kent road."
    entities = [("Anna Masse", "NAME_PATIENT"), ("Kent Street", "LOCATION_STREET")]
    assert propagated(lowercase_pipeline(min_lowercase_length=5), text, entities) == [
        ("Anna Masse", "NAME_PATIENT"), ("Kent Street", "LOCATION_STREET")]


def test_without_initialize_or_the_setting_no_lowercase_word_is_taken():
    text = "Patient: Peter Hepworth. 13:00 hepworth mobilised."
    entities = [("Peter Hepworth", "NAME_PATIENT")]
    uninitialised = pipeline("en", {"min_lowercase_length": 4})
    assert [e.text for e in with_entities(uninitialised, text, entities).ents] == [
        "Peter Hepworth"]
    assert propagated(lowercase_pipeline(min_lowercase_length=0), text, entities) == [
        ("Peter Hepworth", "NAME_PATIENT")]


def test_the_ordinary_words_survive_saving(tmp_path):
    nlp = lowercase_pipeline()
    nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    component = reloaded.get_pipe("deid_mention_propagation")
    assert "masse" in component.ordinary_words
    assert component.learned() == nlp.get_pipe("deid_mention_propagation").learned()


def test_an_uninitialised_component_survives_saving(tmp_path):
    nlp = pipeline("en")
    nlp.to_disk(tmp_path / "pipeline")
    assert spacy.load(tmp_path / "pipeline").get_pipe(
        "deid_mention_propagation").ordinary_words is None


def test_a_one_word_name_is_no_source_of_lowercase_mentions():
    text = "Ophthalmologist review. The ophthalmologist advised reading glasses."
    assert propagated(lowercase_pipeline(), text, [("Ophthalmologist", "NAME_DOCTOR")]) == [
        ("Ophthalmologist", "NAME_DOCTOR")]


def test_an_ordinary_word_in_capitals_is_not_another_mention():
    # "MASSE" taken for a name in a text in capitals: its other occurrences stay free
    text = "THE MASSE WAS SOFT. THE MASSE GREW. SEEN BY ELLEN OKAFOR. OKAFOR AGREED."
    entities = [("MASSE", "NAME_PATIENT"), ("ELLEN OKAFOR", "NAME_DOCTOR")]
    assert propagated(lowercase_pipeline(), text, entities) == [
        ("MASSE", "NAME_PATIENT"), ("ELLEN OKAFOR", "NAME_DOCTOR"), ("OKAFOR", "NAME_DOCTOR")]


def test_an_ordinary_word_written_with_a_capital_is_still_a_mention():
    # case still tells a name there; only capitals lose it
    text = "Ms Anna Masse came. Masse is stable."
    assert propagated(lowercase_pipeline(), text, [("Anna Masse", "NAME_PATIENT")]) == [
        ("Anna Masse", "NAME_PATIENT"), ("Masse", "NAME_PATIENT")]


def test_an_ordinary_word_in_capitals_is_no_source_of_inflected_forms():
    text = "THE MASSE GREW. MASSES FOUND. ELLEN OKAFOR CAME. OKAFORS NOTE."
    entities = [("MASSE", "NAME_PATIENT"), ("ELLEN OKAFOR", "NAME_DOCTOR")]
    assert propagated(lowercase_pipeline(), text, entities) == [
        ("MASSE", "NAME_PATIENT"), ("ELLEN OKAFOR", "NAME_DOCTOR"), ("OKAFORS", "NAME_DOCTOR")]
