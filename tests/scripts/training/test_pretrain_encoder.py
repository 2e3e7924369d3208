"""Tests for scripts/training/pretrain_encoder.py: a tokenizer and a one-layer BERT trained for two
masked-LM steps on a small DocBin made here (CPU, offline), saved so that Hugging Face
`from_pretrained` (what configs/transformer.cfg calls) loads it."""

from __future__ import annotations

import spacy
import srsly
import typer
from spacy.tokens import DocBin
from transformers import AutoModel, AutoTokenizer
from typer.testing import CliRunner

from scripts.training.pretrain_encoder import chunk_pieces, main

TEXTS = [
    "Sehr geehrte Frau Kollegin, wir berichten über Herrn Max Muster, geb. 01.02.1960.",
    "Der Patient wurde am 14.03.2021 aus unserer Klinik in Leipzig entlassen.",
    "Aufnahme am 02.05.2022 wegen Dyspnoe; Entlassung am 09.05.2022 nach Hause.",
] * 4


def write_split(root, lang: str) -> None:
    nlp = spacy.blank("de")
    docbin = DocBin()
    for text in TEXTS:
        docbin.add(nlp.make_doc(text))
    (root / lang).mkdir(parents=True)
    docbin.to_disk(root / lang / "train.spacy")


def run_cli(*args: str):
    app = typer.Typer()
    app.command()(main)
    return CliRunner().invoke(app, [str(arg) for arg in args])


def test_pretrains_and_saves_an_encoder_that_from_pretrained_loads(tmp_path):
    write_split(tmp_path / "splits", "de")
    output = tmp_path / "encoder"
    result = run_cli(tmp_path / "splits", output, "--langs", "de", "--max-steps", "2",
                     "--layers", "1", "--hidden", "32", "--vocab-size", "300",
                     "--batch-size", "4")
    assert result.exit_code == 0, result.output
    record = srsly.read_json(output / "pretraining.json")
    assert record["steps"] == 2
    assert record["letters"] == len(TEXTS)
    assert record["device"] == "cpu"
    tokenizer = AutoTokenizer.from_pretrained(output)
    model = AutoModel.from_pretrained(output)
    encoded = tokenizer("Herr Muster kam am 01.02.1960.", return_tensors="pt")
    assert tokenizer.unk_token_id not in encoded["input_ids"][0].tolist()
    assert model(**encoded).last_hidden_state.shape[-1] == 32


def test_chunks_keep_every_piece_between_cls_and_sep(tmp_path):
    write_split(tmp_path / "splits", "de")
    result = run_cli(tmp_path / "splits", tmp_path / "encoder", "--langs", "de",
                     "--max-steps", "1", "--layers", "1", "--hidden", "32",
                     "--vocab-size", "300")
    assert result.exit_code == 0, result.output
    tokenizer = AutoTokenizer.from_pretrained(tmp_path / "encoder")
    chunks = chunk_pieces(TEXTS, tokenizer, length=10)
    pieces = [piece for text in TEXTS
              for piece in tokenizer(text, add_special_tokens=False)["input_ids"]]
    assert all(chunk[0] == tokenizer.cls_token_id and chunk[-1] == tokenizer.sep_token_id
               for chunk in chunks)
    assert [piece for chunk in chunks for piece in chunk[1:-1]] == pieces
    assert max(len(chunk) for chunk in chunks) == 12


def test_names_a_language_without_training_split(tmp_path):
    write_split(tmp_path / "splits", "de")
    result = run_cli(tmp_path / "splits", tmp_path / "encoder", "--langs", "de pl")
    assert result.exit_code != 0
    assert "no training split for pl" in result.output
