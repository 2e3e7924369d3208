"""deid_entity_tagger: entities from one O/B/I tag per token."""

import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_deid.detect.entity_tagger import (
    entity_tags,
    reference_tags,
    spans_from_tags,
    tags_from_biluo,
)
from tests.annotated_docs import annotated

TRAIN = [
    ("Frau Anna Berger kam am 12.03.2024 auf Station 4B zur Kontrolle.",
     [("Anna Berger", "NAME_PATIENT"), ("12.03.2024", "DATE"), ("4B", "ID")]),
    ("Dr. Paul Weber sah Herrn Karl Huber am 3.5.2023 zuhause.",
     [("Paul Weber", "NAME_DOCTOR"), ("Karl Huber", "NAME_PATIENT"), ("3.5.2023", "DATE")]),
    ("Entlassung am 20.01.2022 durch Dr. Eva Lang.",
     [("20.01.2022", "DATE"), ("Eva Lang", "NAME_DOCTOR")]),
]

SMALL_TOK2VEC = {
    "@architectures": "spacy.HashEmbedCNN.v2", "width": 32, "depth": 1, "embed_size": 500,
    "window_size": 1, "maxout_pieces": 2, "subword_features": True, "pretrained_vectors": None}


def test_the_tag_set_has_o_and_a_begin_and_inside_tag_per_label():
    assert entity_tags(["ID", "DATE", "ID"]) == ["O", "B-DATE", "I-DATE", "B-ID", "I-ID"]


def test_biluo_tags_become_begin_and_inside_tags_and_missing_stays_missing():
    assert tags_from_biluo(["U-ID", "O", "B-DATE", "I-DATE", "L-DATE", None, "-"]) == [
        "B-ID", "O", "B-DATE", "I-DATE", "I-DATE", None, None]


@pytest.mark.parametrize("tags, expected", [
    (["B-DATE", "I-DATE", "O", "B-ID"], [(0, 2, "DATE"), (3, 4, "ID")]),
    (["I-ID", "I-ID", "O", "O"], [(0, 2, "ID")]),              # I without B starts an entity
    (["B-ID", "I-DATE", "I-DATE", "O"], [(0, 1, "ID"), (1, 3, "DATE")]),  # label switch
    (["B-ID", "B-ID", "O", "I-ID"], [(0, 1, "ID"), (1, 2, "ID"), (3, 4, "ID")]),
    (["O", "O", "O", "O"], []),
])
def test_every_tag_sequence_decodes(tags, expected):
    doc = spacy.blank("de")("a b c d")
    assert [(s.start, s.end, s.label_) for s in spans_from_tags(doc, tags)] == expected


@pytest.mark.parametrize("text, entities, missing", [
    (TRAIN[0][0], TRAIN[0][1], False),
    (TRAIN[1][0], TRAIN[1][1], True),        # tokens outside the entities left unannotated
    ("Frau  Anna Berger\n\nkam.", [("Anna Berger", "NAME_PATIENT")], True),   # space tokens
    ("Keine Angaben.", [], False),
])
def test_tags_read_off_the_reference_equal_those_through_the_alignment(text, entities, missing):
    nlp = spacy.blank("de")
    reference = nlp.make_doc(text)
    spans = [reference.char_span(text.index(part), text.index(part) + len(part), label=label)
             for part, label in entities]
    reference.set_ents(spans, default="missing" if missing else "outside")
    example = Example(nlp.make_doc(text), reference)
    assert reference_tags(example) == tags_from_biluo(example.get_aligned_ner())


def test_a_reference_without_entity_annotation_gives_no_tags():
    nlp = spacy.blank("de")
    example = Example(nlp.make_doc("Frau Anna Berger kam."), nlp.make_doc("Frau Anna Berger kam."))
    assert reference_tags(example) == [None] * 5


def test_tags_follow_the_predicted_tokens_where_the_tokenizations_differ():
    nlp = spacy.blank("de")
    text = "Station 4B, Zimmer 12."
    reference = nlp.make_doc(text)
    reference.ents = [reference.char_span(8, 10, label="ID")]
    predicted = Doc(nlp.vocab, words=["Station", "4", "B", ",", "Zimmer", "12."],
                    spaces=[True, False, False, True, True, False])
    tags = reference_tags(Example(predicted, reference))
    assert tags[:4] == ["O", "B-ID", "I-ID", "O"] and len(tags) == len(predicted)


def trained_pipeline(iterations=40):
    nlp = spacy.blank("de")
    nlp.add_pipe("deid_entity_tagger", config={"model": {
        "@architectures": "spacy.Tagger.v2", "nO": None, "normalize": False,
        "tok2vec": SMALL_TOK2VEC}})
    examples = [Example(nlp.make_doc(text), annotated(nlp, text, ents)) for text, ents in TRAIN]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(iterations):
        nlp.update(examples, sgd=optimizer, losses={})
    return nlp, examples


@pytest.fixture(scope="module")
def trained():
    spacy.util.fix_random_seed(0)
    return trained_pipeline()


def entities(doc):
    return [(ent.text, ent.label_) for ent in doc.ents]


def test_it_learns_the_training_entities(trained):
    nlp, _ = trained
    for text, ents in TRAIN:
        assert entities(nlp(text)) == ents


def test_labels_come_from_the_reference_entities(trained):
    nlp, _ = trained
    tagger = nlp.get_pipe("deid_entity_tagger")
    assert tagger.entity_labels == ("DATE", "ID", "NAME_DOCTOR", "NAME_PATIENT")
    assert tagger.labels[0] == "O" and "B-ID" in tagger.labels and "I-ID" in tagger.labels


def test_it_scores_as_an_entity_recognizer(trained):
    nlp, examples = trained
    scores = nlp.evaluate(examples)
    assert scores["ents_f"] == 1.0 and set(scores["ents_per_type"]) == {
        "DATE", "ID", "NAME_DOCTOR", "NAME_PATIENT"}


def test_entities_already_set_stay_and_overlapping_predictions_are_dropped(trained):
    nlp, _ = trained
    text, _ = TRAIN[0]
    doc = nlp.make_doc(text)
    doc.ents = [Span(doc, 1, 2, label="NAME_OTHER")]          # "Anna"
    doc = nlp.get_pipe("deid_entity_tagger")(doc)
    assert ("Anna", "NAME_OTHER") in entities(doc)
    assert ("Anna Berger", "NAME_PATIENT") not in entities(doc)
    assert ("12.03.2024", "DATE") in entities(doc)


def test_a_saved_pipeline_predicts_the_same(trained, tmp_path):
    nlp, _ = trained
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    for text, _ in TRAIN:
        assert entities(loaded(text)) == entities(nlp(text))


def test_initialize_without_examples_is_an_error():
    nlp = spacy.blank("de")
    nlp.add_pipe("deid_entity_tagger", config={"model": {
        "@architectures": "spacy.Tagger.v2", "nO": None, "normalize": False,
        "tok2vec": SMALL_TOK2VEC}})
    with pytest.raises((ValueError, TypeError)):
        nlp.initialize(lambda: [])
