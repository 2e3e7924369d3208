"""Tests for configs/cpu.cfg: it loads through spaCy's config system with the project
tokenizer for any language, trains a few steps and the result predicts and round-trips."""

from __future__ import annotations

import shutil

import pytest
import spacy
from spacy.util import load_config, load_model_from_config

from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.configs import CONFIGS, train_briefly
from tests.tiny_encoder import write_encoder_folder

CPU_CONFIG = CONFIGS / "cpu.cfg"

TEXTS = {
    "de": [
        "Der Patient <NAME_PATIENT>Max Muster</NAME_PATIENT> kam am <DATE>01.02.2020</DATE>.",
        "Entlassung am <DATE>14.03.2021</DATE> nach <LOCATION_CITY>Berlin</LOCATION_CITY>.",
        "Herr <NAME_PATIENT>Jan Beispiel</NAME_PATIENT> wohnt in "
        "<LOCATION_CITY>Köln</LOCATION_CITY>.",
        "Keine Auffälligkeiten im Verlauf.",
    ],
    "ar": [
        "المريض <NAME_PATIENT>أحمد سالم</NAME_PATIENT> حضر في <DATE>01.02.2020</DATE>.",
        "خرج في <DATE>14.03.2021</DATE> إلى <LOCATION_CITY>القاهرة</LOCATION_CITY>.",
        "السيد <NAME_PATIENT>خالد يوسف</NAME_PATIENT> يسكن في <LOCATION_CITY>عمان</LOCATION_CITY>.",
        "لا توجد ملاحظات.",
    ],
}

LANGUAGE_SPLIT = {"de": ("Hr.Baastrup", ["Hr.", "Baastrup"]), "ar": ("والمصري", ["و", "المصري"])}


def entity_triples(doc) -> list[tuple[int, int, str]]:
    """The entities of a Doc as (start char, end char, label)."""
    return [(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents]


@pytest.mark.parametrize("lang", ["de", "ar"])
def test_cpu_config_builds_a_pipeline_with_the_language_tokenizer(lang):
    config = load_config(CPU_CONFIG, overrides={"nlp.tokenizer.lang": lang})
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    assert nlp.lang == "xx"
    assert nlp.pipe_names == ["tok2vec", "ner"]
    assert nlp.config["nlp"]["tokenizer"]["lang"] == lang
    # the language's own rules plus the PHI splits: a title glued to a name in German,
    # a conjunction written onto a definite noun in Arabic
    text, expected = LANGUAGE_SPLIT[lang]
    assert [token.text for token in nlp.make_doc(text)] == expected


@pytest.mark.parametrize("lang", ["de", "ar"])
def test_cpu_config_trains_predicts_and_round_trips(tmp_path, lang):
    write_encoder_folder(tmp_path / "encoder")
    model_dir = train_briefly(CPU_CONFIG, tmp_path, lang, TEXTS[lang], steps=60,
                              overrides={"training.optimizer.learn_rate": 0.005,
                                         "paths.encoder": str(tmp_path / "encoder"),
                                         "components.tok2vec.model.embed.subword_dims": 4})
    shutil.rmtree(tmp_path / "encoder")  # the subword vectors travel with the pipeline
    nlp = spacy.load(model_dir)
    assert nlp.config["nlp"]["tokenizer"]["lang"] == lang
    plain, spans = parse_inline_tags(TEXTS[lang][0], "test")
    doc = nlp(plain)
    # a few steps on four sentences are enough to learn those sentences back
    assert entity_triples(doc) == [(span.start, span.end, span.label) for span in spans]

    nlp.to_disk(tmp_path / "saved")
    reloaded = spacy.load(tmp_path / "saved")
    assert reloaded.pipe_names == ["tok2vec", "ner"]
    assert entity_triples(reloaded(plain)) == entity_triples(doc)
