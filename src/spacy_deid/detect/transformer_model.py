"""`spacy_deid.TransformerModel.v1`: spacy-transformers' encoder, run in bfloat16 on CPUs
that compute in bfloat16 natively.

On one CPU core the encoder takes nearly all of a `_trf` pipeline's time, and most of that
is matrix products. CPUs with AVX512-BF16 or AMX multiply bfloat16 about twice as fast as
float32, and under `torch.autocast` the layer norms, softmax and outputs stay in float32,
so the hidden states stay within rounding of float32's. Only inference on a CPU changes:
training and GPU inference run exactly as `spacy-transformers.TransformerModel.v3`.

`cpu_precision` is `"auto"` (bfloat16 where the CPU has the instructions, else float32),
`"float32"` or `"bfloat16"`. Override it when loading a pipeline::

    spacy.load("xx_deid_de_trf", config={
        "components": {"transformer": {"model": {"cpu_precision": "float32"}}}})
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from spacy.language import Language
from spacy.util import registry
from spacy_transformers.data_classes import FullTransformerBatch
from spacy_transformers.layers._util import replace_listener_cfg
from spacy_transformers.layers.transformer_model import TransformerModel
from thinc.api import Config

ARCHITECTURE = "spacy_deid.TransformerModel.v1"
CPU_PRECISIONS = ("auto", "float32", "bfloat16")
# /proc/cpuinfo flags of the instructions that multiply bfloat16 matrices.
BFLOAT16_CPU_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


def cpu_has_native_bfloat16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether the CPU lists an instruction set that multiplies bfloat16 natively (read from
    /proc/cpuinfo; False where that file does not exist)."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags"):
            return bool(BFLOAT16_CPU_FLAGS & set(line.split(":", 1)[-1].split()))
    return False


def resolve_cpu_precision(setting: str, native_bfloat16: bool | None = None) -> str:
    """The precision `setting` means on this CPU: "float32" or "bfloat16"."""
    if setting not in CPU_PRECISIONS:
        raise ValueError(f"cpu_precision must be one of {', '.join(CPU_PRECISIONS)}, "
                         f"got {setting!r}")
    if setting != "auto":
        return setting
    if native_bfloat16 is None:
        native_bfloat16 = cpu_has_native_bfloat16()
    return "bfloat16" if native_bfloat16 else "float32"


def outputs_as_float32(batch: FullTransformerBatch) -> FullTransformerBatch:
    """Cast the bfloat16 tensors of a batch's model output (e.g. the pooler's) to float32,
    which numpy and the NER read."""
    output = batch.model_output
    for key, value in list(output.items()):
        if torch.is_tensor(value) and value.dtype == torch.bfloat16:
            output[key] = value.float()
    return batch


def drop_cpu_precision(tok2vec_cfg: dict, listener_cfg: dict) -> dict:
    """spacy-transformers' config rewrite for `replace_listeners`, without `cpu_precision`:
    the copy of the encoder that `replace_listeners` gives a component is a plain
    `Tok2VecTransformer`, which runs in float32, in the config as in memory."""
    tok2vec_cfg = {key: value for key, value in tok2vec_cfg.items() if key != "cpu_precision"}
    tok2vec_cfg["@architectures"] = "spacy-transformers.TransformerModel.v3"
    return replace_listener_cfg(tok2vec_cfg, listener_cfg)


class CpuPrecisionTransformerModel(TransformerModel):
    """A `TransformerModel` whose inference on a CPU runs in its `cpu_precision`.

    The setting is kept on the object, not in `attrs`, which thinc saves with the weights:
    it comes from the config each time a pipeline loads, and "auto" is decided on the
    machine that runs it."""

    def __init__(self, *args: Any, cpu_precision: str = "auto", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cpu_precision = resolve_cpu_precision(cpu_precision)

    def precision_here(self) -> str:
        """"bfloat16" or "float32" where the encoder is on a CPU, "gpu" where it is not."""
        transformer = self.transformer
        if transformer is not None and transformer.device.type != "cpu":
            return "gpu"
        return self.cpu_precision

    def predict(self, X):  # noqa: N803 (thinc's name for the input)
        if self.precision_here() != "bfloat16":
            return super().predict(X)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            batch = super().predict(X)
        return outputs_as_float32(batch)


@registry.architectures(ARCHITECTURE)
def create_transformer_model(
    name: str,
    get_spans: Callable,
    tokenizer_config: dict | None = None,
    transformer_config: dict | None = None,
    mixed_precision: bool = False,
    grad_scaler_config: dict | None = None,
    cpu_precision: str = "auto",
) -> TransformerModel:
    """spacy-transformers' `TransformerModel.v3` with the same settings, plus
    `cpu_precision` for inference on a CPU (see the module docstring)."""
    model = CpuPrecisionTransformerModel(
        name, get_spans, dict(tokenizer_config or {}), dict(transformer_config or {}),
        mixed_precision, dict(grad_scaler_config or {}), cpu_precision=cpu_precision,
    )
    model.attrs["replace_listener_cfg"] = drop_cpu_precision
    return model


def cpu_precision_overrides(config: Config, setting: str) -> dict[str, Any]:
    """`spacy.load(..., config=...)` overrides that set `cpu_precision` of every component
    of a pipeline config built on `spacy_deid.TransformerModel.v1`."""
    resolve_cpu_precision(setting)  # validates the setting
    return {
        f"components.{name}.model.cpu_precision": setting
        for name, component in config.get("components", {}).items()
        if component.get("model", {}).get("@architectures") == ARCHITECTURE
    }


def encoder_precisions(nlp: Language) -> dict[str, str]:
    """For each component built on `spacy_deid.TransformerModel.v1`, the precision its
    inference runs in here: "bfloat16" or "float32" on a CPU, "gpu" on a GPU."""
    return {
        name: component.model.precision_here()
        for name, component in nlp.components
        if isinstance(getattr(component, "model", None), CpuPrecisionTransformerModel)
    }
