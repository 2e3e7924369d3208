"""Merge policies of `deid_presidio_patterns`: the built-in ones by name, a user-registered one,
and the error for an unknown name."""

from __future__ import annotations

import catalogue
import pytest
import spacy

from spacy_deid.presidio.merge_policies import (
    known_merge_policies,
    merge_policies,
    resolve_merge_policy,
)

TEXT = "Kontrola 12.03.2024 rano"


def pipeline(**config) -> spacy.language.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "pl"}}})
    nlp.add_pipe("deid_presidio_patterns", config={"lang": "pl", **config})
    return nlp


def with_entity(nlp, entity: str, label: str = "OTHER"):
    doc = nlp.make_doc(TEXT)
    start = TEXT.index(entity)
    doc.ents = [doc.char_span(start, start + len(entity), label=label)]
    return nlp.get_pipe("deid_presidio_patterns")(doc)


def ents(doc) -> list[tuple[str, str]]:
    return [(ent.text, ent.label_) for ent in doc.ents]


def test_the_built_in_policies_are_registered_by_their_plain_names():
    assert known_merge_policies()[:3] == ["ner_first", "patterns_first", "longest"]


@pytest.fixture(scope="module")
def spans():
    nlp = pipeline()
    doc = nlp.make_doc(TEXT)
    pattern = doc.char_span(9, 19, label="DATE")
    pattern._.deid_score = 0.85
    return pattern, [doc.char_span(9, 14, label="OTHER")], [doc.char_span(9, 24, label="OTHER")]


@pytest.mark.parametrize(("name", "override_score", "wins_over_shorter", "wins_over_longer"), [
    ("ner_first", 1.0, False, False),
    ("ner_first", 0.8, True, True),
    ("patterns_first", 1.0, True, True),
    ("longest", 1.0, True, False),
])
def test_built_in_policies(spans, name, override_score, wins_over_shorter, wins_over_longer):
    pattern, shorter, longer = spans
    policy = resolve_merge_policy(name, override_score)
    assert policy(pattern, shorter) is wins_over_shorter
    assert policy(pattern, longer) is wins_over_longer


@pytest.fixture
def never_patterns():
    """A user policy under which an existing entity always wins, registered for one test."""
    name = "test_never_patterns"

    @merge_policies.register(name)
    def make_never_patterns(override_score: float):
        return lambda span, overlapping: False

    yield name
    catalogue.REGISTRY.pop((*merge_policies.namespace, name), None)


def test_a_user_registered_policy_takes_effect(never_patterns):
    assert "test_never_patterns" in known_merge_policies()
    assert ents(with_entity(pipeline(merge_policy="patterns_first"), "12.03")) == [
        ("12.03.2024", "DATE")]
    assert ents(with_entity(pipeline(merge_policy=never_patterns), "12.03")) == [
        ("12.03", "OTHER")]


def test_an_unknown_policy_names_the_setting_and_the_known_policies():
    with pytest.raises(ValueError, match="setting 'merge_policy': 'vote' is not one of "
                                         "ner_first, patterns_first, longest"):
        pipeline(merge_policy="vote")


def test_a_saved_pipeline_keeps_the_plain_name(tmp_path):
    nlp = pipeline(merge_policy="longest")
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.config["components"]["deid_presidio_patterns"]["merge_policy"] == "longest"
    assert ents(with_entity(loaded, "12.03")) == [("12.03.2024", "DATE")]
