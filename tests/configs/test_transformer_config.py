"""Tests for configs/transformer.cfg: the encoder name is a config variable handed to
Hugging Face `from_pretrained`, so a local directory works as well as a hub name. A tiny
BERT is made in a temporary folder, the pipeline is trained on it for a few steps on CPU,
and the result predicts, is saved and loads back without the original folder. Offline."""

from __future__ import annotations

import shutil
from pathlib import Path

import huggingface_hub.constants
import pytest
import spacy
import transformers.utils.hub
from spacy.language import Language
from spacy.tokens import DocBin
from spacy.training import Example
from spacy.util import load_config, load_model_from_config
from thinc.api import Adam
from transformers import (
    BertConfig,
    BertModel,
    BertTokenizerFast,
    ModernBertConfig,
    ModernBertModel,
)

from spacy_deid.detect.recase import letter_case
from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.configs import CONFIGS, train_briefly

TRANSFORMER_CONFIG = CONFIGS / "transformer.cfg"
SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

TEXTS = [
    "Der Patient <NAME_PATIENT>Max Muster</NAME_PATIENT> kam am <DATE>01.02.2020</DATE>.",
    "Entlassung am <DATE>14.03.2021</DATE> nach <LOCATION_CITY>Berlin</LOCATION_CITY>.",
    "Herr <NAME_PATIENT>Jan Beispiel</NAME_PATIENT> wohnt in "
    "<LOCATION_CITY>Köln</LOCATION_CITY>.",
    "Keine Auffälligkeiten im Verlauf.",
]


@pytest.fixture
def offline(monkeypatch):
    """Forbid the Hugging Face hub: the environment variables for new imports, and the
    flags that already imported modules read them into."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(transformers.utils.hub, "_is_offline_mode", True)


def wordpiece_vocab(texts: list[str]) -> list[str]:
    """A WordPiece vocabulary that covers the texts character by character (plus whole
    words), so that no piece is unknown."""
    lowered = " ".join(texts).lower()
    characters = sorted({char for char in lowered if not char.isspace()})
    words = sorted({word for word in lowered.split() if word.isalpha()})
    return SPECIAL_TOKENS + characters + [f"##{char}" for char in characters] + words


def save_wordpiece_tokenizer(folder: Path, texts: list[str], **settings) -> int:
    """Save a fast WordPiece tokenizer for the texts into `folder`; return its vocab size."""
    folder.mkdir(parents=True)
    vocab_file = folder / "vocab.txt"
    vocab = wordpiece_vocab(texts)
    vocab_file.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=True, **settings).save_pretrained(
        folder
    )
    return len(vocab)


def save_tiny_bert(folder: Path, texts: list[str]) -> Path:
    """Save a randomly initialised 2-layer BERT (hidden size 32) and its fast tokenizer
    with `save_pretrained`, the layout `from_pretrained` reads from a local folder."""
    vocab_size = save_wordpiece_tokenizer(folder, texts)
    config = BertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64,
                        max_position_embeddings=256)
    BertModel(config).save_pretrained(folder)
    return folder


def save_tiny_modernbert(folder: Path, texts: list[str]) -> Path:
    """Save a tiny ModernBERT, the architecture of the default encoder (mmBERT); ModernBERT
    takes no token type ids, so the tokenizer does not produce them."""
    vocab_size = save_wordpiece_tokenizer(
        folder, texts, model_input_names=["input_ids", "attention_mask"]
    )
    config = ModernBertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2,
                              num_attention_heads=2, intermediate_size=64,
                              max_position_embeddings=256, local_attention=64,
                              pad_token_id=0, cls_token_id=2, sep_token_id=3,
                              bos_token_id=2, eos_token_id=3)
    ModernBertModel(config).save_pretrained(folder)
    return folder


def entity_triples(doc) -> list[tuple[int, int, str]]:
    """The entities of a Doc as (start char, end char, label)."""
    return [(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents]


def test_transformer_config_names_a_multilingual_encoder_and_a_gpu_allocator():
    config = load_config(TRANSFORMER_CONFIG)
    assert config["paths"]["transformer_name"] == "jhu-clsp/mmBERT-base"
    assert config["system"]["gpu_allocator"] == "pytorch"
    assert config["nlp"]["lang"] == "xx"
    assert config["nlp"]["pipeline"] == ["transformer", "ner"]
    assert config["nlp"]["tokenizer"]["@tokenizers"] == "spacy_deid.Tokenizer.v1"
    model = config["components"]["transformer"]["model"]
    assert model["@architectures"] == "spacy_deid.TransformerModel.v1"
    assert model["cpu_precision"] == "auto"
    listener = config["components"]["ner"]["model"]["tok2vec"]
    assert listener["@architectures"] == "spacy-transformers.TransformerListener.v1"


def test_transformer_name_override_reaches_from_pretrained(offline):
    missing = "spacy-deid-tests/no-such-model"  # not cached here, and the hub is off
    overrides = {"paths.transformer_name": missing}
    config = load_config(TRANSFORMER_CONFIG, overrides=overrides, interpolate=True)
    assert config["components"]["transformer"]["model"]["name"] == missing
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    with pytest.raises(OSError, match="cached files"):
        nlp.initialize()


def test_transformer_config_trains_on_a_local_tiny_bert_and_round_trips(offline, tmp_path):
    plain_texts = [parse_inline_tags(text, "test")[0] for text in TEXTS]
    weights = save_tiny_bert(tmp_path / "tiny-bert", plain_texts)
    overrides = {
        "paths.transformer_name": str(weights),
        "training.accumulate_gradient": 1,
        "training.optimizer.learn_rate.warmup_steps": 1,
        "training.optimizer.learn_rate.initial_rate": 0.003,
    }
    model_dir = train_briefly(TRANSFORMER_CONFIG, tmp_path, "de", TEXTS, steps=40,
                              overrides=overrides)
    shutil.rmtree(weights)  # the trained pipeline must carry its own encoder

    nlp = spacy.load(model_dir)
    assert nlp.pipe_names == ["transformer", "ner"]
    plain, spans = parse_inline_tags(TEXTS[0], "test")
    doc = nlp(plain)
    assert doc._.trf_data is not None
    # a few steps on four sentences are enough to learn those sentences back
    assert entity_triples(doc) == [(span.start, span.end, span.label) for span in spans]

    nlp.to_disk(tmp_path / "saved")
    reloaded = spacy.load(tmp_path / "saved")
    assert entity_triples(reloaded(plain)) == entity_triples(doc)


def initialized_pipeline(overrides: dict[str, str]) -> tuple[Language, list[Example]]:
    """configs/transformer.cfg with `overrides`, initialised on the examples of TEXTS;
    returns the pipeline and the examples."""
    config = load_config(TRANSFORMER_CONFIG, overrides=overrides, interpolate=True)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    examples = []
    for text, spans in (parse_inline_tags(text, "test") for text in TEXTS):
        reference = nlp.make_doc(text)
        reference.ents = [reference.char_span(s.start, s.end, s.label) for s in spans]
        examples.append(Example(nlp.make_doc(text), reference))
    nlp.initialize(lambda: examples)
    return nlp, examples


def test_transformer_config_runs_a_modernbert_encoder(offline, tmp_path):
    examples_text = [parse_inline_tags(text, "test") for text in TEXTS]
    weights = save_tiny_modernbert(tmp_path / "tiny-modernbert", [t for t, _ in examples_text])
    nlp, examples = initialized_pipeline({"paths.transformer_name": str(weights)})
    optimizer = Adam(0.001)
    # the entity tagger's output layer starts at zero, so the encoder gets a gradient from
    # the second update on
    nlp.update(examples, sgd=optimizer)
    losses = nlp.update(examples, sgd=optimizer)
    assert losses["ner"] > 0 and losses["transformer"] > 0
    doc = nlp(examples_text[0][0])
    # one 32-wide hidden state per word piece, aligned back to every spaCy token
    assert doc._.trf_data.width == 32
    assert doc._.trf_data.align.lengths.shape[0] == len(doc)


def test_a_transformer_ner_added_second_keeps_its_own_encoder(offline, tmp_path):
    from scripts.pipelines.assemble import assemble_pipeline

    plain_texts = [parse_inline_tags(text, "test")[0] for text in TEXTS]
    models = {}
    for lang in ("de", "xx"):
        weights = save_tiny_bert(tmp_path / f"bert-{lang}", plain_texts)
        overrides = {"paths.transformer_name": str(weights), "training.accumulate_gradient": 1,
                     "training.optimizer.learn_rate.warmup_steps": 1,
                     "training.optimizer.learn_rate.initial_rate": 0.003}
        (tmp_path / lang).mkdir()
        models[lang] = train_briefly(TRANSFORMER_CONFIG, tmp_path / lang, lang, TEXTS,
                                     steps=40, overrides=overrides)
    gold = spacy.load(models["de"])
    train_path = tmp_path / "train.spacy"
    DocBin(docs=[make_doc(gold.tokenizer, *parse_inline_tags(text, "test"))[0]
                 for text in TEXTS]).to_disk(train_path)
    ensemble = assemble_pipeline(models["de"], "de", [train_path], models["xx"])
    ensemble.to_disk(tmp_path / "ensemble")
    ensemble = spacy.load(tmp_path / "ensemble")
    assert ensemble.pipe_names[:6] == ["deid_language_check", "transformer", "ner",
                                       "ner_multilingual", "deid_recase", "deid_date_shapes"]
    multilingual = spacy.load(models["xx"])
    others = [name for name in ensemble.pipe_names if name != "ner_multilingual"]
    for text in plain_texts:
        # with the first model's encoder and NER switched off, the second NER alone
        # predicts what it predicted in its own pipeline: it reads its own encoder copy
        with ensemble.select_pipes(disable=others):
            alone = ensemble(text)
        assert entity_triples(alone) == entity_triples(multilingual(text))
    # a text in lower case only is read again, recased, by the encoder and both NERs
    lowered = " ".join(plain_texts).lower()
    recase = ensemble.get_pipe("deid_recase")
    assert letter_case(lowered, recase.min_cased, recase.lower_share, recase.upper_share) == "lower"
    assert recase.finders() == ["transformer", "ner", "ner_multilingual"]
    assert ensemble(lowered).text == lowered
