from collections import Counter

import pytest
import spacy
import srsly
import typer
from spacy.tokens import DocBin, Span

from scripts.corpus.split import (
    assign_by_genre,
    assign_documents,
    assign_folds,
    cut_genre,
    load_docs,
    main,
    split_sentences,
)

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


GENRES = {"nursing": 2, "phone": 3, "report": 5}


def make_doc(nlp, name, lang, **user_data):
    doc = nlp(f"Brief {name}. Patient Max kam am 1.1.2020.\nGruss")
    doc.ents = [doc.char_span(doc.text.index("Max"), doc.text.index("Max") + 3,
                              label="NAME_PATIENT")]
    for token in doc:
        token.is_sent_start = token.i == 0
    doc.user_data.update({"doc_id": name, "lang": lang, **user_data})
    return doc


def genre_docs(nlp, lang):
    return [make_doc(nlp, f"synthetic_clinical/{lang}/{genre}_{i}", lang, source="synthetic",
                     genre=genre)
            for genre, count in GENRES.items() for i in range(1, count + 1)]


def make_docbins(folder, with_genres=False):
    nlp = spacy.blank("xx")
    folder.mkdir()
    for lang, names in {"de": ["a", "b", "c", "d", "e", "f", "g"],
                        "en": ["a", "b", "c", "d", "e"]}.items():
        docs = [make_doc(nlp, name, lang, source="letters") for name in names]
        docs += genre_docs(nlp, lang) if with_genres else []
        DocBin(docs=docs, store_user_data=True).to_disk(folder / f"{lang}.spacy")


def test_every_genre_is_tested_and_trained_on_and_dev_has_one_from_three_documents():
    assert [len(part) for part in cut_genre(list("ab"), (0.7, 0.1, 0.2)).values()] == [1, 0, 1]
    assert [len(part) for part in cut_genre(list("abc"), (0.7, 0.1, 0.2)).values()] == [1, 1, 1]
    assert [len(part) for part in cut_genre(list("a"), (0.7, 0.1, 0.2)).values()] == [0, 0, 1]
    tests = cut_genre(list("abcdefghij"), (0.7, 0.1, 0.2))
    assert [len(part) for part in tests.values()] == [2, 1, 7]
    docs = genre_docs(spacy.blank("xx"), "de")
    assignment = assign_by_genre(docs, (0.7, 0.1, 0.2), seed=0)
    assert assignment == assign_by_genre(list(reversed(docs)), (0.7, 0.1, 0.2), seed=0)
    for genre in GENRES:
        splits = {split for name, split in assignment.items() if f"/{genre}_" in name}
        assert {"train", "test"} <= splits
        assert ("dev" in splits) == (GENRES[genre] >= 3)


def test_multi_genre_documents_do_not_move_the_letters(tmp_path):
    make_docbins(tmp_path / "letters")
    make_docbins(tmp_path / "both", with_genres=True)
    for name in ("letters", "both"):
        main(tmp_path / name, tmp_path / f"splits_{name}", mode="document",
             ratios="0.6,0.2,0.2", n_folds=5, fold=0, seed=0)
    letters = srsly.read_json(tmp_path / "splits_letters" / "assignment.json")
    both = srsly.read_json(tmp_path / "splits_both" / "assignment.json")
    assert {name: both[name] for name in letters} == letters
    assert len(both) == len(letters) + 2 * sum(GENRES.values())
    main(tmp_path / "both", tmp_path / "sentences", mode="sentence", ratios="0.7,0.1,0.2",
         n_folds=5, fold=0, seed=0)
    sentences = [doc for split in ("train", "dev", "test")
                 for doc in load_docs(tmp_path / "sentences" / "de" / f"{split}.spacy")]
    assert {doc.user_data["source"] for doc in sentences} == {"letters"}


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
