"""scripts/benchmarks/training_step.py: tokens per second through `nlp.update`."""

from pathlib import Path

import pytest
import typer
from transformers import AutoConfig, AutoTokenizer

from scripts.benchmarks.training_step import save_tiny_encoder, time_updates
from tests.configs import CONFIGS, write_docbin
from tests.configs.test_transformer_config import TEXTS, save_tiny_bert


@pytest.fixture()
def tiny_bert(tmp_path: Path) -> Path:
    return save_tiny_bert(tmp_path / "bert", TEXTS)


def test_it_times_updates_and_counts_their_tokens(tmp_path: Path, tiny_bert: Path) -> None:
    data = write_docbin(tmp_path / "train.spacy", "de", TEXTS * 4)
    result = time_updates(CONFIGS / "transformer.cfg", data, {
        "paths.transformer_name": str(tiny_bert), "nlp.tokenizer.lang": "de",
        "training.batcher.size": 60}, n_docs=len(TEXTS) * 4, n_updates=3)
    assert 1 <= len(result["seconds"]) == len(result["tokens"]) <= 3
    assert all(tokens > 0 for tokens in result["tokens"])
    assert result["tokens_per_second"] == round(sum(result["tokens"]) / sum(result["seconds"]))
    assert result["components"] == ["transformer", "ner"]


def test_too_few_documents_for_a_timed_update_is_a_clear_error(tmp_path: Path,
                                                               tiny_bert: Path) -> None:
    data = write_docbin(tmp_path / "train.spacy", "de", TEXTS[:1])
    with pytest.raises(typer.BadParameter, match="too few documents"):
        time_updates(CONFIGS / "transformer.cfg", data, {
            "paths.transformer_name": str(tiny_bert), "nlp.tokenizer.lang": "de"},
            n_docs=1, n_updates=3)


def test_the_tiny_encoder_keeps_the_tokenizer_and_is_one_layer_of_width_32(
        tmp_path: Path, tiny_bert: Path) -> None:
    tiny = save_tiny_encoder(tiny_bert, tmp_path / "tiny")
    config = AutoConfig.from_pretrained(tiny)
    assert (config.num_hidden_layers, config.hidden_size) == (1, 32)
    assert config.vocab_size == AutoConfig.from_pretrained(tiny_bert).vocab_size
    text = TEXTS[0]
    assert AutoTokenizer.from_pretrained(tiny)(text)["input_ids"] == \
        AutoTokenizer.from_pretrained(tiny_bert)(text)["input_ids"]
