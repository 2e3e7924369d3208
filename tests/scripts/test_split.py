from collections import Counter

import pytest
import spacy
import typer
from spacy.tokens import DocBin, Span

from scripts.split import assign_documents, assign_folds, load_docs, main, split_sentences

DOCS = {"de": [f"d{i}" for i in range(63)], "en": [f"d{i}" for i in range(50)],
        "pl": [f"d{i}" for i in range(50)]}


def test_document_split_is_seeded_and_exhaustive():
    first = assign_documents(DOCS, (0.7, 0.1, 0.2), seed=1)
    assert first == assign_documents(DOCS, (0.7, 0.1, 0.2), seed=1)
    assert first != assign_documents(DOCS, (0.7, 0.1, 0.2), seed=2)
    assert set(first) == set(DOCS["de"])
    assert set(first.values()) == {"train", "dev", "test"}


def test_each_language_gets_its_share_of_test_documents():
    assignment = assign_documents(DOCS, (0.7, 0.1, 0.2), seed=0)
    for lang, names in DOCS.items():
        test = sum(assignment[name] == "test" for name in names)
        assert abs(test - 0.2 * len(names)) <= 1.5, lang


def test_folds_partition_documents():
    tests = Counter()
    for fold in range(5):
        assignment = assign_folds(DOCS, 5, fold, seed=0)
        tests.update(name for name, split in assignment.items() if split == "test")
        dev = {name for name, split in assignment.items() if split == "dev"}
        assert dev and not dev & {n for n, s in assignment.items() if s == "test"}
    # every document is a test document exactly once
    assert set(tests.values()) == {1} and set(tests) == set(DOCS["de"])


def test_bad_fold_is_refused():
    with pytest.raises(typer.BadParameter, match="--fold must be in 0..4"):
        assign_folds(DOCS, 5, 5, seed=0)


def make_docbins(folder):
    nlp = spacy.blank("xx")
    folder.mkdir()
    for lang, names in {"de": ["a", "b", "c", "d", "e", "f", "g"],
                        "en": ["a", "b", "c", "d", "e"]}.items():
        docs = []
        for name in names:
            doc = nlp(f"Brief {name}. Patient Max kam am 1.1.2020.\nGruss")
            doc.ents = [doc.char_span(doc.text.index("Max"), doc.text.index("Max") + 3,
                                      label="NAME_PATIENT")]
            doc.user_data.update({"doc_id": name, "lang": lang})
            docs.append(doc)
        DocBin(docs=docs, store_user_data=True).to_disk(folder / f"{lang}.spacy")


def test_same_document_same_split_in_every_language(tmp_path):
    make_docbins(tmp_path / "docbin")
    main(tmp_path / "docbin", tmp_path / "splits", mode="document", ratios="0.6,0.2,0.2",
         n_folds=5, fold=0, seed=0)
    where = {}
    for lang in ("de", "en"):
        for split in ("train", "dev", "test"):
            for doc in load_docs(tmp_path / "splits" / lang / f"{split}.spacy"):
                where.setdefault(doc.user_data["doc_id"], set()).add(split)
    assert all(len(splits) == 1 for splits in where.values())
    union = sum(len(load_docs(tmp_path / "splits" / "xx" / f"{s}.spacy"))
                for s in ("train", "dev", "test"))
    assert union == 12


def test_sentence_split_keeps_entities_and_ratios():
    nlp = spacy.blank("xx")
    nlp.add_pipe("sentencizer")
    doc = nlp(" ".join(f"Satz {i} mit Max." for i in range(40)))
    doc.ents = [Span(doc, token.i, token.i + 1, label="NAME_PATIENT")
                for token in doc if token.text == "Max"][:20]
    splits = split_sentences([doc], seed=0)
    sizes = {split: len(docs) for split, docs in splits.items()}
    assert sizes == {"train": 26, "dev": 6, "test": 8}
    assert sum(len(d.ents) for docs in splits.values() for d in docs) == 20
