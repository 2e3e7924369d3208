"""Readers of annotated documents: for the rule components and for training.

`deid_name_cues`, `deid_name_forms`, `deid_name_extent` and `deid_id_cues` learn word lists
from gold documents. In a pipeline config they get them from an
`[initialize.components.<name>]` setting `examples`, a reader such as
`spacy_deid.GoldDocs.v1`, so that `spacy assemble` builds a whole pipeline from
`configs/pipeline.cfg`; called directly, they take the usual `get_examples` callback.

`spacy_deid.ReferenceTokens.v1` reads training examples whose predicted document keeps the
tokens of the annotated one. The multilingual transformer NER trains on every language's
documents, each tokenized by its language's tokenizer, which is also the tokenizer of each
`_trf` pipeline; re-tokenizing them with one tokenizer would train on other tokens than the
pipelines see, and align every document to its annotation again at every step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example

GoldReader = Callable[[Language], Iterable[Example]]


@spacy.registry.readers("spacy_deid.GoldDocs.v1")
def create_gold_docs(train: str, dev: str | None = None) -> GoldReader:
    """A reader of the documents in the DocBin files `train` and, where given, `dev`, each
    as an Example of its text and annotations."""
    files = [Path(path) for path in (train, dev) if path]
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise ValueError(f"spacy_deid.GoldDocs.v1: no DocBin file at {', '.join(missing)}")

    def read(nlp: Language) -> Iterator[Example]:
        for path in files:
            for doc in DocBin().from_disk(path).get_docs(nlp.vocab):
                yield Example(nlp.make_doc(doc.text), doc)

    return read


@spacy.registry.readers("spacy_deid.ReferenceTokens.v1")
def create_reference_tokens_corpus(path: Path | None, limit: int = 0) -> GoldReader:
    """The documents of the DocBin file `path` (the first `limit`, 0 for all) as training
    examples whose predicted document has the same tokens as the annotated one."""
    if path is None or not Path(path).is_file():
        raise ValueError(f"spacy_deid.ReferenceTokens.v1: no DocBin file at {path}")

    def read(nlp: Language) -> Iterator[Example]:
        docs = DocBin().from_disk(path).get_docs(nlp.vocab)
        for doc in islice(docs, limit or None):
            predicted = Doc(nlp.vocab, words=[token.text for token in doc],
                            spaces=[bool(token.whitespace_) for token in doc])
            yield Example(predicted, doc)

    return read


def reference_docs(get_examples: Callable[[], Iterable[Example]], nlp: Language | None,
                   examples: GoldReader | None) -> list[Doc]:
    """The gold documents of `examples` (read with `nlp`) where given, else of
    `get_examples()`."""
    if examples is None:
        return [example.reference for example in get_examples()]
    if nlp is None:
        raise ValueError("initialize: the 'examples' setting needs the pipeline (nlp)")
    return [example.reference for example in examples(nlp)]
