"""Pretrain a small BERT encoder on the training letters (masked-language modelling), for
`configs/transformer.cfg` where no pretrained encoder can be fetched.

A WordPiece tokenizer is trained on the texts of every chosen language's training split,
then a randomly initialised BERT learns to fill masked pieces for a time or step budget.
Encoder and tokenizer are saved with `save_pretrained`, the folder layout that
`paths.transformer_name` accepts. A pretrained multilingual encoder (mmBERT, XLM-R) is far
better; this is the offline fallback, and what checks the GPU path without a model hub.

Usage::

    python -m scripts.training.pretrain_encoder corpus/splits training/encoder --langs "de en" \\
        --seconds 150 --gpu-id 0
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import srsly
import typer

from scripts.corpus.split import load_docs
from spacy_deid.lang import parse_language_codes

PIECES_PER_CHUNK = 126  # plus [CLS] and [SEP]: 128, the window of configs/transformer.cfg


def read_training_texts(splits_dir: Path, langs: list[str]) -> list[str]:
    """The texts of `<splits_dir>/<lang>/train.spacy` for every language."""
    missing = [lang for lang in langs if not (splits_dir / lang / "train.spacy").is_file()]
    if missing:
        raise FileNotFoundError(f"no training split for {', '.join(missing)} in {splits_dir}")
    return [doc.text for lang in langs for doc in load_docs(splits_dir / lang / "train.spacy")]


def train_tokenizer(texts: list[str], vocab_size: int, folder: Path):
    """Train a cased WordPiece tokenizer on the texts and save it into `folder`."""
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertTokenizerFast

    wordpiece = BertWordPieceTokenizer(lowercase=False, strip_accents=False)
    wordpiece.train_from_iterator(texts, vocab_size=vocab_size, min_frequency=2)
    folder.mkdir(parents=True, exist_ok=True)
    wordpiece.save_model(str(folder))
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=False,
                                  strip_accents=False)
    tokenizer.save_pretrained(folder)
    return tokenizer


def chunk_pieces(texts: list[str], tokenizer, length: int = PIECES_PER_CHUNK) -> list[list[int]]:
    """All texts' word pieces run together and cut into [CLS] … [SEP] chunks of `length`."""
    pieces = [piece for text in texts
              for piece in tokenizer(text, add_special_tokens=False)["input_ids"]]
    return [[tokenizer.cls_token_id, *pieces[start:start + length], tokenizer.sep_token_id]
            for start in range(0, len(pieces), length)]


def pretrain(model, chunks: list[list[int]], tokenizer, device: str, seconds: float,
             max_steps: int, batch_size: int, learn_rate: float) -> dict[str, float]:
    """Masked-LM training over shuffled chunks until the time or step budget is spent."""
    import torch
    from transformers import DataCollatorForLanguageModeling

    collate = DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.15)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learn_rate, weight_decay=0.01)
    model.train()
    started, step, loss = time.perf_counter(), 0, float("nan")

    def budget_left() -> bool:
        return step < max_steps and time.perf_counter() - started < seconds

    while budget_left():
        order = torch.randperm(len(chunks)).tolist()
        for first in range(0, len(order), batch_size):
            batch = collate([{"input_ids": chunks[i]} for i in order[first:first + batch_size]])
            batch = {name: tensor.to(device) for name, tensor in batch.items()}
            with torch.autocast(device.split(":")[0], dtype=torch.bfloat16,
                                enabled=device.startswith("cuda")):
                output = model(**batch)
            output.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            step, loss = step + 1, output.loss.item()
            if not budget_left():
                break
    return {"steps": step, "final_loss": round(loss, 4),
            "seconds": round(time.perf_counter() - started, 1)}


def main(
    splits_dir: Path = typer.Argument(..., help="Folder with <lang>/train.spacy"),
    output: Path = typer.Argument(..., help="Folder for the encoder and its tokenizer"),
    langs: str = typer.Option(..., help="Space- or comma-separated language codes"),
    seconds: float = typer.Option(150.0, help="Time budget of the masked-LM training"),
    max_steps: int = typer.Option(100_000, help="Step budget of the masked-LM training"),
    vocab_size: int = typer.Option(16_000, help="WordPiece vocabulary size"),
    layers: int = typer.Option(4, help="Transformer layers"),
    hidden: int = typer.Option(256, help="Hidden size (4 attention heads of hidden/4)"),
    batch_size: int = typer.Option(64, help="Chunks per step"),
    learn_rate: float = typer.Option(5e-4, help="AdamW learning rate"),
    gpu_id: int = typer.Option(-1, help="GPU id, -1 for the CPU"),
    seed: int = typer.Option(0, help="Random seed"),
) -> None:
    """Train a tokenizer and a small BERT on the training letters; save both into OUTPUT."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    try:
        texts = read_training_texts(splits_dir, parse_language_codes(langs))
    except (FileNotFoundError, ValueError) as err:
        raise typer.BadParameter(str(err)) from err
    torch.manual_seed(seed)
    device = f"cuda:{gpu_id}" if gpu_id >= 0 else "cpu"
    tokenizer = train_tokenizer(texts, vocab_size, output)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=hidden, num_hidden_layers=layers,
                        num_attention_heads=4, intermediate_size=4 * hidden,
                        max_position_embeddings=512)
    model = BertForMaskedLM(config).to(device)
    chunks = chunk_pieces(texts, tokenizer)
    result = pretrain(model, chunks, tokenizer, device, seconds, max_steps, batch_size,
                      learn_rate)
    model.bert.save_pretrained(output)
    record = {"langs": langs, "letters": len(texts), "chunks": len(chunks), "device": device,
              "parameters": sum(p.numel() for p in model.parameters()), **result,
              "command": shlex.join(["python", "-m", "scripts.training.pretrain_encoder",
                                     *sys.argv[1:]])}
    srsly.write_json(output / "pretraining.json", record)
    typer.echo(f"{result['steps']} masked-LM steps in {result['seconds']} s on {device}, "
               f"final loss {result['final_loss']} -> {output}")


if __name__ == "__main__":
    typer.run(main)
