"""Small annotated documents made on the fly, for component tests."""

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example


def blank(lang: str = "de") -> Language:
    """A blank pipeline with the project's tokenizer for `lang`."""
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})


def annotated(nlp: Language, text: str, entities) -> Doc:
    """A Doc with the given (substring, label) entities, found left to right."""
    doc = nlp.make_doc(text)
    spans, position = [], 0
    for substring, label in entities:
        start = text.index(substring, position)
        position = start + len(substring)
        spans.append(doc.char_span(start, position, label=label))
    doc.ents = spans
    return doc


def initialized(factory: str, lang: str, training, config: dict) -> Language:
    """A blank pipeline with the component `factory`, initialized on `training`, a list of
    (text, [(substring, label), ...]) documents."""
    nlp = blank(lang)
    component = nlp.add_pipe(factory, config=config)
    examples = [Example(nlp.make_doc(text), annotated(nlp, text, entities))
                for text, entities in training]
    component.initialize(lambda: examples, nlp=nlp)
    return nlp
