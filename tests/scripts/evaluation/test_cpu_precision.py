"""Tests for scripts/evaluation/cpu_precision.py: the comparison of two precisions'
entities, and the clear error for a pipeline without a transformer encoder."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import DocBin

from scripts.evaluation.cpu_precision import compare_language, compare_predictions
from scripts.evaluation.evaluate import load_pipeline, transformer_precisions
from spacy_deid.translate.inline_tags import CharSpan, parse_inline_tags
from tests.configs import write_docbin
from tests.configs.test_transformer_config import TEXTS, offline  # noqa: F401 (a fixture)
from tests.detect.test_transformer_model import tiny_transformer_pipeline

GOLD = [[CharSpan(0, 10, "NAME_PATIENT"), CharSpan(20, 30, "DATE")], [CharSpan(5, 9, "ID")]]


def test_the_same_entities_count_as_agreement():
    result = compare_predictions(GOLD, {"float32": GOLD, "bfloat16": GOLD})
    assert result["docs_with_the_same_entities"] == 2
    assert result["entities_in_one_precision_only"] == 0
    assert result["strict_micro"]["float32"]["f1"] == 1.0


def test_a_changed_span_is_counted_once_per_side_and_scored():
    rounded = [GOLD[0], [CharSpan(5, 10, "ID")]]
    result = compare_predictions(GOLD, {"float32": GOLD, "bfloat16": rounded})
    assert result["n_docs"] == 2
    assert result["docs_with_the_same_entities"] == 1
    assert result["entities_in_one_precision_only"] == 2
    assert result["entities"] == {"float32": 3, "bfloat16": 3}
    assert result["strict_micro"]["bfloat16"]["f1"] == pytest.approx(2 / 3)


def test_a_pipeline_without_a_transformer_is_refused(tmp_path):
    nlp = spacy.blank("xx")
    nlp.to_disk(tmp_path / "pipeline")
    DocBin(docs=[nlp("Text.")]).to_disk(tmp_path / "test.spacy")
    with pytest.raises(ValueError, match="no spacy_deid.TransformerModel.v1 encoder"):
        compare_language(tmp_path / "pipeline", tmp_path / "test.spacy")


def test_a_tiny_transformer_pipeline_is_compared_on_its_test_documents(offline, tmp_path):  # noqa: F811
    nlp = tiny_transformer_pipeline(tmp_path, "auto")
    (tmp_path / "de").mkdir()
    nlp.to_disk(tmp_path / "de" / "pipeline")
    gold_path = write_docbin(tmp_path / "test.spacy", "de", TEXTS)
    assert transformer_precisions(load_pipeline(tmp_path / "de" / "pipeline", "float32")) == {
        "transformer": "float32"}
    result = compare_language(tmp_path / "de" / "pipeline", gold_path)
    assert result["n_docs"] == len(TEXTS)
    assert 0 <= result["docs_with_the_same_entities"] <= len(TEXTS)
    assert set(result["strict_micro"]) == {"float32", "bfloat16"}
    # the gold spans were read: an untrained NER recalls at most all of them
    n_gold = sum(len(parse_inline_tags(text, "test")[1]) for text in TEXTS)
    assert result["strict_micro"]["float32"]["possible"] == n_gold
