"""`spacy_deid.SubwordVectors.v1` and `spacy_deid.HashSubwordEmbed.v1`: pretrained subword
vectors for the CPU pipelines' token-to-vector layer.

Hash embeddings learn only from the training documents, so a name or a code spelled in a way
they never saw shares its rows with unrelated words. The input embeddings of a pretrained
multilingual encoder (multilingual-e5-small, [encoder.md](../../../docs/encoder.md)) place the
subwords of all ten languages from far more text. Each token gets the mean of its subwords'
embeddings, reduced to `dims` dimensions by a principal-component projection fitted when the
model is initialised. The table is frozen (it gets no gradient), is saved with the pipeline
together with the subword tokenizer, and needs neither torch nor the encoder folder at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy
from spacy.ml.models import MultiHashEmbed
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Maxout, Model, chain, concatenate, with_array
from thinc.types import Floats2d

SUBWORD_VECTORS = "spacy_deid.SubwordVectors.v1"
HASH_SUBWORD_EMBED = "spacy_deid.HashSubwordEmbed.v1"
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
# Token texts whose subword ids are kept between batches; the cache is emptied when full.
CACHE_SIZE = 500_000


@registry.architectures(HASH_SUBWORD_EMBED)
def create_hash_subword_embed(
    width: int,
    attrs: list[str],
    rows: list[int],
    encoder_dir: str,
    subword_dims: int = 64,
) -> Model[list[Doc], list[Floats2d]]:
    """spaCy's `MultiHashEmbed` (no static vectors) and `SubwordVectors` side by side, mixed
    into `width` dimensions by a maxout layer."""
    hash_embed = MultiHashEmbed(width=width, attrs=attrs, rows=rows,
                                include_static_vectors=False)
    subwords = create_subword_vectors(encoder_dir, subword_dims)
    mix = with_array(Maxout(width, width + subword_dims, nP=3, dropout=0.0, normalize=True))
    return chain(concatenate(hash_embed, subwords), mix)


@registry.architectures(SUBWORD_VECTORS)
def create_subword_vectors(encoder_dir: str, dims: int = 64) -> Model[list[Doc], list[Floats2d]]:
    """Each token's mean subword embedding from the encoder folder `encoder_dir` (read only
    by `initialize`; a loaded pipeline carries the table and the tokenizer itself)."""
    if dims < 1:
        raise ValueError(f"dims must be at least 1, got {dims}")
    return Model(
        "subword_vectors",
        _forward,
        init=_initialize,
        dims={"nO": dims},
        params={"E": None},
        attrs={"encoder_dir": str(encoder_dir), "tokenizer_json": "", "_subwords": None},
    )


def _initialize(model: Model, X: list[Doc] | None = None, Y: object = None) -> None:
    encoder_dir = Path(model.attrs["encoder_dir"])
    tokenizer_file = encoder_dir / "tokenizer.json"
    weights_file = encoder_dir / "model.safetensors"
    for path in (tokenizer_file, weights_file):
        if not path.is_file():
            raise FileNotFoundError(
                f"{path} not found: the subword vectors are read from an encoder folder "
                f"(`spacy project run encoder` writes one)")
    embeddings = read_word_embeddings(weights_file)
    model.set_param("E", project_to_components(embeddings, model.get_dim("nO")))
    model.attrs["tokenizer_json"] = tokenizer_file.read_text(encoding="utf8")
    model.attrs["_subwords"] = None


def read_word_embeddings(weights_file: Path) -> numpy.ndarray:
    """The encoder's input embedding table (pieces × hidden size) from a safetensors file."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        tensors = load_file(str(weights_file))
    except (SafetensorError, OSError, ValueError) as error:
        raise ValueError(f"{weights_file} is not a readable safetensors file: {error}") from None
    names = [name for name in tensors if name.endswith(WORD_EMBEDDINGS)]
    if len(names) != 1:
        raise ValueError(f"{weights_file} holds no single '{WORD_EMBEDDINGS}' tensor")
    return tensors[names[0]].astype("float32")


def project_to_components(embeddings: numpy.ndarray, dims: int) -> numpy.ndarray:
    """`embeddings` centred and projected on their `dims` principal components, each component
    scaled to unit variance and signed so that its largest value is positive (the same
    table whichever signs the eigensolver picks)."""
    if dims > embeddings.shape[1]:
        raise ValueError(f"dims ({dims}) exceeds the embedding width ({embeddings.shape[1]})")
    centred = embeddings.astype("float64") - embeddings.mean(axis=0, dtype="float64")
    covariance = centred.T @ centred / len(centred)
    variances, vectors = numpy.linalg.eigh(covariance)
    order = numpy.argsort(variances)[::-1][:dims]
    projected = centred @ vectors[:, order] / numpy.sqrt(numpy.maximum(variances[order], 1e-12))
    largest = projected[numpy.abs(projected).argmax(axis=0), numpy.arange(dims)]
    projected *= numpy.where(largest < 0, -1.0, 1.0)
    return numpy.ascontiguousarray(projected, dtype="float32")


class SubwordIds:
    """Subword ids of token texts under the encoder's tokenizer, cached by text."""

    def __init__(self, tokenizer_json: str) -> None:
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_str(tokenizer_json)
        self.cache: dict[str, list[int]] = {}

    def __call__(self, texts: list[str]) -> list[list[int]]:
        unseen = list({text for text in texts if text not in self.cache})
        if unseen:
            if len(self.cache) + len(unseen) > CACHE_SIZE:
                self.cache.clear()
            encodings = self.tokenizer.encode_batch(unseen, add_special_tokens=False)
            for text, encoding in zip(unseen, encodings, strict=True):
                self.cache[text] = encoding.ids
        return [self.cache[text] for text in texts]


def _subword_ids(model: Model) -> SubwordIds:
    subwords = model.attrs["_subwords"]
    if subwords is None:
        if not model.attrs["tokenizer_json"]:
            raise ValueError("the subword vectors are not initialised (no tokenizer)")
        subwords = SubwordIds(model.attrs["tokenizer_json"])
        model.attrs["_subwords"] = subwords
    return subwords


def mean_vectors(table: numpy.ndarray, ids: list[list[int]]) -> numpy.ndarray:
    """One row per token: the mean of `table`'s rows for its ids (zeros for a token without
    subwords, such as a line break)."""
    output = numpy.zeros((len(ids), table.shape[1]), dtype="float32")
    lengths = numpy.fromiter((len(token_ids) for token_ids in ids), dtype="int64",
                             count=len(ids))
    present = lengths > 0
    if present.any():
        flat = numpy.fromiter((i for token_ids in ids for i in token_ids), dtype="int64")
        starts = numpy.concatenate(([0], numpy.cumsum(lengths[present])[:-1]))
        sums = numpy.add.reduceat(table[flat], starts, axis=0)
        output[present] = sums / lengths[present, None]
    return output


def _forward(model: Model, docs: list[Doc], is_train: bool) -> tuple[list[Floats2d], Callable]:
    subword_ids = _subword_ids(model)
    table = model.ops.to_numpy(model.get_param("E"))
    outputs = [model.ops.asarray2f(mean_vectors(table, subword_ids([t.text for t in doc])))
               for doc in docs]

    def backprop(d_outputs: list[Floats2d]) -> list[Doc]:
        return []

    return outputs, backprop

