"""Speed of a training step: tokens per second through `nlp.update` for a training config.

Initialises the config's pipeline on the training DocBin as `spacy train` does, reads examples
with the config's training corpus reader, draws batches with the config's batcher (its size
can be overridden), warms up with one update and times the next ones. `--tiny-encoder` puts
a one-layer BERT of width 32 (random, seeded) with the tokenizer of a given encoder folder in
place of `paths.transformer_name`: the encoder then costs almost nothing, and what is left is
the price of everything around it (the NER head, aligning word pieces to tokens, copying
examples). One entry per name in the output file.

Usage::

    python -m scripts.benchmarks.training_step configs/transformer.cfg \\
        corpus/splits/xx/train.spacy --tiny-encoder training/encoder --name tagger-tiny
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import typer
from spacy import util
from spacy.training.initialize import init_nlp
from thinc.api import Adam

from scripts.benchmarks.benchmark import limit_to_one_core, update_throughput_file
from scripts.evaluation.evaluate import command_line, select_device, timestamp


def save_tiny_encoder(tokenizer_dir: Path, output_dir: Path, seed: int = 0) -> Path:
    """A one-layer BERT of width 32 with random weights and the tokenizer of `tokenizer_dir`."""
    import torch
    from transformers import AutoConfig, BertConfig, BertModel

    vocab_size = AutoConfig.from_pretrained(tokenizer_dir).vocab_size
    shutil.copytree(tokenizer_dir, output_dir,
                    ignore=shutil.ignore_patterns("*.safetensors", "*.bin", "config.json"))
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=64, max_position_embeddings=514,
                        type_vocab_size=2, pad_token_id=1)
    BertModel(config, add_pooling_layer=False).save_pretrained(output_dir)
    return output_dir


def time_updates(config_path: Path, train: Path, overrides: dict[str, Any], n_docs: int,
                 n_updates: int) -> dict[str, Any]:
    """Seconds and tokens of `n_updates` timed updates after one warm-up update, on the first
    `n_docs` documents read by the config's training corpus reader."""
    config = util.load_config(config_path, overrides={
        "paths.train": str(train), "paths.dev": str(train), "corpora.train.limit": n_docs,
        "corpora.dev.limit": 1, **overrides}, interpolate=False)
    nlp = init_nlp(config)
    reader, batcher = util.resolve_dot_names(config.interpolate(),
                                             ["corpora.train", "training.batcher"])
    examples = list(reader(nlp))
    batches = list(batcher(examples))[:n_updates + 1]
    if len(batches) < 2:
        raise typer.BadParameter(f"{train}: too few documents for a timed update")
    optimizer = Adam(0.0001)
    nlp.update(batches[0], sgd=optimizer)
    seconds, tokens = [], []
    for batch in batches[1:]:
        started = time.perf_counter()
        nlp.update(batch, sgd=optimizer, losses={})
        seconds.append(round(time.perf_counter() - started, 4))
        tokens.append(sum(len(example) for example in batch))
    return {"seconds": seconds, "tokens": tokens,
            "tokens_per_second": round(sum(tokens) / sum(seconds)),
            "components": nlp.pipe_names}


def main(
    config: Path = typer.Argument(..., help="Training config, e.g. configs/transformer.cfg"),
    train: Path = typer.Argument(..., help="Training DocBin, e.g. corpus/splits/xx/train.spacy"),
    name: str = typer.Option(..., help="Entry name in the output file"),
    output: Path = typer.Option(Path("metrics/training_step.json"), help="JSON file to update"),
    tiny_encoder: Path = typer.Option(
        None, help="Encoder folder whose tokenizer a one-layer BERT of width 32 takes; that "
                   "BERT replaces paths.transformer_name"),
    transformer_name: str = typer.Option(None, help="paths.transformer_name otherwise"),
    lang: str = typer.Option("xx", help="nlp.tokenizer.lang"),
    batch_size: int = typer.Option(4000, help="training.batcher.size"),
    docs: int = typer.Option(300, help="Training documents to draw batches from"),
    updates: int = typer.Option(20, help="Timed updates"),
    gpu_id: int = typer.Option(-1, help="GPU id, -1 for the CPU"),
) -> None:
    """Time training updates of CONFIG and record tokens per second under NAME."""
    settings = limit_to_one_core() if gpu_id < 0 else {}
    device = select_device(gpu_id)["device"]
    overrides: dict[str, Any] = {"nlp.tokenizer.lang": lang, "training.batcher.size": batch_size}
    with tempfile.TemporaryDirectory() as tmp:
        if tiny_encoder is not None:
            overrides["paths.transformer_name"] = str(save_tiny_encoder(
                tiny_encoder, Path(tmp) / "tiny"))
        elif transformer_name is not None:
            overrides["paths.transformer_name"] = transformer_name
        result = time_updates(config, train, overrides, docs, updates)
    entry = {"name": name, "config": str(config), "data": str(train), "batch_size": batch_size,
             "encoder": "one-layer BERT, width 32" if tiny_encoder else transformer_name,
             **result, **settings, "device": device, "command": command_line(),
             "created": timestamp()}
    update_throughput_file(output, entry)
    typer.echo(f"{name}: {entry['tokens_per_second']:,} tokens/s in nlp.update on {device} "
               f"-> {output}")


if __name__ == "__main__":
    typer.run(main)
