"""deid_name_extent: person entities joined and grown to the whole name."""

import pytest
import spacy

from tests.annotated_docs import annotated, initialized

TRAINING = [
    ("Patientin: Albrecht, Beate. Die Patientin kam zur Kontrolle.",
     [("Albrecht, Beate", "NAME_PATIENT")]),
    ("Patient: Zoller, Timo. Die Station meldete sich.", [("Zoller, Timo", "NAME_PATIENT")]),
    ("Dr. Jan von Ebersberg und Dr. Ina von Hallwang.",
     [("Dr.", "NAME_TITLE"), ("Jan von Ebersberg", "NAME_DOCTOR"),
      ("Dr.", "NAME_TITLE"), ("Ina von Hallwang", "NAME_DOCTOR")]),
    ("Die Station und die Kontrolle. Heute kam Hausarzt Meier.",
     [("Meier", "NAME_DOCTOR")]),
    ("Heute kam der Hausarzt.", []),
]


def trained(lang="de", training=TRAINING, **config):
    return initialized("deid_name_extent", lang, training, {"lang": lang, **config})


def extent(nlp, text, entities=()):
    doc = nlp.get_pipe("deid_name_extent")(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_it_learns_particles_title_words_and_inverted_names():
    component = trained().get_pipe("deid_name_extent")
    assert component.particles == {"von"}
    assert "dr." in component.title_words
    assert {"station", "kontrolle", "heute"} <= component.ordinary_words
    assert component.inverted_names


@pytest.mark.parametrize("text, parts, whole", [
    ("Prof. Dr. Ch. Jantzen kam.", [("Ch", "NAME_DOCTOR"), ("Jantzen", "NAME_DOCTOR")],
     "Ch. Jantzen"),
    ("Dr. Eva von Berg kam.", [("Eva", "NAME_DOCTOR"), ("Berg", "NAME_DOCTOR")],
     "Eva von Berg"),
    ("Patientin: Morvic, Mélina, geb. 1.2.2007", [("Morvic", "NAME_PATIENT"),
                                                  ("Mélina", "NAME_PATIENT")],
     "Morvic, Mélina"),
])
def test_parts_of_one_name_are_joined_with_the_first_label(text, parts, whole):
    assert extent(trained(), text, parts) == [(whole, parts[0][1])]


def test_halves_of_a_hyphenated_name_are_joined():
    # the French tokenizer splits at the hyphen, the German one does not
    parts = [("Noah", "NAME_DOCTOR"), ("DIAKITE", "NAME_PATIENT")]
    assert extent(trained("fr", training=[]), "le petit Noah KIENZLER-DIAKITE, né", parts) == [
        ("Noah KIENZLER-DIAKITE", "NAME_DOCTOR")]


def test_a_comma_between_names_joins_only_where_inverted_names_were_learned():
    training = [("Dr. Kunz und Dr. Lange kamen.", [("Kunz", "NAME_DOCTOR"),
                                                   ("Lange", "NAME_DOCTOR")])]
    parts = [("Morvic", "NAME_PATIENT"), ("Mélina", "NAME_PATIENT")]
    assert extent(trained(training=training), "Patientin: Morvic, Mélina", parts) == parts


def test_a_comma_joins_a_surname_to_a_first_name_of_two_words():
    parts = [("Akbulak", "NAME_PATIENT"), ("Ayla Nur", "NAME_PATIENT")]
    assert extent(trained(), "Patientin: Akbulak, Ayla Nur, geb. 1.2.2007", parts) == [
        ("Akbulak, Ayla Nur", "NAME_PATIENT")]


def test_two_names_of_two_words_around_a_comma_stay_apart():
    parts = [("Gabriele Tornari", "NAME_DOCTOR"), ("Simona Rizzuto", "NAME_DOCTOR")]
    assert extent(trained(), "Pflege: Gabriele Tornari, Simona Rizzuto", parts) == parts


def test_a_name_grows_over_a_surname_and_an_initial_after_it():
    nlp = trained()
    assert extent(nlp, "Dr Isobel Braithby, MRCP", [("Isobel", "NAME_DOCTOR")]) == [
        ("Isobel Braithby", "NAME_DOCTOR")]
    assert extent(nlp, "Brzeziński B. dr", [("Brzeziński", "NAME_DOCTOR")]) == [
        ("Brzeziński B.", "NAME_DOCTOR")]


def test_a_name_grows_over_a_hyphenated_surname():
    assert extent(trained(), "Maximilian von Ebersberg-Hallwang operierte.",
                  [("Maximilian von", "NAME_DOCTOR")]) == [
        ("Maximilian von Ebersberg-Hallwang", "NAME_DOCTOR")]


def test_a_name_grows_left_over_a_known_first_name_an_initial_and_a_particle():
    nlp = trained()
    assert extent(nlp, "Heute kam Maria Riedle.", [("Riedle", "NAME_PATIENT")]) == [
        ("Maria Riedle", "NAME_PATIENT")]
    assert extent(nlp, "Bericht an M. Morvic.", [("Morvic", "NAME_PATIENT")]) == [
        ("M. Morvic", "NAME_PATIENT")]
    assert extent(nlp, "Operateur Dr. von Ebersberg.", [("Ebersberg", "NAME_DOCTOR")]) == [
        ("von Ebersberg", "NAME_DOCTOR")]


def test_a_particle_joins_before_a_surname_but_not_before_an_initial():
    nlp = trained()
    assert extent(nlp, "Befund von J. Morgenstock.", [("Morgenstock", "NAME_DOCTOR")]) == [
        ("J. Morgenstock", "NAME_DOCTOR")]
    assert extent(nlp, "Befund: J. von Morgenstock.", [("Morgenstock", "NAME_DOCTOR")]) == [
        ("J. von Morgenstock", "NAME_DOCTOR")]


def test_a_first_name_grows_over_a_particle_and_the_surname_after_it():
    nlp = trained()
    assert extent(nlp, "Chefärztin Ortrun von Brackwede, Station", [("Ortrun", "NAME_DOCTOR")]) == [
        ("Ortrun von Brackwede", "NAME_DOCTOR")]
    # a particle before what is no name stays outside ("Station": an ordinary word)
    assert extent(nlp, "Ortrun von Station 4", [("Ortrun", "NAME_DOCTOR")]) == [
        ("Ortrun", "NAME_DOCTOR")]


def test_a_capitalised_word_that_is_no_known_name_does_not_join_from_the_left():
    # a sentence's first word, such as a relation word, is capitalised too
    assert extent(trained(), "Tochter Irina kam.", [("Irina", "NAME_RELATIVE")]) == [
        ("Irina", "NAME_RELATIVE")]


@pytest.mark.parametrize("text", [
    "Frau Meier Station 4B",         # an ordinary word of the training documents
    "Herr Meier Dr. Kunz",           # a title word
    "Herr Meier\nZoller",            # another line
    "Herr Meier    Zoller",          # a column gap
    "Herr Meier meldete sich",       # lower case
])
def test_a_name_does_not_grow_over_what_is_no_name(text):
    assert extent(trained(), text, [("Meier", "NAME_PATIENT")]) == [("Meier", "NAME_PATIENT")]


def test_other_entities_are_neither_joined_nor_taken():
    parts = [("Ирина", "NAME_RELATIVE"), ("Берг-Соколова", "LOCATION_ORGANIZATION")]
    assert extent(trained("ru", training=[]), "Дочь Ирина фон Берг-Соколова", parts) == parts
    parts = [("Meier", "NAME_PATIENT"), ("Köln", "LOCATION_CITY")]
    assert extent(trained(), "Herr Meier Köln", parts) == parts


def test_without_case_only_training_name_words_join():
    training = [("السيد أحمد سالم حضر.", [("أحمد سالم", "NAME_PATIENT")])]
    nlp = trained("ar", training=training)
    assert extent(nlp, "حضر أحمد سالم اليوم", [("أحمد", "NAME_PATIENT")]) == [
        ("أحمد سالم", "NAME_PATIENT")]
    assert extent(nlp, "حضر أحمد اليوم", [("أحمد", "NAME_PATIENT")]) == [
        ("أحمد", "NAME_PATIENT")]


ARABIC_TRAINING = [
    ("المريض الكردي، وسيم حضر للمراجعة.", [("الكردي، وسيم", "NAME_PATIENT")]),
    ("المريضة العطار، دانة حضرت للمراجعة.", [("العطار، دانة", "NAME_PATIENT")]),
    ("التقرير الطبي والعلاج الطبي والفحص الطبي.", []),
]


def test_without_case_a_name_takes_one_word_of_a_family_name_form_after_it():
    nlp = trained("ar", training=ARABIC_TRAINING)
    assert extent(nlp, "د. سامي نبيل الحلبي حضر", [("سامي نبيل", "NAME_DOCTOR")]) == [
        ("سامي نبيل الحلبي", "NAME_DOCTOR")]
    assert extent(nlp, "د. سامي الحلبي الزعتري حضر", [("سامي الحلبي", "NAME_DOCTOR")]) == [
        ("سامي الحلبي", "NAME_DOCTOR")]


def test_an_ordinary_word_of_a_family_name_form_stays_outside():
    # "الطبي" (medical) has the form of a family name but stands in the training text
    nlp = trained("ar", training=ARABIC_TRAINING, min_count=3)
    assert extent(nlp, "أرسل سامي نبيل الطبي", [("سامي نبيل", "NAME_DOCTOR")]) == [
        ("سامي نبيل", "NAME_DOCTOR")]


def test_without_case_the_profiles_particles_join_a_name():
    # "أم" (mother of) and "أبو" (father of) open a name; nothing lower-case to learn them from
    nlp = trained("ar", training=ARABIC_TRAINING)
    assert extent(nlp, "زارتنا أم خالد اليوم", [("خالد", "NAME_RELATIVE")]) == [
        ("أم خالد", "NAME_RELATIVE")]
    assert extent(nlp, "اتصل أبو يوسف مساء", [("يوسف", "NAME_RELATIVE")]) == [
        ("أبو يوسف", "NAME_RELATIVE")]


def test_a_first_name_takes_its_surname_before_a_comma_where_inverted_names_were_learned():
    nlp = trained("ar", training=ARABIC_TRAINING)
    assert extent(nlp, "بحالة المريض النجار، فادي، مواليد", [("فادي", "NAME_PATIENT")]) == [
        ("النجار، فادي", "NAME_PATIENT")]
    assert extent(trained(), "Patientin Albrecht, Beate kam", [("Beate", "NAME_PATIENT")]) == [
        ("Albrecht, Beate", "NAME_PATIENT")]
    assert extent(trained(), "Bericht über\nAkbulak, Ayla Nur, geb. 1.2.1970",
                  [("Ayla Nur", "NAME_PATIENT")]) == [("Akbulak, Ayla Nur", "NAME_PATIENT")]
    # a degree in short capitals before the comma stays outside a first name of two words
    assert extent(trained(), "Dr Jan Ruud FRCP, Ayla Nur", [("Ayla Nur", "NAME_DOCTOR")]) == [
        ("Ayla Nur", "NAME_DOCTOR")]
    # an ordinary word before the comma, or no inverted names in training
    assert extent(trained(), "Die Station, Beate kam", [("Beate", "NAME_PATIENT")]) == [
        ("Beate", "NAME_PATIENT")]
    no_inverted = trained(training=TRAINING[2:])
    assert extent(no_inverted, "Patientin Albrecht, Beate kam", [("Beate", "NAME_PATIENT")]) == [
        ("Beate", "NAME_PATIENT")]


def test_a_name_grows_to_at_most_max_tokens():
    text, name = "Maximilian Freiherr von Ebersberg operierte.", "Maximilian Freiherr von"
    assert extent(trained(max_tokens=3), text, [(name, "NAME_DOCTOR")]) == [
        (name, "NAME_DOCTOR")]
    assert extent(trained(max_tokens=4), text, [(name, "NAME_DOCTOR")]) == [
        ("Maximilian Freiherr von Ebersberg", "NAME_DOCTOR")]


def test_a_name_of_two_words_takes_no_more_words():
    nlp = trained()
    assert extent(nlp, "Herrn Tobias Öttl Kaiserstrße 33", [("Tobias Öttl", "NAME_DOCTOR")]
                  ) == [("Tobias Öttl", "NAME_DOCTOR")]
    assert extent(nlp, "Patient : M. GOSSELIN Alain", [("GOSSELIN Alain", "NAME_PATIENT")]
                  ) == [("GOSSELIN Alain", "NAME_PATIENT")]
    assert extent(nlp, "Ortoptistin: Hanuszek H. MBA", [("Hanuszek", "NAME_DOCTOR")]) == [
        ("Hanuszek H.", "NAME_DOCTOR")]


@pytest.mark.parametrize("text, name, whole", [
    ("Uzm. Dr. Mert Can Aydoğdu\nMCA/hk", "Mert Can", "Mert Can Aydoğdu"),
    ("kızı Sevgi Tunalı Ercan (Tel: 0532)", "Sevgi Tunalı", "Sevgi Tunalı Ercan"),
    ("Dra. Ioana Maria Popescu", "Ioana Maria", "Ioana Maria Popescu"),
])
def test_a_name_of_two_words_takes_a_third_that_ends_it(text, name, whole):
    nlp = trained("tr", training=[])
    assert extent(nlp, text, [(name, "NAME_DOCTOR")]) == [(whole, "NAME_DOCTOR")]


def test_a_third_word_before_a_number_or_a_capitalised_word_stays_outside():
    nlp = trained("tr", training=[])
    for text in ("Dr. Mert Can Aydoğdu 15 yıldır", "Dr. Mert Can Aydoğdu Ankara Yolu"):
        assert extent(nlp, text, [("Mert Can", "NAME_DOCTOR")]) == [("Mert Can", "NAME_DOCTOR")]


def test_a_degree_after_a_two_word_name_stays_outside():
    nlp = trained("pl", training=[])
    assert extent(nlp, "Marek Zawadzki PhD\n", [("Marek Zawadzki", "NAME_DOCTOR")]) == [
        ("Marek Zawadzki", "NAME_DOCTOR")]
    assert extent(nlp, "Marek Zawadzki Pietrak\n", [("Marek Zawadzki", "NAME_DOCTOR")]) == [
        ("Marek Zawadzki Pietrak", "NAME_DOCTOR")]


def test_settings_are_checked():
    with pytest.raises(ValueError, match="max_tokens"):
        trained(max_tokens=1)


def test_what_it_learned_survives_saving(tmp_path):
    nlp = trained()
    nlp.to_disk(tmp_path / "pipeline")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert (reloaded.get_pipe("deid_name_extent").learned()
            == nlp.get_pipe("deid_name_extent").learned())
    assert extent(reloaded, "Dr Isobel Braithby, MRCP", [("Isobel", "NAME_DOCTOR")]) == [
        ("Isobel Braithby", "NAME_DOCTOR")]


def test_a_name_does_not_switch_between_scripts_with_and_without_case():
    nlp = trained("fa", training=[("دکتر رضا کرد آمد.", [("رضا کرد", "NAME_DOCTOR")])])
    assert extent(nlp, "او درخواست کرد Tavor بدهیم", [("کرد", "NAME_DOCTOR")]) == [
        ("کرد", "NAME_DOCTOR")]
    assert extent(nlp, "دکتر رضا کرد آمد", [("رضا", "NAME_DOCTOR")]) == [
        ("رضا کرد", "NAME_DOCTOR")]
