"""`deid_language_check`: the detected language on the Doc, and a named warning when a text
is clearly in another language than the pipeline's."""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points

import pytest
import spacy

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.identify import LanguageMismatchWarning
from tests.lang.test_identify import SENTENCES


def pipeline(tokenizer_lang: str, **config) -> spacy.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": tokenizer_lang}}})
    nlp.add_pipe("deid_language_check", config=config)
    return nlp


def run(nlp: spacy.Language, text: str):
    """The Doc and the language warnings emitted while processing `text`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = nlp(text)
    return doc, [w for w in caught if issubclass(w.category, LanguageMismatchWarning)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pipelines_own_language_sets_the_doc_and_does_not_warn(lang):
    doc, caught = run(pipeline(lang), SENTENCES[lang])
    assert caught == []
    assert doc._.deid_language["lang"] == lang
    assert doc._.deid_language["expected"] == lang
    assert doc._.deid_language["mismatch"] is False
    assert 0.7 < doc._.deid_language["confidence"] <= 1.0


def test_a_german_letter_through_the_polish_pipeline_warns():
    doc, caught = run(pipeline("pl"), SENTENCES["de"])
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "'de'" in message and "'pl'" in message
    assert "Bauchschmerzen" not in message  # the text is never quoted
    assert doc._.deid_language == {"lang": "de", "confidence": pytest.approx(0.95, abs=0.05),
                                   "expected": "pl", "mismatch": True}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_other_language_warns(lang):
    other = LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]
    _, caught = run(pipeline(lang), SENTENCES[other])
    assert len(caught) == 1


@pytest.mark.parametrize("text", ["", "Dr. Meier", "Patientin: Anna Kowalska, ur. 12.03.1950",
                                  "Hb 9.8 g/dL, CRP 38 mg/l"])
def test_short_texts_do_not_warn(text):
    doc, caught = run(pipeline("de"), text)
    assert caught == []
    assert doc._.deid_language["mismatch"] is False


def test_the_warning_can_be_switched_off():
    doc, caught = run(pipeline("pl", warn=False), SENTENCES["de"])
    assert caught == []
    assert doc._.deid_language["mismatch"] is True


def test_the_warning_can_be_made_an_error():
    nlp = pipeline("pl")
    with warnings.catch_warnings():
        warnings.simplefilter("error", LanguageMismatchWarning)
        with pytest.raises(LanguageMismatchWarning):
            nlp(SENTENCES["de"])


def test_language_defaults_to_the_tokenizer_language_and_survives_serialization(tmp_path):
    nlp = pipeline("tr")
    assert nlp.get_pipe("deid_language_check").lang == "tr"
    nlp.to_disk(tmp_path)
    _, caught = run(spacy.load(tmp_path), SENTENCES["de"])
    assert len(caught) == 1


@pytest.mark.parametrize(("config", "message"), [({"max_expected_share": 2.0}, "max_expected"),
                                                 ({"min_words": -1}, "min_words"),
                                                 ({"lang": "xy"}, "xy")])
def test_bad_settings_fail_at_add_pipe(config, message):
    with pytest.raises(ValueError, match=message):
        pipeline("de", **config)


def test_factory_is_an_entry_point_and_declares_what_it_assigns():
    names = {entry.name for entry in entry_points(group="spacy_factories")}
    assert "deid_language_check" in names
    meta = spacy.Language.get_factory_meta("deid_language_check")
    assert meta.assigns == ["doc._.deid_language"]
