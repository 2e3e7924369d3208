"""spacy_deid.SubwordVectors.v1 / HashSubwordEmbed.v1: frozen pretrained subword vectors."""

import shutil

import numpy
import pytest
import spacy
from spacy.training import Example
from thinc.api import Config

from spacy_deid.detect.subword_vectors import (
    create_subword_vectors,
    mean_vectors,
    project_to_components,
)
from tests.tiny_encoder import write_encoder_folder


def test_the_projection_gives_uncorrelated_unit_variance_components_the_same_each_time():
    embeddings = numpy.random.default_rng(1).normal(size=(200, 6)) @ numpy.diag([5, 4, 3, 2, 1, 1])
    projected = project_to_components(embeddings.astype("float32"), 3)
    assert projected.shape == (200, 3)
    covariance = numpy.cov(projected.T, bias=True)
    assert numpy.allclose(covariance, numpy.eye(3), atol=1e-4)
    assert numpy.array_equal(projected, project_to_components(embeddings.astype("float32"), 3))


def test_the_projection_does_not_depend_on_the_sign_of_the_embeddings_axes():
    embeddings = numpy.random.default_rng(2).normal(size=(100, 4)).astype("float32")
    flipped = embeddings * numpy.array([-1, 1, -1, 1], dtype="float32")
    first = project_to_components(embeddings, 2)
    second = project_to_components(flipped, 2)
    assert numpy.allclose(first, second, atol=1e-5)


def test_more_dimensions_than_the_embeddings_have_is_an_error():
    with pytest.raises(ValueError, match="exceeds the embedding width"):
        project_to_components(numpy.zeros((10, 4), dtype="float32"), 5)


def test_a_token_gets_the_mean_of_its_subword_rows_and_zeros_without_subwords():
    table = numpy.array([[0, 0], [2, 4], [4, 8], [1, 1]], dtype="float32")
    vectors = mean_vectors(table, [[1, 2], [], [3]])
    assert vectors.tolist() == [[3, 6], [0, 0], [1, 1]]


def test_the_vectors_come_from_the_folder_at_initialisation_and_travel_with_the_model(tmp_path):
    table = write_encoder_folder(tmp_path / "encoder")
    nlp = spacy.blank("de")
    docs = [nlp("Frau Kowalski auf Station 4B")]
    model = create_subword_vectors(str(tmp_path / "encoder"), dims=3)
    model.initialize(X=docs)
    vectors = model.predict(docs)[0]
    assert vectors.shape == (5, 3)
    expected = mean_vectors(project_to_components(table, 3), [[2, 3, 4]])[0]
    assert numpy.allclose(vectors[1], expected)

    saved = model.to_bytes()
    shutil.rmtree(tmp_path / "encoder")
    loaded = create_subword_vectors(str(tmp_path / "encoder"), dims=3).from_bytes(saved)
    assert numpy.array_equal(loaded.predict(docs)[0], vectors)


def test_a_missing_or_corrupt_encoder_folder_is_a_clear_error(tmp_path):
    docs = [spacy.blank("de")("Station 4B")]
    with pytest.raises(FileNotFoundError, match="encoder folder"):
        create_subword_vectors(str(tmp_path / "nowhere"), dims=2).initialize(X=docs)
    write_encoder_folder(tmp_path / "encoder")
    (tmp_path / "encoder" / "model.safetensors").write_bytes(b"\x00\x01truncated")
    with pytest.raises(ValueError, match="not a readable safetensors file"):
        create_subword_vectors(str(tmp_path / "encoder"), dims=2).initialize(X=docs)


def test_an_uninitialised_model_says_so():
    model = create_subword_vectors("unused", dims=2)
    with pytest.raises(ValueError, match="not initialised"):
        model.predict([spacy.blank("de")("Station")])


TRAIN = [
    ("Frau Anna Berger kam auf Station 4B .", [(5, 16, "NAME_PATIENT"), (33, 35, "ID")]),
    ("Herr Kowalski kam am Station 4B .", [(5, 13, "NAME_PATIENT"), (29, 31, "ID")]),
]


def test_a_ner_on_hash_and_subword_embeddings_trains_and_reloads_without_the_folder(tmp_path):
    write_encoder_folder(tmp_path / "encoder")
    config = Config().from_str(f"""
[nlp]
lang = "de"
pipeline = ["tok2vec", "ner"]

[components]

[components.tok2vec]
factory = "tok2vec"

[components.tok2vec.model]
@architectures = "spacy.Tok2Vec.v2"

[components.tok2vec.model.embed]
@architectures = "spacy_deid.HashSubwordEmbed.v1"
width = 16
attrs = ["NORM", "SHAPE"]
rows = [500, 100]
encoder_dir = "{tmp_path / 'encoder'}"
subword_dims = 4

[components.tok2vec.model.encode]
@architectures = "spacy.MaxoutWindowEncoder.v2"
width = 16
depth = 1
window_size = 1
maxout_pieces = 2

[components.ner]
factory = "ner"

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
hidden_width = 16
maxout_pieces = 2
use_upper = true

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2VecListener.v1"
width = 16
""")
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    examples = [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in TRAIN]
    optimizer = nlp.initialize(lambda: examples)
    losses = [nlp.update(examples, sgd=optimizer, drop=0.0, losses={})["ner"]
              for _ in range(100)]
    assert losses[-1] < max(losses[:5]) / 5
    found = [(ent.text, ent.label_) for ent in nlp(TRAIN[1][0]).ents]
    assert ("Kowalski", "NAME_PATIENT") in found

    nlp.to_disk(tmp_path / "pipeline")
    shutil.rmtree(tmp_path / "encoder")
    reloaded = spacy.load(tmp_path / "pipeline")
    assert [(ent.text, ent.label_) for ent in reloaded(TRAIN[1][0]).ents] == found
