"""`spacy_deid.SurrogateAugmenter.v1`: training copies of annotated documents with new PHI.

A model trained on few documents learns the names and codes it saw rather than where PHI
stands. This augmenter gives the NER, besides each training example, a copy in which every
gold span is replaced by a surrogate of its label from the anonymizer's generator (names
and places of the document's language, dates in the same format, codes of the same shape;
a span the generator would mask, such as an age in words, stays as written), so that
every epoch shows other surface forms in the same contexts. With `lower_level`, the copy
writes person names in lower case, as hurried notes and messages do. With
`source_copies`, the documents of a source that is a small share of the training data (the
multi-genre documents beside the letters) get that many copies each, so that their genres
weigh more without being repeated word for word.

It is a spaCy augmenter (`[corpora.train.augmenter]`), seeded, so that a training run is
reproducible. The language of a document is `doc.user_data["lang"]` (set by the corpus
conversion) or else the tokenizer's; a copy whose spans the tokenizer cannot align to
tokens is skipped, never an annotation lost.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from spacy_deid.anonymize.surrogates import SurrogateGenerator
from spacy_deid.anonymize.surrogates.shapes import mask
from spacy_deid.lang import LANGUAGES
from spacy_deid.schema import PERSON_LABELS

Augmenter = Callable[[Language, Example], Iterator[Example]]


@registry.augmenters("spacy_deid.SurrogateAugmenter.v1")
def create_surrogate_augmenter(level: float = 0.5, lower_level: float = 0.1, seed: int = 0,
                               source_copies: dict[str, int] | None = None) -> Augmenter:
    """Yield every example and, for a share `level` of them, a copy with surrogate PHI; in a
    share `lower_level` of the copies the person names are lower-cased. A document whose
    source (`doc.user_data["source"]`) is in `source_copies` gets that many copies instead."""
    for name, value in (("level", level), ("lower_level", lower_level)):
        if not 0 <= value <= 1:
            raise ValueError(f"SurrogateAugmenter: {name} must be in [0, 1], not {value}")
    source_copies = dict(source_copies or {})
    for source, copies in source_copies.items():
        if not isinstance(copies, int) or copies < 0:
            raise ValueError(f"SurrogateAugmenter: copies of source {source!r} must be a "
                             f"whole number ≥ 0, not {copies!r}")
    rng = random.Random(seed)
    generators: dict[str, SurrogateGenerator] = {}

    def generator_for(lang: str) -> SurrogateGenerator:
        if lang not in generators:
            # a copy is text to learn from: a weekday in a date stays a weekday
            generators[lang] = SurrogateGenerator(lang, seed=seed, hide_date_words=False)
        return generators[lang]

    def number_of_copies(doc: Doc) -> int:
        source = doc.user_data.get("source")
        if source in source_copies:
            return source_copies[source]
        return int(rng.random() < level)

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        yield example
        copies = number_of_copies(example.reference)
        lang = document_language(nlp, example.reference)
        if not copies or lang is None or not example.reference.ents:
            return
        for _ in range(copies):
            lower_names = rng.random() < lower_level
            copy = surrogate_copy(nlp, example.reference, generator_for(lang), lower_names)
            if copy is not None:
                yield copy

    return augment


def document_language(nlp: Language, doc: Doc) -> str | None:
    """The document's language: the one the corpus conversion recorded, else the
    tokenizer's; None where neither is one of ours."""
    lang = doc.user_data.get("lang") or getattr(nlp.tokenizer, "lang", None)
    return lang if lang in LANGUAGES else None


def surrogate_copy(nlp: Language, reference: Doc, generator: SurrogateGenerator,
                   lower_names: bool) -> Example | None:
    """An example whose text is `reference`'s with every entity replaced by a surrogate of
    its label; None where a new span does not fall on token boundaries."""
    session = generator.new_document()
    # `Doc.text` joins every token's text on each access: read it once
    original = reference.text
    pieces: list[str] = []
    spans: list[tuple[int, int, str]] = []
    position = 0
    length = 0
    for ent in reference.ents:
        before = original[position:ent.start_char]
        context = original[max(0, ent.start_char - 60):ent.end_char + 60]
        new = session.surrogate(ent.text, ent.label_, context) or ent.text
        if new == mask(ent.text):
            # a span the generator can only mask (an age in words) is no training text
            new = ent.text
        if lower_names and ent.label_ in PERSON_LABELS:
            new = new.lower()
        pieces += [before, new]
        length += len(before)
        spans.append((length, length + len(new), ent.label_))
        length += len(new)
        position = ent.end_char
    pieces.append(original[position:])
    text = "".join(pieces)
    predicted = nlp.make_doc(text)
    gold = nlp.make_doc(text)
    ents = [gold.char_span(start, end, label=label) for start, end, label in spans]
    if any(span is None for span in ents):
        return None
    gold.ents = ents
    return Example(predicted, gold)
