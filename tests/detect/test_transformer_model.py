"""Tests for `spacy_deid.TransformerModel.v1`: the CPU precision setting, how it is read
(from the CPU's flags and from the config at every load, never from saved weights), and a
tiny BERT made in the test run in float32 and in bfloat16."""

from __future__ import annotations

from pathlib import Path

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.util import fix_random_seed

from spacy_deid.detect.transformer_model import (
    cpu_has_native_bfloat16,
    cpu_precision_overrides,
    encoder_precisions,
    resolve_cpu_precision,
)
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.configs.test_transformer_config import (  # noqa: F401 (offline is a fixture)
    TEXTS,
    initialized_pipeline,
    offline,
    save_tiny_bert,
)

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
flags\t\t: fpu sse2 avx2 {extra}
bogomips\t: 4000.00
"""


def write_cpuinfo(path: Path, extra_flags: str) -> Path:
    path.write_text(CPUINFO.format(extra=extra_flags), encoding="utf-8")
    return path


@pytest.mark.parametrize(("flags", "native"), [
    ("avx512f avx512_bf16", True),
    ("amx_tile amx_bf16", True),
    ("avx512f avx512_vnni", False),
    ("", False),
])
def test_native_bfloat16_is_read_from_the_cpu_flags(tmp_path, flags, native):
    assert cpu_has_native_bfloat16(write_cpuinfo(tmp_path / "cpuinfo", flags)) is native


def test_without_a_cpuinfo_file_the_cpu_counts_as_float32_only(tmp_path):
    assert cpu_has_native_bfloat16(tmp_path / "missing") is False
    assert resolve_cpu_precision("auto", native_bfloat16=False) == "float32"


@pytest.mark.parametrize(("setting", "native", "expected"), [
    ("auto", True, "bfloat16"),
    ("auto", False, "float32"),
    ("float32", True, "float32"),
    ("bfloat16", False, "bfloat16"),
])
def test_cpu_precision_setting(setting, native, expected):
    assert resolve_cpu_precision(setting, native_bfloat16=native) == expected


def test_an_unknown_cpu_precision_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="cpu_precision must be one of auto, float32"):
        resolve_cpu_precision("int8")


def tiny_transformer_pipeline(tmp_path: Path, cpu_precision: str) -> Language:
    """configs/transformer.cfg on a tiny BERT, initialised (seeded) on the test texts."""
    fix_random_seed(0)
    texts = [parse_inline_tags(text, "test")[0] for text in TEXTS]
    weights = save_tiny_bert(tmp_path / f"bert-{cpu_precision}", texts)
    nlp, _ = initialized_pipeline({"paths.transformer_name": str(weights),
                                   "components.transformer.model.cpu_precision": cpu_precision})
    return nlp


def hidden_states(nlp: Language, text: str) -> numpy.ndarray:
    """The encoder's last hidden states for `text`, one row per word piece."""
    with nlp.select_pipes(enable=["transformer"]):
        doc = nlp(text)
    states = doc._.trf_data.tensors[0]
    return states.reshape(-1, states.shape[-1])


def test_bfloat16_on_the_cpu_stays_close_to_float32(offline, tmp_path):  # noqa: F811
    nlp = tiny_transformer_pipeline(tmp_path, "float32")
    nlp.to_disk(tmp_path / "saved")
    text = parse_inline_tags(TEXTS[2], "test")[0]
    in_float32 = spacy.load(tmp_path / "saved")
    in_bfloat16 = spacy.load(tmp_path / "saved", config=cpu_precision_overrides(
        in_float32.config, "bfloat16"))
    assert encoder_precisions(in_float32) == {"transformer": "float32"}
    assert encoder_precisions(in_bfloat16) == {"transformer": "bfloat16"}

    exact, rounded = hidden_states(in_float32, text), hidden_states(in_bfloat16, text)
    assert rounded.dtype == numpy.float32
    assert not numpy.array_equal(exact, rounded)  # the products did run in bfloat16
    cosine = (exact * rounded).sum(1) / (
        numpy.linalg.norm(exact, axis=1) * numpy.linalg.norm(rounded, axis=1))
    assert cosine.min() > 0.99


def test_the_precision_comes_from_the_config_at_each_load(offline, tmp_path):  # noqa: F811
    nlp = tiny_transformer_pipeline(tmp_path, "bfloat16")
    nlp.to_disk(tmp_path / "saved")
    assert encoder_precisions(spacy.load(tmp_path / "saved")) == {"transformer": "bfloat16"}
    overrides = cpu_precision_overrides(nlp.config, "float32")
    assert overrides == {"components.transformer.model.cpu_precision": "float32"}
    reloaded = spacy.load(tmp_path / "saved", config=overrides)
    assert encoder_precisions(reloaded) == {"transformer": "float32"}
    with pytest.raises(ValueError, match="cpu_precision must be one of"):
        spacy.load(tmp_path / "saved", config={
            "components.transformer.model.cpu_precision": "half"})


def test_replace_listeners_gives_a_plain_encoder_config(offline, tmp_path):  # noqa: F811
    nlp = tiny_transformer_pipeline(tmp_path, "auto")
    nlp.replace_listeners("transformer", "ner", ["model.tok2vec"])
    tok2vec = nlp.config["components"]["ner"]["model"]["tok2vec"]
    assert tok2vec["@architectures"] == "spacy-transformers.Tok2VecTransformer.v3"
    assert "cpu_precision" not in tok2vec
    nlp.to_disk(tmp_path / "replaced")
    reloaded = spacy.load(tmp_path / "replaced")  # the rewritten config validates
    assert reloaded.config["components"]["ner"]["model"]["tok2vec"] == tok2vec
