"""deid_name_cues: cue words learned from gold documents mark the names next to them."""

import pytest
import spacy
from spacy.tokens import Doc

from tests.annotated_docs import annotated, blank, initialized

TRAINING = [
    ("Frau Albrecht kam.", [("Albrecht", "NAME_PATIENT")]),
    ("Frau Berger ging.", [("Berger", "NAME_PATIENT")]),
    ("Dr. Kunz und Dr. Lange sahen Frau Roth.",
     [("Dr.", "NAME_TITLE"), ("Kunz", "NAME_DOCTOR"), ("Dr.", "NAME_TITLE"),
      ("Lange", "NAME_DOCTOR"), ("Roth", "NAME_PATIENT")]),
    ("Dr. Seidel und Kolb kamen.",
     [("Dr.", "NAME_TITLE"), ("Seidel", "NAME_DOCTOR"), ("Kolb", "NAME_DOCTOR")]),
    ("Dr. Wolf und Haas kamen.",
     [("Dr.", "NAME_TITLE"), ("Wolf", "NAME_DOCTOR"), ("Haas", "NAME_DOCTOR")]),
    ("Ute Sommer, geb. 1950, kam. Eva Stein, geb. 1960, ging.",
     [("Ute Sommer", "NAME_PATIENT"), ("Eva Stein", "NAME_PATIENT")]),
    ("Die Patientin kam. Die Patientin ging. Die Kollegin kam. Die Kollegin ging.", []),
]

ARABIC = [("السيدة الطويل تعاني", [("الطويل", "NAME_PATIENT")]),
          ("السيدة الحسن تعاني", [("الحسن", "NAME_PATIENT")])]


def trained(language="de", training=TRAINING, **config):
    return initialized("deid_name_cues", language, training, config)


def found(nlp, text, entities=()):
    doc = nlp.get_pipe("deid_name_cues")(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_cues_before_and_after_names_are_learned_with_their_label():
    cues = trained().get_pipe("deid_name_cues")
    assert cues.cues_before["frau"] == "NAME_PATIENT"
    assert cues.cues_before["<NAME_TITLE>"] == "NAME_DOCTOR"
    assert cues.cues_after["geb."] == "NAME_PATIENT"
    assert "und" in cues.joiners
    assert {"patientin", "kollegin"} <= cues.common_words


def test_a_name_after_a_cue_word_is_found():
    assert found(trained(), "Heute kam Frau Wetterhahn zur Kontrolle.") == [
        ("Wetterhahn", "NAME_PATIENT")]


def test_a_name_after_a_title_entity_takes_the_title_label_and_both_words():
    nlp = trained()
    assert found(nlp, "Gez. Dr. Inge Krahn", [("Dr.", "NAME_TITLE")]) == [
        ("Dr.", "NAME_TITLE"), ("Inge Krahn", "NAME_DOCTOR")]


def test_a_name_before_an_after_cue_is_found_past_the_comma():
    assert found(trained(), "Luise Ulmer, geb. 1959") == [("Luise Ulmer", "NAME_PATIENT")]


def test_a_joined_second_name_gets_the_label_of_the_first():
    nlp = trained()
    text = "Dr. Seidl und Pfetzer melden sich."
    assert found(nlp, text, [("Dr.", "NAME_TITLE"), ("Seidl", "NAME_DOCTOR")]) == [
        ("Dr.", "NAME_TITLE"), ("Seidl", "NAME_DOCTOR"), ("Pfetzer", "NAME_DOCTOR")]



SIGNATURE_COLUMNS = [
    ("Dr. Kunz\tDr. Lange", [("Dr.", "NAME_TITLE"), ("Kunz", "NAME_DOCTOR"),
                             ("Dr.", "NAME_TITLE"), ("Lange", "NAME_DOCTOR")]),
    ("Dr. Wolf \tHaas", [("Dr.", "NAME_TITLE"), ("Wolf", "NAME_DOCTOR"),
                          ("Haas", "NAME_DOCTOR")]),
]


def test_a_tab_between_signature_columns_is_learned_as_a_joiner_past_the_title():
    nlp = trained(training=TRAINING[:3] + SIGNATURE_COLUMNS)
    assert "<GAP>" in nlp.get_pipe("deid_name_cues").joiners
    text = "Dr. Seidl \tPfetzer\nKlinik"
    assert found(nlp, text, [("Dr.", "NAME_TITLE"), ("Seidl", "NAME_DOCTOR")]) == [
        ("Dr.", "NAME_TITLE"), ("Seidl", "NAME_DOCTOR"), ("Pfetzer", "NAME_DOCTOR")]


def test_one_column_of_a_kind_is_not_enough_to_learn_the_gap():
    nlp = trained(training=TRAINING[:3] + SIGNATURE_COLUMNS[:1])
    assert "<GAP>" not in nlp.get_pipe("deid_name_cues").joiners


def test_a_joiner_the_ner_took_into_a_name_is_dropped_and_the_joined_name_found():
    nlp = trained()
    text = "Dr. Seidl und Pfetzer melden sich."
    assert found(nlp, text, [("Dr.", "NAME_TITLE"), ("Seidl und", "NAME_DOCTOR")]) == [
        ("Dr.", "NAME_TITLE"), ("Seidl", "NAME_DOCTOR"), ("Pfetzer", "NAME_DOCTOR")]


def test_a_capitalised_word_like_a_joiner_stays_in_the_name():
    nlp = trained()
    assert found(nlp, "Herr Peter UND kam.", [("Peter UND", "NAME_PATIENT")]) == [
        ("Peter UND", "NAME_PATIENT")]

def test_common_words_lowercase_words_and_existing_entities_are_never_names():
    nlp = trained()
    assert found(nlp, "Sehr geehrte Frau Kollegin, danke.") == []
    assert found(nlp, "Frau klagt über Schmerzen.") == []
    assert found(nlp, "Frau Berlin", [("Berlin", "LOCATION_CITY")]) == [
        ("Berlin", "LOCATION_CITY")]


def test_scripts_without_case_take_any_word_that_is_not_common():
    nlp = trained("ar", ARABIC)
    assert found(nlp, "ثم قفزت السيدة نعمان تعاني") == [("نعمان", "NAME_PATIENT")]


def test_names_stop_at_max_tokens():
    nlp = trained(max_tokens=1)
    assert found(nlp, "Frau Anna Maria Wetterhahn") == [("Anna", "NAME_PATIENT")]


def test_an_untrained_component_changes_nothing():
    nlp = blank()
    nlp.add_pipe("deid_name_cues")
    doc = nlp("Frau Wetterhahn")
    assert doc.ents == ()


def test_learned_cues_survive_to_disk_and_back(tmp_path):
    nlp = trained()
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("deid_name_cues").learned() == nlp.get_pipe(
        "deid_name_cues").learned()
    assert [(e.text, e.label_) for e in loaded("Heute Frau Wetterhahn.").ents] == [
        ("Wetterhahn", "NAME_PATIENT")]
    restored = blank().add_pipe("deid_name_cues").from_bytes(
        nlp.get_pipe("deid_name_cues").to_bytes())
    assert restored.cues_before == nlp.get_pipe("deid_name_cues").cues_before


def test_saved_cues_with_a_non_name_label_are_refused(tmp_path):
    cues = trained().get_pipe("deid_name_cues")
    data = cues.learned()
    data["cues_before"]["frau"] = "DATE"
    with pytest.raises(ValueError, match="not person names"):
        cues.load_learned(data)


def test_a_missing_data_file_is_a_clear_error(tmp_path):
    nlp = blank()
    cues = nlp.add_pipe("deid_name_cues")
    with pytest.raises(ValueError, match="missing"):
        cues.from_disk(tmp_path)


@pytest.mark.parametrize("config", [{"max_tokens": 0}, {"min_cue_ratio": 0},
                                    {"min_cue_ratio": 1.5}, {"min_common_count": 0}])
def test_bad_settings_are_refused_at_creation(config):
    with pytest.raises(ValueError, match="deid_name_cues"):
        blank().add_pipe("deid_name_cues", config=config)


def test_an_empty_document_passes():
    nlp = trained()
    assert nlp.get_pipe("deid_name_cues")(Doc(nlp.vocab, words=[])).ents == ()


def test_the_word_before_a_title_is_learned_as_a_cue_too():
    training = [("Mit freundlichen Grüßen\nDr. Kunz", [("Dr.", "NAME_TITLE"),
                                                      ("Kunz", "NAME_DOCTOR")]),
                ("Mit freundlichen Grüßen\nProf. Lange", [("Prof.", "NAME_TITLE"),
                                                         ("Lange", "NAME_DOCTOR")]),
                ("Eva von Stein und Ute von Roth", [("Eva von Stein", "NAME_PATIENT"),
                                                    ("Ute von Roth", "NAME_PATIENT")])]
    nlp = trained(training=training)
    assert nlp.get_pipe("deid_name_cues").cues_before["grüßen"] == "NAME_DOCTOR"
    assert found(nlp, "Mit freundlichen Grüßen\nNotburga von Osler") == [
        ("Notburga von Osler", "NAME_DOCTOR")]


def test_a_title_the_ner_missed_still_announces_a_name():
    nlp = trained()
    assert nlp.get_pipe("deid_name_cues").cues_before["dr."] == "NAME_DOCTOR"
    assert found(nlp, "Augenarzt Dr. Perchtold, zuletzt") == [("Perchtold", "NAME_DOCTOR")]


def test_a_title_of_the_language_that_training_lacks_is_a_doctor_cue():
    text = "تحية إلى الدكتورة نعمان، وبعد"
    nlp = trained("ar", ARABIC, lang="ar")
    assert nlp.get_pipe("deid_name_cues").cues_before["الدكتورة"] == "NAME_DOCTOR"
    assert found(nlp, text) == [("نعمان", "NAME_DOCTOR")]
    # the cue comes from the language's titles: an English pipeline has no such title
    assert found(trained("en", ARABIC), text) == []


def test_a_title_word_training_holds_often_without_a_name_is_no_cue():
    training = [("Лікар вищої категорії оглянув пацієнта.", []),
                ("Лікар вищої категорії", []),
                ("Пан Коваль прийшов.", [("Коваль", "NAME_PATIENT")]),
                ("Пан Мельник прийшов.", [("Мельник", "NAME_PATIENT")])]
    cues = trained("uk", training, lang="uk").get_pipe("deid_name_cues")
    assert "лікар" not in cues.cues_before
    assert cues.cues_before["д-р"] == "NAME_DOCTOR"


SIGNED_ENTRIES = [
    ("Verband gewechselt. – Ilka\nMobilisiert! – Timo",
     [("Ilka", "NAME_DOCTOR"), ("Timo", "NAME_DOCTOR")]),
    ("Kardiologie – Ambulanz\nDosis 2 – 3 Tabletten", []),
]


def test_a_dash_after_a_sentence_is_learned_as_the_cue_of_a_signed_entry():
    nlp = trained(training=SIGNED_ENTRIES)
    assert nlp.get_pipe("deid_name_cues").cues_before["<SIGN-OFF>"] == "NAME_DOCTOR"
    assert found(nlp, "Blutdruck gemessen. – Wenke\nKardiologie – Ambulanz") == [
        ("Wenke", "NAME_DOCTOR")]


def test_a_dash_that_follows_no_sentence_end_is_no_sign_off():
    nlp = trained(training=SIGNED_ENTRIES)
    assert found(nlp, "Innere Medizin – Notaufnahme\nGabe – Wetterhahn") == []


TURKISH = [("Bayan Karaduman geldi.", [("Karaduman", "NAME_PATIENT")]),
           ("Bayan Uçarsoy geldi.", [("Uçarsoy", "NAME_PATIENT")])]


def test_a_staff_word_of_the_language_announces_a_doctors_name():
    nlp = trained("tr", TURKISH, lang="tr")
    assert found(nlp, "Fizyoterapist Doruk egzersiz yaptırdı.") == [("Doruk", "NAME_DOCTOR")]
    assert found(nlp, "Hemşire: Nevra Kılıçkaya\nTarih") == [("Nevra Kılıçkaya", "NAME_DOCTOR")]
    # a lower-case word after it is no name; a pipeline of another language has no such word
    assert found(nlp, "fizyoterapist pasif egzersiz yaptırdı") == []
    assert found(trained("en", TURKISH), "Fizyoterapist Doruk egzersiz yaptırdı.") == []


POLISH = [("Pani Kowal przyszła.", [("Kowal", "NAME_PATIENT")]),
          ("Pani Nowak przyszła.", [("Nowak", "NAME_PATIENT")])]


def test_a_field_label_that_a_staff_word_opens_announces_a_doctors_name():
    nlp = trained("pl", POLISH, lang="pl")
    assert found(nlp, "Pielęgniarka instrumentująca: Bożenna Gronkowska\nData") == [
        ("Bożenna Gronkowska", "NAME_DOCTOR")]
    # a capitalised second word may be the name itself: the word after the colon is not taken
    assert found(nlp, "Pielęgniarka Bożenna: Zastrzyk podany") == [("Bożenna", "NAME_DOCTOR")]
    # two words between the staff word and the colon are no such label
    assert found(nlp, "Pielęgniarka na dyżurze: Bożenna Gronkowska") == []
    arabic = trained("ar", ARABIC, lang="ar")
    assert found(arabic, "- الممرضة الدوّارة: جمانة البيطار\n- الجراح") == [
        ("جمانة البيطار", "NAME_DOCTOR")]
    # the label's second word is no name, where no name follows the colon either
    assert found(arabic, "- ممرضة التعقيم: 2\n- الجراح") == []


def test_an_abbreviation_with_a_slash_is_learned_as_one_cue():
    training = [("Ночь — м/с Кравец, спит.", [("Кравец", "NAME_DOCTOR")]),
                ("Приняла м/с Ладова.", [("Ладова", "NAME_DOCTOR")]),
                ("Пришёл с женой. Говорил с врачом.", [])]
    nlp = trained("ru", training)
    assert nlp.get_pipe("deid_name_cues").cues_before["м/с"] == "NAME_DOCTOR"
    assert found(nlp, "Утро — м/с Зорина, давление 120/80.") == [("Зорина", "NAME_DOCTOR")]
    # the preposition alone is no cue
    assert found(nlp, "Гулял с Зориным во дворе.") == []


ENGLISH = [("Mrs Pellow came in.", [("Pellow", "NAME_PATIENT")]),
           ("Mrs Trask came in.", [("Trask", "NAME_PATIENT")])]


def test_a_family_word_of_the_language_announces_a_relatives_name():
    nlp = trained("en", ENGLISH, lang="en")
    assert found(nlp, "Consent was given by his wife Oriel; she will call.") == [
        ("Oriel", "NAME_RELATIVE")]
    assert found(nlp, "Next of kin\nDaughter: Linnet Corbyn\nPhone") == [
        ("Linnet Corbyn", "NAME_RELATIVE")]
    # a lower-case word after it is no name
    assert found(nlp, "her mother has diabetes") == []
    russian = trained("ru", [("Пациентка Жукова пришла.", [("Жукова", "NAME_PATIENT")]),
                             ("Пациентка Орлова пришла.", [("Орлова", "NAME_PATIENT")])],
                      lang="ru")
    assert found(russian, "Переводит брат Эльдар, тел. 5") == [("Эльдар", "NAME_RELATIVE")]


def test_in_german_a_family_word_announces_only_a_name_that_opens_with_a_first_name():
    nlp = trained(lang="de")
    assert found(nlp, "Heute rief die Tochter Anke Wiebusch an.") == [
        ("Anke Wiebusch", "NAME_RELATIVE")]
    assert found(nlp, "Im Beisein der Enkelin Eva-Maria.") == [("Eva-Maria", "NAME_RELATIVE")]
    # every German noun has a capital: a family history names diseases after the words
    assert found(nlp, "Familienanamnese: Vater Apoplex, Onkel Glaukom.") == []


def test_a_staff_word_training_made_a_cue_keeps_the_learned_label():
    training = [("Hemşire Karaduman geldi.", [("Karaduman", "NAME_PATIENT")]),
                ("Hemşire Uçarsoy geldi.", [("Uçarsoy", "NAME_PATIENT")])]
    cues = trained("tr", training, lang="tr").get_pipe("deid_name_cues")
    assert cues.cues_before["hemşire"] == "NAME_PATIENT"
    assert cues.cues_before["eczacı"] == "NAME_DOCTOR"


def test_staff_cues_are_restored_with_the_learned_data():
    cues = trained("tr", TURKISH, lang="tr").get_pipe("deid_name_cues")
    learned = cues.learned()
    learned["cues_before"] = {"bayan": "NAME_PATIENT"}
    cues.load_learned(learned)
    assert cues.cues_before["fizyoterapist"] == "NAME_DOCTOR"
    assert cues.cues_before["bayan"] == "NAME_PATIENT"


def test_an_unknown_language_is_refused_at_creation():
    with pytest.raises(ValueError, match="unsupported language 'xx'"):
        blank().add_pipe("deid_name_cues", config={"lang": "xx"})


FIELDS = [
    ("Patientin: Albrecht, Beate, geb. 1950", [("Albrecht, Beate", "NAME_PATIENT")]),
    ("Patientin: Berger, Eva, geb. 1960", [("Berger, Eva", "NAME_PATIENT")]),
    ("Die Patientin kam. Die Patientin ging. Die Patientin schlief.", []),
]


def test_a_field_label_with_its_colon_is_a_cue_where_the_word_alone_is_not():
    cues = trained(training=FIELDS).get_pipe("deid_name_cues")
    assert cues.cues_before["patientin:"] == "NAME_PATIENT"
    assert "patientin" not in cues.cues_before
    assert cues.inverted_names


def test_surname_comma_first_name_after_a_cue_is_one_name_where_training_writes_so():
    text = "Bericht. Patientin: Wetterhahn, Marie, geb. 1975"
    assert found(trained(training=FIELDS), text) == [("Wetterhahn, Marie", "NAME_PATIENT")]


def test_a_surname_the_ner_found_alone_takes_the_first_name_after_its_comma():
    nlp = trained(training=FIELDS)
    text = "Kontrolle bei Wetterhahn, Marie am Montag."
    assert found(nlp, text, [("Wetterhahn", "NAME_PATIENT")]) == [
        ("Wetterhahn, Marie", "NAME_PATIENT")]
    upper = "Kontrolle bei WETTERHAHN, MARIE am Montag."
    assert found(nlp, upper, [("WETTERHAHN", "NAME_PATIENT")]) == [
        ("WETTERHAHN, MARIE", "NAME_PATIENT")]


def test_a_degree_after_the_comma_is_not_a_first_name():
    nlp = trained(training=FIELDS)
    for degree in ("MBA", "PhD"):
        text = f"Gesehen von Hensby, {degree} am Montag."
        assert found(nlp, text, [("Hensby", "NAME_DOCTOR")]) == [("Hensby", "NAME_DOCTOR")]


def test_without_inverted_names_in_training_the_name_stops_at_the_comma():
    training = [
        ("Patientin: Albrecht, geb. 1950", [("Albrecht", "NAME_PATIENT")]),
        ("Patientin: Berger, geb. 1960", [("Berger", "NAME_PATIENT")]),
        ("Die Patientin kam. Die Patientin ging. Die Patientin schlief.", []),
    ]
    nlp = trained(training=training)
    assert not nlp.get_pipe("deid_name_cues").inverted_names
    assert found(nlp, "Patientin: Wetterhahn, Marie war da.") == [
        ("Wetterhahn", "NAME_PATIENT")]


def test_cues_saved_before_inverted_names_existed_still_load():
    cues = trained(training=FIELDS).get_pipe("deid_name_cues")
    data = cues.learned()
    del data["inverted_names"]
    cues.load_learned(data)
    assert cues.inverted_names is False
    assert cues.cues_before["patientin:"] == "NAME_PATIENT"


# The line is a cue; its last word alone is not ("Grüßen" stands elsewhere too).
SIGNED = [
    (f"Befund {i}.\n\nMit freundlichen Grüßen\n\n{name}", [(name, "NAME_DOCTOR")])
    for i, name in enumerate(["Ole Brandt", "Ina Wolff"])
] + [("Viele Grüßen kamen. Die Grüßen gingen. Mit freundlichen Grüßen, sagte er.", [])]


def test_a_closing_formula_line_is_learned_as_a_cue_for_the_name_line_after_it():
    nlp = trained(training=SIGNED)
    cues = nlp.get_pipe("deid_name_cues")
    assert cues.cues_before["<LINE>mit freundlichen grüßen"] == "NAME_DOCTOR"
    assert "grüßen" not in cues.cues_before
    # a trailing comma and blank lines do not change the cue
    text = "Befund.\nMit freundlichen Grüßen,\n\n\nKai Wetterhahn\n"
    assert found(nlp, text) == [("Kai Wetterhahn", "NAME_DOCTOR")]


def test_a_line_cue_takes_only_a_line_that_is_a_name_of_two_words_or_more():
    nlp = trained(training=SIGNED)
    for line in ("Wetterhahn", "Unterschrift: Kai Wetterhahn", "Kai Wetterhahn war hier"):
        text = f"Befund.\nMit freundlichen Grüßen\n{line}\nKlinik"
        assert found(nlp, text) == [], line


def test_line_cues_need_a_line_that_opens_after_the_cue_line():
    from spacy_deid.detect.name_cues import line_cues

    doc = blank("de").make_doc("Mit freundlichen Grüßen\n\n  Kai Wetterhahn")
    assert {doc[i].text: key for i, key in line_cues(doc).items()} == {
        "Kai": "<LINE>mit freundlichen grüßen"}
