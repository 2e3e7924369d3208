"""`deid_entity_tagger`: named entities from one tag per token (O, B-label, I-label).

spaCy's `ner` builds entities one transition at a time. Over a transformer on a GPU each
transition is a few small kernels and a copy back to the CPU, and the transitions, not the
encoder, bound the speed of a training step. This component classifies every token at once
with one softmax layer over the same token vectors (spaCy's `Tagger`, whose `tok2vec` may
be a `TransformerListener`) and turns the tags into `doc.ents`: the token classification
with which the encoder was fine-tuned for PHI. Training reads the entities of the reference
documents, so the corpus needs no tags.

Entities already on the document stay; a predicted entity that overlaps one is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from typing import Any

import numpy as np
from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, IS_SPACE, LENGTH
from spacy.language import Language
from spacy.pipeline.tagger import DEFAULT_TAGGER_MODEL, Tagger
from spacy.tokens import Doc, Span
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.training.iob_utils import biluo_tags_to_spans, biluo_to_iob, iob_to_biluo
from thinc.api import Model, SequenceCategoricalCrossentropy

from spacy_deid.detect.entities import add_entities, entity_tokens

OUTSIDE = "O"
BEGIN = "B-"
INSIDE = "I-"
# Token.ent_iob values: 0 no annotation, 1 inside, 2 outside, 3 begin.
IOB_INSIDE, IOB_OUTSIDE, IOB_BEGIN = 1, 2, 3


def entity_tags(labels: Iterable[str]) -> list[str]:
    """The tag set of the entity labels: `O`, then `B-<label>` and `I-<label>` of each."""
    return [OUTSIDE, *(f"{prefix}{label}" for label in sorted(set(labels))
                       for prefix in (BEGIN, INSIDE))]


def tags_from_biluo(biluo: Sequence[str | None]) -> list[str | None]:
    """BILUO tags (as `Example.get_aligned_ner` gives them) as O/B/I tags; a token without
    annotation or not aligned (None, "" or "-") gets None."""
    return [None if tag in (None, "", "-") else tag for tag in biluo_to_iob(biluo)]


def same_tokens(predicted: Doc, reference: Doc) -> bool:
    """Whether both documents have the same tokens (start and length of each)."""
    return len(predicted) == len(reference) and np.array_equal(
        predicted.to_array([IDX, LENGTH]), reference.to_array([IDX, LENGTH]))


def reference_tags(example: Example) -> list[str | None]:
    """The O/B/I tag of every predicted token from the reference entities: read straight off
    the reference where both tokenizations agree (always, with the reader
    `spacy_deid.ReferenceTokens.v1`), else through the alignment (`Example.get_aligned_ner`,
    some twenty times slower)."""
    predicted, reference = example.predicted, example.reference
    if not same_tokens(predicted, reference):
        return tags_from_biluo(example.get_aligned_ner())
    if not reference.has_annotation("ENT_IOB"):
        return [None] * len(reference)
    strings = reference.vocab.strings
    tags: list[str | None] = []
    for iob, label, is_space in reference.to_array([ENT_IOB, ENT_TYPE, IS_SPACE]).tolist():
        if iob == IOB_BEGIN:
            tags.append(BEGIN + strings[label])
        elif iob == IOB_INSIDE:
            tags.append(INSIDE + strings[label])
        elif iob == IOB_OUTSIDE or is_space:
            tags.append(OUTSIDE)
        else:
            tags.append(None)
    return tags


def spans_from_tags(doc: Doc, tags: Sequence[str]) -> list[Span]:
    """The entities that O/B/I tags describe. An `I-` tag that does not continue an entity
    of its label starts one (as spaCy's `iob_to_biluo` reads it), so every sequence decodes."""
    return biluo_tags_to_spans(doc, iob_to_biluo(tags))


def allowed_transitions(tags: Sequence[str]) -> np.ndarray:
    """`allowed[i, j]`: whether tag j may follow tag i (an `I-` tag only continues its
    label's `B-` or `I-`)."""
    allowed = np.ones((len(tags), len(tags)), dtype=bool)
    for j, tag in enumerate(tags):
        if tag.startswith(INSIDE):
            allowed[:, j] = [previous[2:] == tag[2:] and previous != OUTSIDE for previous in tags]
    return allowed


def best_tags(scores: np.ndarray, tags: Sequence[str], allowed: np.ndarray) -> list[str]:
    """The most probable tag sequence in which every `I-` tag continues an entity of its
    label (Viterbi over the per-token log-probabilities of `scores`)."""
    if len(scores) == 0:
        return []
    shifted = scores - scores.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    impossible = np.where(allowed, 0.0, -np.inf)
    starts = np.array([not tag.startswith(INSIDE) for tag in tags])
    best = np.where(starts, log_probs[0], -np.inf)
    back = np.zeros((len(scores), len(tags)), dtype=np.int64)
    for i in range(1, len(scores)):
        candidates = best[:, None] + impossible
        back[i] = candidates.argmax(axis=0)
        best = candidates.max(axis=0) + log_probs[i]
    path = [int(best.argmax())]
    for i in range(len(scores) - 1, 0, -1):
        path.append(int(back[i, path[-1]]))
    return [tags[j] for j in reversed(path)]


class EntityTagger(Tagger):
    """spaCy's `Tagger` over entity tags: trained from reference entities, writes `doc.ents`."""

    @property
    def entity_labels(self) -> tuple[str, ...]:
        """The entity labels (the tags without their O/B/I prefixes)."""
        return tuple(sorted({tag[2:] for tag in self.labels if tag != OUTSIDE}))

    def initialize(self, get_examples: Callable[[], Iterable[Example]], *,
                   nlp: Language | None = None, labels: Iterable[str] | None = None) -> None:
        """Take the entity labels from `labels` or from the reference entities of the
        examples, and initialise the model on a sample of them."""
        validate_get_examples(get_examples, "EntityTagger.initialize")
        if labels is None:
            labels = {ent.label_ for example in get_examples() for ent in example.reference.ents}
        for tag in entity_tags(labels):
            self.add_label(tag)
        self._require_labels()
        docs, truths = [], []
        for example in islice(get_examples(), 10):
            docs.append(example.predicted)
            gold = reference_tags(example)
            truths.append(self.model.ops.asarray(
                [[1.0 if tag == label else 0.0 for label in self.labels] for tag in gold],
                dtype="float32"))
        if not docs:
            raise ValueError(f"{self.name}: initialize needs at least one example")
        self.model.initialize(X=docs, Y=truths)

    def get_loss(self, examples: Iterable[Example], scores) -> tuple[float, Any]:
        """Cross-entropy against the O/B/I tags of the reference entities; tokens without
        annotation do not count."""
        validate_examples(examples, "EntityTagger.get_loss")
        loss_function = SequenceCategoricalCrossentropy(
            names=self.labels, normalize=False, label_smoothing=self.cfg["label_smoothing"])
        truths = [reference_tags(example) for example in examples]
        d_scores, loss = loss_function(scores, truths)
        if self.model.ops.xp.isnan(loss):
            raise ValueError(f"{self.name}: the loss is NaN")
        return float(loss), d_scores

    def predict(self, docs: Iterable[Doc]) -> list[np.ndarray]:
        """The tag scores of every token, on the CPU."""
        docs = list(docs)
        if not any(len(doc) for doc in docs):
            return [np.zeros((len(doc), len(self.labels)), dtype="f") for doc in docs]
        return [self.model.ops.to_numpy(scores) for scores in self.model.predict(docs)]

    def set_annotations(self, docs: Iterable[Doc], batch_scores: Sequence[np.ndarray]) -> None:
        """Decode each document's tag scores into entities."""
        tags = self.labels
        allowed = allowed_transitions(tags)
        for doc, scores in zip(docs, batch_scores, strict=True):
            predicted = spans_from_tags(doc, best_tags(scores, tags, allowed))
            taken = entity_tokens(doc)
            add_entities(doc, [span for span in predicted
                               if not taken.intersection(range(span.start, span.end))])


@Language.factory(
    "deid_entity_tagger", assigns=["doc.ents", "token.ent_iob", "token.ent_type"],
    default_config={"model": DEFAULT_TAGGER_MODEL, "label_smoothing": 0.0,
                    "scorer": {"@scorers": "spacy.ner_scorer.v1"}},
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None})
def make_entity_tagger(nlp: Language, name: str, model: Model, label_smoothing: float,
                       scorer: Callable | None) -> EntityTagger:
    """Factory of `deid_entity_tagger`: `model` maps documents to one score per tag and
    token (e.g. `spacy.Tagger.v2` over a `TransformerListener`)."""
    return EntityTagger(nlp.vocab, model, name, overwrite=False, scorer=scorer,
                        label_smoothing=label_smoothing)
