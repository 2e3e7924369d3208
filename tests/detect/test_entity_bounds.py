"""deid_entity_bounds: entities end at a paragraph break and have no edge whitespace."""

from tests.annotated_docs import annotated, blank, initialized


def bounded(text, entities, lang="de"):
    nlp = blank(lang)
    component = nlp.add_pipe("deid_entity_bounds")
    doc = component(annotated(nlp, text, entities))
    return [(e.text, e.label_) for e in doc.ents]


def test_an_entity_is_cut_at_its_first_blank_line():
    text = "Klinikum Nord, Station 3 \n\nENTLASSUNGSBERICHT Patientin: Albers"
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
    doc = annotated(nlp, "Frau Albers kam.", [("Albers", "NAME_PATIENT")])
    before = doc.ents
    assert component(doc).ents == before


def test_an_empty_document_passes():
    assert bounded("", []) == []


def test_the_words_after_the_break_are_left_to_the_rule_based_detectors():
    nlp = initialized("deid_name_cues", "de", [
        ("Patientin: Albers kam.", [("Albers", "NAME_PATIENT")]),
        ("Patientin: Berger ging.", [("Berger", "NAME_PATIENT")]),
    ], {})
    nlp.add_pipe("deid_entity_bounds", first=True)
    text = "Klinikum Nord \n\nBERICHT Patientin: Zitteraal"
    doc = annotated(nlp, text, [(text, "LOCATION_HOSPITAL")])
    for _, component in nlp.pipeline:
        doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Klinikum Nord", "LOCATION_HOSPITAL"), ("Zitteraal", "NAME_PATIENT")]
