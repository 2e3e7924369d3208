"""deid_name_forms: known first names and names with an initial, found without cue words."""

import pytest
import spacy

from tests.annotated_docs import annotated, blank, initialized

TRAINING = [
    ("Frau Wetterhahn kam zur Kontrolle.", [("Wetterhahn", "NAME_PATIENT")]),
    ("Die Farbe Rosa war auffällig. Die Farbe Rosa blieb.", []),
    ("Die Patientin kam. Die Patientin ging.", []),
]


def trained(lang="de", training=TRAINING, **config):
    return initialized("deid_name_forms", lang, training, {"lang": lang, **config})


def found(nlp, text, entities=()):
    doc = nlp.get_pipe("deid_name_forms")(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_a_known_first_name_alone_is_found():
    assert found(trained(), "Aktuell gehe es Maria gut.") == [("Maria", "NAME_PATIENT")]


def test_capitalised_words_after_a_first_name_join_it():
    assert found(trained(), "PATIENTIN:\nGerlinde Schiefbach, geb: 16.7.1999") == [
        ("Gerlinde Schiefbach", "NAME_PATIENT")]


def test_a_double_first_name_of_two_known_first_names_is_known():
    assert found(trained(), "Arzt: Dr. Wirth | Jan-Hendrik Siebers, Ostseite") == [
        ("Jan-Hendrik Siebers", "NAME_PATIENT")]
    assert found(trained(), "Bahnhof Jan-Zitterbach heute") == []


def test_a_name_word_of_the_training_documents_is_known():
    assert found(trained(), "Danach kam Wetterhahn wieder.") == [("Wetterhahn", "NAME_PATIENT")]


def test_inflected_forms_of_a_known_name_are_known():
    training = [("Пациентка Эльвира поступила.", [("Эльвира", "NAME_PATIENT")])]
    nlp = trained("ru", training=training, faker_names=False)
    assert found(nlp, "Состояние Эльвиры стабильно.") == [("Эльвиры", "NAME_PATIENT")]


def test_a_first_name_only_mimesis_lists_needs_a_surname_after_it():
    nlp = trained("tr", training=[])
    assert found(nlp, "Saygılarımızla\nBurcu Tandoğan\nServis Hekimi") == [
        ("Burcu Tandoğan", "NAME_PATIENT")]
    # "Eylül" (September) is a first name in those lists too
    assert found(nlp, "Eylül 2028'den itibaren okula gidecek.") == []
    assert found(nlp, "BURCU TANDOĞAN") == []


def test_without_case_a_first_name_only_mimesis_lists_counts_as_a_signature_line():
    nlp = trained("fa", training=[])
    # "داریوش" is in Mimesis's Persian list, not in Faker's
    assert found(nlp, "با سپاس\nداریوش نوروزی (پزشک)") == [("داریوش نوروزی", "NAME_PATIENT")]
    assert found(nlp, "با سپاس\nداریوش نوروزی\nبخش") == [("داریوش نوروزی", "NAME_PATIENT")]
    assert found(nlp, "با سپاس\nداریوش نوروزی، بخش") == [("داریوش نوروزی", "NAME_PATIENT")]
    # not opening its line, or more words before the line's end: not a signature
    assert found(nlp, "دیروز داریوش نوروزی (پزشک)") == []
    assert found(nlp, "داریوش نوروزی امروز آمد") == []
    assert found(nlp, "داریوش\nبخش") == []


def test_faker_names_can_be_switched_off():
    assert found(trained(faker_names=False), "Aktuell gehe es Maria gut.") == []


def test_ordinary_and_lowercase_words_are_never_names():
    nlp = trained()
    assert nlp.get_pipe("deid_name_forms").is_known_name("Rosa")
    assert found(nlp, "Die Haut war Rosa.") == []
    assert found(nlp, "die maria war da") == []


def test_a_surname_before_an_initial_is_a_doctor_by_default():
    assert found(trained(), "Orthoptistin: Haselbein H. MBA") == [
        ("Haselbein H.", "NAME_DOCTOR")]


@pytest.mark.parametrize(("text", "name"), [
    # a role word before an initial and a surname is not the name
    ("Pflegekraft K. Adeyemi gab die Medikation.", "K. Adeyemi"),
    # a known first name before a middle initial is
    ("Befund: Tobias M. Wendelstein, Oberarzt", "Tobias M. Wendelstein"),
    # a title after the initial is no surname
    ("Ärztin: Quastenberg Q. Dr. med.", "Quastenberg Q."),
])
def test_an_initial_before_a_surname_opens_the_name(text, name):
    assert found(trained(), text) == [(name, "NAME_DOCTOR")]


def test_an_initial_the_tokenizer_splits_from_its_dot_counts():
    assert found(trained("pl", training=[]), "Ortoptystka: Hanuszek H. MBA") == [
        ("Hanuszek H.", "NAME_DOCTOR")]


def test_an_initial_already_marked_as_a_person_takes_the_surname_before_it():
    text = "Orthoptistin: Quastenberg Q. MBA"
    assert found(trained(), text, [("Q.", "NAME_DOCTOR")]) == [("Quastenberg Q.", "NAME_DOCTOR")]
    # the label stays the one the entity had, and words after the initial stay in it
    assert found(trained(), text, [("Q. MBA", "NAME_PATIENT")]) == [
        ("Quastenberg Q. MBA", "NAME_PATIENT")]


def test_an_initial_marked_alone_after_a_title_takes_the_surname_after_it():
    nlp = trained()
    assert found(nlp, "Gez. Dr. H. Quastenberg", [("Dr.", "NAME_TITLE"), ("H.", "NAME_DOCTOR")]
                 ) == [("Dr.", "NAME_TITLE"), ("H. Quastenberg", "NAME_DOCTOR")]
    # lower-case and ordinary words are no surnames
    assert found(nlp, "Dr. H. kam.", [("Dr.", "NAME_TITLE"), ("H.", "NAME_DOCTOR")]) == [
        ("Dr.", "NAME_TITLE"), ("H.", "NAME_DOCTOR")]
    assert found(nlp, "Dr. H. Patientin", [("Dr.", "NAME_TITLE"), ("H.", "NAME_DOCTOR")]) == [
        ("Dr.", "NAME_TITLE"), ("H.", "NAME_DOCTOR")]


def test_an_initial_entity_keeps_its_edges_after_ordinary_words_and_other_labels():
    nlp = trained()
    # "Patientin" is an ordinary word of the training documents; "Q." as a title is no person
    assert found(nlp, "Die Patientin Q. kam.", [("Q.", "NAME_PATIENT")]) == [
        ("Q.", "NAME_PATIENT")]
    assert found(nlp, "Orthoptistin: Quastenberg Q. MBA", [("Q.", "NAME_TITLE")]) == [
        ("Q.", "NAME_TITLE")]
    assert found(nlp, "Orthoptistin: Quastenberg Q. MBA",
                 [("Quastenberg", "NAME_DOCTOR"), ("Q.", "NAME_DOCTOR")]) == [
        ("Quastenberg", "NAME_DOCTOR"), ("Q.", "NAME_DOCTOR")]


def test_one_default_label_can_be_changed_alone():
    nlp = trained(default_labels={"with_initial": "NAME_OTHER"})
    assert found(nlp, "Orthoptistin: Haselbein H. MBA") == [("Haselbein H.", "NAME_OTHER")]


def test_the_label_of_a_form_is_learned_from_the_training_documents():
    training = [("Befund: Anna Berg und Maria Kolb.",
                 [("Anna Berg", "NAME_DOCTOR"), ("Maria Kolb", "NAME_DOCTOR")])]
    nlp = trained(training=training)
    assert nlp.get_pipe("deid_name_forms").labels == {"first_name": "NAME_DOCTOR"}
    assert found(nlp, "Gestern sah Rosa ihn.") == [("Rosa", "NAME_DOCTOR")]


def test_without_case_the_next_word_joins_a_first_name_and_later_ones_only_if_known():
    training = [("زارت ياسمن العيادة", [("ياسمن", "NAME_PATIENT")]),
                ("وقال الطبيب سليم البيطار", [("سليم البيطار", "NAME_DOCTOR")]),
                ("تحسنت كثيرا وأكلت كثيرا", [])]
    nlp = trained("ar", training=training, faker_names=False)
    # "كثيرا" is an ordinary word of the training documents
    assert found(nlp, "تستفيد ياسمن كثيرا") == [("ياسمن", "NAME_PATIENT")]
    assert found(nlp, "رأت ياسمن حداد") == [("ياسمن حداد", "NAME_PATIENT")]
    assert found(nlp, "رأت ياسمن حداد اليوم") == [("ياسمن حداد", "NAME_PATIENT")]
    assert found(nlp, "رأت ياسمن سليم البيطار") == [("ياسمن سليم البيطار", "NAME_PATIENT")]


def test_a_first_name_sharing_no_word_with_the_patient_takes_the_label_learned_for_that():
    training = [("Patientin Anna Berg, Ärztin Maria Kolb.",
                 [("Anna Berg", "NAME_PATIENT"), ("Maria Kolb", "NAME_DOCTOR")]),
                ("Frau Berg kam, Anna Berg ging.",
                 [("Berg", "NAME_PATIENT"), ("Anna Berg", "NAME_PATIENT")])]
    nlp = trained(training=training)
    forms = nlp.get_pipe("deid_name_forms")
    assert forms.labels["first_name"] == "NAME_PATIENT"
    assert forms.labels["first_name_other_than_patient"] == "NAME_DOCTOR"
    text = "Frau Rot kam. Pflege: Rosa Lind. Rosa Rot ging."
    assert found(nlp, text, [("Rot", "NAME_PATIENT")]) == [
        ("Rot", "NAME_PATIENT"), ("Rosa Lind", "NAME_DOCTOR"), ("Rosa Rot", "NAME_PATIENT")]
    # without a patient in the letter, the first-name label
    assert found(nlp, "Pflege: Rosa Lind.") == [("Rosa Lind", "NAME_PATIENT")]


def test_existing_entities_win():
    nlp = trained()
    assert found(nlp, "Klinik Maria Hilf in Bonn", [("Klinik Maria Hilf", "LOCATION_HOSPITAL")]
                 ) == [("Klinik Maria Hilf", "LOCATION_HOSPITAL")]


def test_what_was_learned_survives_saving_and_loading(tmp_path):
    nlp = trained()
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    forms = loaded.get_pipe("deid_name_forms")
    assert forms.names == {"wetterhahn"}
    assert "rosa" in forms.ordinary_words
    assert [(e.text, e.label_) for e in loaded("Danach kam Wetterhahn wieder.").ents] == [
        ("Wetterhahn", "NAME_PATIENT")]


def test_loading_without_the_data_file_is_a_clear_error(tmp_path):
    nlp = trained()
    nlp.to_disk(tmp_path / "pipeline")
    (tmp_path / "pipeline" / "deid_name_forms" / "name_forms.json").unlink()
    with pytest.raises(ValueError, match="name_forms.json is missing"):
        spacy.load(tmp_path / "pipeline")


@pytest.mark.parametrize("config, message", [
    ({"lang": "xx"}, "xx"),
    ({"lang": "de", "default_labels": {"first_name": "DATE", "with_initial": "NAME_DOCTOR"}},
     "person labels"),
    ({"lang": "de", "default_labels": {"surname": "NAME_PATIENT"}}, "exactly the keys"),
    ({"lang": "de", "max_tokens": 1}, "max_tokens"),
])
def test_bad_settings_are_refused_at_creation(config, message):
    with pytest.raises(ValueError, match=message):
        blank().add_pipe("deid_name_forms", config=config)


@pytest.mark.parametrize(("lang", "text", "name"), [
    ("tr", "Yardımcı personel: Hemşire Zehra Bilen", "Zehra Bilen"),
    ("fa", "دستیار عمل: کارشناس پرستاری کبری بلوری", "کبری بلوری"),
])
def test_common_first_names_that_faker_lacks_come_from_the_project_list(lang, text, name):
    assert found(trained(lang, training=[]), text) == [(name, "NAME_PATIENT")]


def test_a_name_word_alone_takes_the_label_of_the_detected_person_it_belongs_to():
    nlp = trained()
    text = "Ärztin: Maria Schiefbach\nMaria kam später."
    # a first name alone is otherwise a patient's (the default label)
    assert found(nlp, "Maria kam später.") == [("Maria", "NAME_PATIENT")]
    assert found(nlp, text, [("Maria Schiefbach", "NAME_DOCTOR")]) == [
        ("Maria Schiefbach", "NAME_DOCTOR"), ("Maria", "NAME_DOCTOR")]
    # with a surname after it, the first name is another person's and keeps its own label
    text = "Ärztin: Maria Schiefbach\nMaria Wetterhahn kam."
    assert found(nlp, text, [("Maria Schiefbach", "NAME_DOCTOR")])[-1] == (
        "Maria Wetterhahn", "NAME_PATIENT")


def test_an_inflected_name_word_takes_the_label_of_the_detected_person():
    training = [("Пациентка Эльвира поступила.", [("Эльвира", "NAME_PATIENT")])]
    nlp = trained("ru", training=training, faker_names=False)
    assert found(nlp, "Состояние Эльвиры стабильно.") == [("Эльвиры", "NAME_PATIENT")]
    text = "Мать: Эльвира Смирнова\nСостояние Эльвиры стабильно."
    assert found(nlp, text, [("Эльвира Смирнова", "NAME_RELATIVE")])[-1] == (
        "Эльвиры", "NAME_RELATIVE")
