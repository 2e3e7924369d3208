"""deid_entity_bounds: entities end at a paragraph break and have no edge whitespace."""

from tests.annotated_docs import annotated, blank, initialized


def bounded(text, entities, lang="de"):
    nlp = blank(lang)
    component = nlp.add_pipe("deid_entity_bounds")
    doc = component(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_an_entity_is_cut_at_its_first_blank_line():
    text = "Klinikum Nord, Station 3 \n\nENTLASSUNGSBERICHT Patientin: Albrecht"
    assert bounded(text, [(text, "LOCATION_HOSPITAL")]) == [
        ("Klinikum Nord, Station 3", "LOCATION_HOSPITAL")]


def test_a_blank_line_with_spaces_in_it_is_a_paragraph_break():
    text = "Hauptstraße 89\n \n\n\nSehr geehrte"
    assert bounded(text, [(text, "LOCATION_STREET")]) == [
        ("Hauptstraße 89", "LOCATION_STREET")]


def test_trailing_whitespace_is_trimmed_and_a_single_line_break_is_kept():
    text = "am 15.38\n\nund Klinikum Nord\nAugenklinik heute"
    entities = [("15.38\n\n", "DATE"), ("Klinikum Nord\nAugenklinik", "LOCATION_HOSPITAL")]
    assert bounded(text, entities) == [
        ("15.38", "DATE"), ("Klinikum Nord\nAugenklinik", "LOCATION_HOSPITAL")]


def test_entities_within_a_paragraph_are_the_same_objects():
    nlp = blank("de")
    component = nlp.add_pipe("deid_entity_bounds")
    doc = annotated(nlp, "Frau Albrecht kam.", [("Albrecht", "NAME_PATIENT")])
    before = doc.ents
    assert component(doc).ents == before


def test_an_empty_document_passes():
    assert bounded("", []) == []


def test_the_words_after_the_break_are_left_to_the_rule_based_detectors():
    nlp = initialized("deid_name_cues", "de", [
        ("Patientin: Albrecht kam.", [("Albrecht", "NAME_PATIENT")]),
        ("Patientin: Berger ging.", [("Berger", "NAME_PATIENT")]),
    ], {})
    nlp.add_pipe("deid_entity_bounds", first=True)
    text = "Klinikum Nord \n\nBERICHT Patientin: Wetterhahn"
    doc = annotated(nlp, text, [(text, "LOCATION_HOSPITAL")])
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Klinikum Nord", "LOCATION_HOSPITAL"), ("Wetterhahn", "NAME_PATIENT")]


def test_the_pieces_of_a_code_are_joined_into_one_id():
    text = "LOT KX7-220914, Charge 55-1, Ref. AB-2023-118"
    entities = [("KX7-", "ID"), ("220914", "ID"), ("55-", "ID"), ("1", "DATE"),
                ("AB-2023-", "ID"), ("118", "ID")]
    assert bounded(text, entities) == [
        ("KX7-220914", "ID"), ("55-", "ID"), ("1", "DATE"), ("AB-2023-118", "ID")]


def test_touching_entities_other_than_ids_stay_apart():
    text = "Dr.Leitner, Tel. 0351/4417, Juni 03-06/2022"
    entities = [("Dr.", "NAME_TITLE"), ("Leitner", "NAME_DOCTOR"), ("0351/", "CONTACT_PHONE"),
                ("4417", "CONTACT_PHONE"), ("03-", "DATE"), ("06/2022", "DATE")]
    assert bounded(text, entities) == [(text_, label) for text_, label in entities]


def test_ids_with_space_between_stay_apart():
    text = "Zimmer 12 4711"
    assert bounded(text, [("12", "ID"), ("4711", "ID")]) == [("12", "ID"), ("4711", "ID")]


def test_an_id_grows_over_the_rest_of_its_code_word():
    text = "SN S5-2024-067138, Ref. 7781-B und RAD-2024-0857316."
    entities = [("067138", "ID"), ("7781", "ID"), ("2024-0857316", "ID")]
    assert bounded(text, entities) == [
        ("S5-2024-067138", "ID"), ("7781-B", "ID"), ("RAD-2024-0857316", "ID")]


def test_a_slash_a_dash_another_entity_or_punctuation_stop_an_id():
    text = "Zimmer 207/A, Proben 08574/1–08574/6 (Fall 4411-), 21-05-2024-118"
    entities = [("207", "ID"), ("08574/1", "ID"), ("4411", "ID"), ("21-05-2024", "DATE"),
                ("118", "ID")]
    assert bounded(text, entities) == [(text_, label) for text_, label in entities]


def test_the_code_pieces_of_another_entity_written_with_an_id_are_the_ids():
    text = "Polizze KV-4471-20913 vom Mai, Kasse Nr: 5512-0318-77"
    entities = [("KV-", "ID"), ("4471-20913", "LOCATION_ZIP"),
                ("Kasse Nr: 5512", "LOCATION_ORGANIZATION"), ("0318-77", "ID")]
    assert bounded(text, entities) == [
        ("KV-4471-20913", "ID"), ("Kasse Nr:", "LOCATION_ORGANIZATION"), ("5512-0318-77", "ID")]


def test_space_a_date_or_an_age_keep_an_entity_apart_from_an_id():
    text = "Leipzig 0318-77, Leipzig-0318, 15-4411"
    entities = [("Leipzig", "LOCATION_CITY"), ("0318-77", "ID"), ("Leipzig-", "LOCATION_CITY"),
                ("0318", "ID"), ("15", "AGE"), ("4411", "ID")]
    assert bounded(text, entities) == [
        ("Leipzig", "LOCATION_CITY"), ("0318-77", "ID"), ("Leipzig-0318", "ID"), ("15", "AGE"),
        ("4411", "ID")]


def test_only_ids_grow_over_their_word():
    text = "PLZ-04109 Leipzig"
    assert bounded(text, [("04109", "LOCATION_ZIP")]) == [("04109", "LOCATION_ZIP")]


def test_two_ids_in_one_word_do_not_grow_over_the_same_tokens():
    text = "Probe 12-ab-34 erhalten"
    assert bounded(text, [("12", "ID"), ("34", "ID")]) == [("12-ab", "ID"), ("34", "ID")]
