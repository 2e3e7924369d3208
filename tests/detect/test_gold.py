"""spacy_deid.ReferenceTokens.v1: training examples that keep the annotated tokens."""

from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_deid.detect.gold import create_reference_tokens_corpus


def write_docbin(path: Path) -> list[Doc]:
    vocab = spacy.blank("de").vocab
    first = Doc(vocab, words=["z.", "B.", "Station", "4B", "heute", "."],
                spaces=[True, True, True, True, False, False])
    first.ents = [first.char_span(first.text.index("4B"), first.text.index("4B") + 2,
                                  label="ID")]
    second = Doc(vocab, words=["Frau", "Anna", "Berger", "kam", "."],
                 spaces=[True, True, True, False, False])
    second.ents = [second.char_span(5, 16, label="NAME_PATIENT")]
    DocBin(docs=[first, second]).to_disk(path)
    return [first, second]


def test_the_predicted_documents_keep_the_annotated_tokens(tmp_path: Path) -> None:
    written = write_docbin(tmp_path / "train.spacy")
    nlp = spacy.blank("de")          # its tokenizer would make "z.B." or "z." "B." otherwise
    examples = list(create_reference_tokens_corpus(tmp_path / "train.spacy")(nlp))
    assert [[t.text for t in eg.predicted] for eg in examples] == \
        [[t.text for t in doc] for doc in written]
    assert [eg.predicted.text for eg in examples] == [doc.text for doc in written]
    assert not examples[0].predicted.ents
    assert [(e.text, e.label_) for e in examples[0].reference.ents] == [("4B", "ID")]
    assert examples[1].get_aligned_ner() == ["O", "B-NAME_PATIENT", "L-NAME_PATIENT", "O", "O"]


def test_limit_reads_the_first_documents(tmp_path: Path) -> None:
    write_docbin(tmp_path / "train.spacy")
    reader = create_reference_tokens_corpus(tmp_path / "train.spacy", limit=1)
    assert len(list(reader(spacy.blank("de")))) == 1


@pytest.mark.parametrize("path", [None, "missing.spacy"])
def test_a_missing_file_is_a_clear_error(tmp_path: Path, path) -> None:
    with pytest.raises(ValueError, match="no DocBin file"):
        create_reference_tokens_corpus(None if path is None else tmp_path / path)
