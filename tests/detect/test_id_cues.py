"""deid_id_cues: ward, room and clinic codes next to learned cue words become IDs."""

import pytest
import spacy

from spacy_deid.detect.id_cues import is_code
from tests.annotated_docs import annotated, blank, initialized

TRAINING = [
    ("Aufnahme auf Station 6A am Montag.", [("6A", "ID")]),
    ("Verlegung auf Station B42, Zimmer 316 heute.", [("B42", "ID"), ("316", "ID")]),
    ("Zimmer 12 ist frei.", [("12", "ID")]),
    ("Er nahm 5 mg am Montag und 10 mg am Dienstag.", []),
    ("Hämoglobin 12 g/dl, Leukozyten 7 /nl.", []),
    ("Oda: 3B numaralı servis.", [("3B", "ID")]),
    ("Yatış 5 numaralı odaya.", [("5", "ID")]),
]


def trained(training=TRAINING, **config):
    return initialized("deid_id_cues", "de", training, config)


def in_english(training=TRAINING):
    return initialized("deid_id_cues", "en", training, {})


def found(nlp, text, entities=()):
    doc = nlp.get_pipe("deid_id_cues")(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_cue_words_before_and_after_codes_are_learned_from_two_documents_or_more():
    cues = trained().get_pipe("deid_id_cues")
    assert {"station", "zimmer"} <= cues.cues_before
    assert cues.cues_after == {"numaralı"}
    # "mg" follows numbers that are never IDs; "oda" announced an ID in one document only
    assert "oda" not in cues.cues_before and "mg" not in cues.cues_after


def test_codes_next_to_a_cue_become_ids():
    nlp = trained()
    assert found(nlp, "Rückverlegung auf Station III, dann Zimmer 2B.") == [
        ("III", "ID"), ("2B", "ID")]
    assert found(nlp, "Kontrolle in O-14 numaralı poliklinik.") == [("O-14", "ID")]


def test_with_lang_ward_words_are_cues_for_codes_with_a_letter():
    nlp = trained(lang="de")
    assert "intensivstation" in nlp.get_pipe("deid_id_cues").unit_cues
    assert found(nlp, "Verlegung auf die Intensivstation II heute.") == [("II", "ID")]
    # the ward words come from the language: English has no "Intensivstation"
    assert found(in_english(), "Verlegung auf die Intensivstation II heute.") == []


def test_with_lang_a_ward_word_as_field_label_is_a_cue_for_bare_numbers():
    nlp = trained(lang="de")
    assert found(nlp, "Chirurgie\nRaum: 214\nDatum: heute") == [("214", "ID")]
    assert found(nlp, "Raum : 7 frei") == [("7", "ID")]
    # another word before the colon, or another language: a bare number stays
    assert found(nlp, "Dosis: 214 mg") == []
    assert found(in_english(), "Raum: 214") == []


def test_with_lang_a_bare_number_right_after_a_ward_word_is_an_id():
    nlp = trained(lang="de")
    assert found(nlp, "Pat. schläft, Bett 2 unruhig.") == [("2", "ID")]
    assert found(nlp, "Verlegt in Zi. 327 heute.") == [("327", "ID")]
    # a word between them, a line break, or another language: the number stays
    assert found(nlp, "Im Bett seit 2 Tagen.") == []
    assert found(nlp, "Zurück ins Bett\n2 Tage später") == []
    assert found(in_english(), "Pat. schläft, Bett 2 unruhig.") == []


def test_a_ward_word_training_puts_before_bare_numbers_that_are_no_ids_is_no_cue_for_them():
    training = [*TRAINING, ("Auf der Intensivstation 3 Tage.", []),
                ("Intensivstation 5 Tage, dann Station 2 bis heute.", [("2", "ID")])]
    nlp = trained(training, lang="de")
    cues = nlp.get_pipe("deid_id_cues")
    assert "intensivstation" not in cues.number_cues and "bett" in cues.number_cues
    assert found(nlp, "Danach Intensivstation 4 Tage.") == []
    # it is still a cue for a code with a letter
    assert found(nlp, "Verlegung auf die Intensivstation II heute.") == [("II", "ID")]


def test_a_code_ends_before_a_suffix_after_an_apostrophe():
    nlp = initialized("deid_id_cues", "tr", TRAINING, {})
    assert found(nlp, "Hasta oda 241'e nakledildi.") == [("241", "ID")]
    assert found(nlp, "Hasta yatak 3’e alındı.") == [("3", "ID")]


def test_a_ward_word_training_puts_before_other_codes_is_no_cue():
    training = [*TRAINING, ("Im Saal IV sangen sie.", []), ("Der Saal XI blieb.", [])]
    cues = trained(training, lang="de").get_pipe("deid_id_cues")
    assert "saal" not in cues.unit_cues and "bett" in cues.unit_cues


def test_codes_without_a_cue_and_words_next_to_a_cue_stay_as_they_are():
    nlp = trained()
    assert found(nlp, "Er nahm 5 mg am Montag, 2025 war gut.") == []
    assert found(nlp, "Station Nord ist voll.") == []


@pytest.mark.parametrize("text, expected", [
    ("6A", True), ("III", True), ("MB-6683152", True), ("TK/2024/22591", True),
    ("24B0857913", True), ("108597312", True), ("eAU-8FQ2-63XK-1457", True),
    ("10/10", False), ("1234", True), ("Montag", False), ("Hb", False),
    ("12.03.2024", False), ("ab-cd", False), ("9-06", True), ("9-0-6", False),
])
def test_code_shapes(text, expected):
    assert is_code(text) is expected


def test_two_numbers_joined_by_a_hyphen_are_an_id_after_a_cue_only():
    nlp = trained()
    assert found(nlp, "Verlegung auf Station 9-06 am Montag.") == [("9-06", "ID")]
    assert found(nlp, "Raucht ca. 12-13 Zigaretten, 3-4 mal täglich.") == []


def test_long_codes_next_to_a_learned_cue_become_ids():
    training = [("Patient MRN MB-6683152 seen.", [("MB-6683152", "ID")]),
                ("Admitted, MRN 00571296, today.", [("00571296", "ID")]),
                ("Dose 75 mcg daily.", [])]
    nlp = initialized("deid_id_cues", "en", training, {})
    assert found(nlp, "Transfer, MRN TOI-137568 to ward.") == [("TOI-137568", "ID")]
    assert found(nlp, "Glucose 108597312 in the report.") == []


def test_elided_articles_and_bare_symbols_are_no_cues():
    training = [("N° d'examen 8830517 prévu.", [("8830517", "ID")]),
                ("Dossier d'admission 6619042 ouvert.", [("6619042", "ID")]),
                ("Ordonnance n° 5517208 remise.", [("5517208", "ID")]),
                ("Le n° 5517209 suit.", [("5517209", "ID")])]
    cues = initialized("deid_id_cues", "fr", training, {}).get_pipe("deid_id_cues")
    assert "d'" not in cues.cues_before
    assert "n°" in cues.cues_before


def test_words_before_codes_are_learned_from_every_language_words_after_from_its_own():
    nlp = blank("tr")
    cues = nlp.add_pipe("deid_id_cues")
    texts = [("Patient LOT A52-69318 implanted.", "en", "A52-69318"),
             ("Implantat LOT K32M-6175 eingesetzt.", "de", "K32M-6175"),
             ("Raum 3B numaralı heute.", "de", "3B"),
             ("Saal 4C numaralı gestern.", "de", "4C")]
    docs = []
    for text, lang, code in texts:
        doc = annotated(nlp, text, [(code, "ID")])
        doc.user_data["lang"] = lang
        docs.append(doc)
    cues.learn(docs)
    assert "lot" in cues.cues_before
    # "numaralı" follows codes in German documents only: no cue for a Turkish pipeline
    assert "numaralı" not in cues.cues_after


def test_existing_entities_win():
    nlp = trained()
    text = "Station 6A am 12.03.2024"
    assert found(nlp, text, [("Station 6A", "LOCATION_HOSPITAL")]) == [
        ("Station 6A", "LOCATION_HOSPITAL")]


def test_codes_in_other_scripts_are_codes():
    training = [("بستری در بخش ۶A.", [("۶A", "ID")]),
                ("اتاق ۳۱۶ در بخش ۵ است", [("۳۱۶", "ID"), ("۵", "ID")])]
    nlp = initialized("deid_id_cues", "fa", training, {})
    assert found(nlp, "انتقال به بخش ۱۴.") == [("۱۴", "ID")]


def test_learned_cues_survive_to_disk_and_back(tmp_path):
    nlp = trained()
    nlp.to_disk(tmp_path / "p")
    reloaded = spacy.load(tmp_path / "p")
    assert reloaded.get_pipe("deid_id_cues").cues_before == nlp.get_pipe("deid_id_cues").cues_before
    assert found(reloaded, "Verlegt auf Station 7C.") == [("7C", "ID")]
    assert reloaded.get_pipe("deid_id_cues").number_cues == nlp.get_pipe("deid_id_cues").number_cues


def test_an_untrained_component_and_an_empty_document_change_nothing():
    nlp = blank("de")
    nlp.add_pipe("deid_id_cues")
    assert found(nlp, "Station 6A") == []
    assert found(trained(), "") == []


@pytest.mark.parametrize("config", [{"window": 0}, {"min_documents": 0}, {"min_ratio": 0},
                                    {"min_ratio": 1.5}])
def test_bad_settings_are_refused_at_creation(config):
    with pytest.raises(ValueError, match="deid_id_cues"):
        blank("de").add_pipe("deid_id_cues", config=config)


def test_codes_after_a_line_break_or_a_column_gap_are_found():
    nlp = trained()
    assert found(nlp, "Befund\nStation:             5B, heute") == [("5B", "ID")]
    assert found(nlp, "Verlegt auf Station\n6A heute") == [("6A", "ID")]


def test_a_code_takes_the_place_of_entities_inside_it_but_not_of_one_reaching_beyond():
    nlp = blank("en")
    nlp.add_pipe("deid_id_cues")
    nlp.get_pipe("deid_id_cues").load_learned({"cues_before": ["mrn"]})
    text = "Seen today, MRN P-4453069 and MRN 2024-137906 done."
    assert found(nlp, text, [("4453069", "CONTACT_PHONE"), ("2024", "DATE")]) == [
        ("P-4453069", "ID"), ("2024-137906", "ID")]
    assert found(nlp, text, [("MRN P-4453069", "ID")]) == [
        ("MRN P-4453069", "ID"), ("2024-137906", "ID")]
    assert found(nlp, text, [("P-4453069", "CONTACT_PHONE")]) == [
        ("P-4453069", "CONTACT_PHONE"), ("2024-137906", "ID")]


def test_an_id_takes_the_capital_letter_prefix_of_its_code():
    nlp = trained()
    text = "Fall TMU 3385217, Kasse OHP 4471 0958"
    entities = [("3385217", "ID"), ("4471 0958", "ID")]
    assert found(nlp, text, entities) == [("TMU 3385217", "ID"), ("OHP 4471 0958", "ID")]


def test_cue_words_ward_words_and_other_words_are_no_code_prefix():
    nlp = trained()
    text = "STATION 31188, Herr MÜLLERSOHN 4471, Tbl 5511, PLZ 04109 und X 7781"
    entities = [("31188", "ID"), ("4471", "ID"), ("5511", "ID"), ("04109", "LOCATION_ZIP"),
                ("7781", "ID")]
    assert found(nlp, text, entities) == [(text_, label) for text_, label in entities]


def test_the_last_part_of_a_hyphenated_field_label_is_learned_as_a_cue_of_its_own():
    training = [("Fall-Nr. 6619042 offen.", [("6619042", "ID")]),
                ("Aufnahme-Nr. 8830517 neu.", [("8830517", "ID")]),
                ("Befund: LK-Station 4R vergrößert.", []),
                ("Befund: LK-Station 7 unauffällig.", [])]
    nlp = initialized("deid_id_cues", "de", training, {})
    cues = nlp.get_pipe("deid_id_cues").cues_before
    assert "-nr" in cues and "-station" not in cues
    # a label seen in no training document, ending in a learned part
    assert found(nlp, "Ausweis-Nr.: K9Q4Z81MB") == [("K9Q4Z81MB", "ID")]
    assert found(nlp, "Befund: LK-Station 2R klein.") == []


@pytest.mark.parametrize("lang, text, code", [
    ("ar", "نُقل المريض إلى عنبر 5 مساءً.", "5"),
    ("en", "Moved to bay 4 overnight.", "4"),
    ("tr", "Hasta koğuş 2 içinde izlendi.", "2"),
    ("uk", "Переведена в пал. 7 хірургії.", "7"),
    ("ru", "Проживает в общежитии, комн. 318.", "318"),
    ("en", "Seen in Rm 12 this morning.", "12"),
    ("ru", "Запись в процедурный кабинет 7 на завтра.", "7"),
    ("uk", "Огляд у кабінеті 214 о десятій.", "214"),
])
def test_the_profiles_ward_words_include_the_words_for_a_ward_bay_or_box(lang, text, code):
    nlp = initialized("deid_id_cues", lang, [], {})
    assert found(nlp, text) == [(code, "ID")]
