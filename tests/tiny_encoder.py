"""A tiny encoder folder made on the fly: the two files the CPU config's subword vectors read
(`tokenizer.json`, a unigram tokenizer; `model.safetensors`, a random input embedding table)."""

from __future__ import annotations

from pathlib import Path

import numpy
from safetensors.numpy import save_file

PIECES = ["<unk>", "▁", "▁Ko", "wal", "ski", "▁Frau", "▁Station", "▁4", "B", "▁kam", "▁auf",
          "▁am", "▁Herr", "▁Berger", "▁Anna", ".", "▁Der", "▁Patient", "▁Max", "▁Muster"]
WIDTH = 8


def write_encoder_folder(folder: Path, seed: int = 0) -> numpy.ndarray:
    """Write the tokenizer and a random (pieces × WIDTH) embedding table into `folder`;
    return the table."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    folder.mkdir(parents=True, exist_ok=True)
    vocab = [(piece, -float(len(piece))) for piece in PIECES]
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=0, byte_fallback=False))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.save(str(folder / "tokenizer.json"))
    table = numpy.random.default_rng(seed).normal(size=(len(PIECES), WIDTH)).astype("float32")
    save_file({"embeddings.word_embeddings.weight": table}, str(folder / "model.safetensors"))
    return table
