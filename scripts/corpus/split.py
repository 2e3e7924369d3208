"""Split the converted corpus into train / dev / test DocBins for every language.

Modes (for the letters):
- `document` (default): seeded split over documents; a letter lands in the same split in
  every language, so multilingual training never sees a test letter in another language.
- `kfold`: k folds over documents (fold `fold` is test, the next fold is dev, the rest train),
  for document-level cross-validation as published for GraSCCo_PHI.
- `sentence`: the MultiGraSCCo paper's sentence-level split (65/15/20) of the letters alone,
  stratified by the rarest label in each sentence, for comparison with the published numbers.

The multi-genre documents are split by document within each language and genre (seeded, the
same in every mode but `sentence`, which leaves them out): every genre has a test document
and a training document, and a dev document where it has three or more.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

import spacy
import srsly
import typer
from spacy.tokens import Doc, DocBin

from scripts.corpus.sources import LETTERS, by_genre, source_of

SPLITS = ("train", "dev", "test")
SENTENCE_RATIOS = (0.65, 0.15, 0.20)


def load_docs(path: Path) -> list[Doc]:
    """Read a DocBin with its user data."""
    return list(DocBin().from_disk(path).get_docs(spacy.blank("xx").vocab))


def cut(items: list, ratios: tuple[float, float, float]) -> dict[str, list]:
    """Cut an ordered list into train/dev/test by ratios (test and dev rounded, rest train)."""
    n_test = round(len(items) * ratios[2])
    n_dev = round(len(items) * ratios[1])
    return {"test": items[:n_test], "dev": items[n_test : n_test + n_dev],
            "train": items[n_test + n_dev :]}


def group_by_languages(doc_ids_by_lang: dict[str, list[str]]) -> dict[tuple[str, ...], list[str]]:
    """Group document names by the set of languages that hold them (stable order)."""
    langs_by_doc: dict[str, list[str]] = defaultdict(list)
    for lang, doc_ids in sorted(doc_ids_by_lang.items()):
        for doc_id in doc_ids:
            langs_by_doc[doc_id].append(lang)
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for doc_id in sorted(langs_by_doc):
        groups[tuple(langs_by_doc[doc_id])].append(doc_id)
    return groups


def assign_documents(doc_ids_by_lang: dict[str, list[str]], ratios: tuple[float, float, float],
                     seed: int) -> dict[str, str]:
    """Document name -> split, the same in every language and balanced within each language."""
    assignment: dict[str, str] = {}
    for _, doc_ids in sorted(group_by_languages(doc_ids_by_lang).items()):
        shuffled = list(doc_ids)
        random.Random(seed).shuffle(shuffled)
        for split, members in cut(shuffled, ratios).items():
            assignment.update(dict.fromkeys(members, split))
    return assignment


def cut_genre(docs: list[Doc], ratios: tuple[float, float, float]) -> dict[str, list[Doc]]:
    """Cut one genre's shuffled documents: test and dev get their rounded shares, but test at
    least one, dev at least one from three documents on, and train always at least one."""
    n_docs = len(docs)
    n_test = min(max(1, round(n_docs * ratios[2])), n_docs - 1) if n_docs > 1 else 0
    n_dev = max(1 if n_docs >= 3 else 0, round(n_docs * ratios[1]))
    n_dev = min(n_dev, n_docs - n_test - 1) if n_docs > 1 else 0
    return {"test": docs[:n_test], "dev": docs[n_test:n_test + n_dev],
            "train": docs[n_test + n_dev:]}


def assign_by_genre(docs: list[Doc], ratios: tuple[float, float, float],
                    seed: int) -> dict[str, str]:
    """Document name -> split for documents that exist in one language only, stratified
    by genre so that every genre is tested and trained on."""
    assignment: dict[str, str] = {}
    for genre, members in by_genre(docs).items():
        shuffled = sorted(members, key=lambda doc: doc.user_data["doc_id"])
        random.Random(f"{seed}-{genre}").shuffle(shuffled)
        for split, part in cut_genre(shuffled, ratios).items():
            assignment.update(dict.fromkeys((doc.user_data["doc_id"] for doc in part), split))
    return assignment


def check_fold(n_folds: int, fold: int) -> None:
    """Refuse a test fold outside 0..n_folds - 1."""
    if not 0 <= fold < n_folds:
        raise typer.BadParameter(f"--fold must be in 0..{n_folds - 1}, not {fold}")


def assign_folds(doc_ids_by_lang: dict[str, list[str]], n_folds: int, fold: int,
                 seed: int) -> dict[str, str]:
    """Document name -> split for one fold of k-fold cross-validation over documents."""
    check_fold(n_folds, fold)
    assignment: dict[str, str] = {}
    for _, doc_ids in sorted(group_by_languages(doc_ids_by_lang).items()):
        shuffled = list(doc_ids)
        random.Random(seed).shuffle(shuffled)
        for position, doc_id in enumerate(shuffled):
            doc_fold = position % n_folds
            assignment[doc_id] = ("test" if doc_fold == fold
                                  else "dev" if doc_fold == (fold + 1) % n_folds else "train")
    return assignment


def sentence_docs(doc: Doc) -> list[Doc]:
    """The non-empty sentences of a document as Docs of their own, entities kept."""
    sentences = []
    for index, sent in enumerate(doc.sents):
        if sent.text.strip():
            sentence = sent.as_doc()
            sentence.user_data.update(doc.user_data)
            sentence.user_data["sentence"] = index
            sentences.append(sentence)
    return sentences


def rarest_label(doc: Doc, frequency: Counter) -> str:
    """The stratum of a sentence: its rarest entity label, or NONE."""
    labels = [ent.label_ for ent in doc.ents]
    return min(labels, key=lambda label: (frequency[label], label)) if labels else "NONE"


def split_sentences(docs: list[Doc], seed: int) -> dict[str, list[Doc]]:
    """The paper's stratified 65/15/20 sentence-level split of one language."""
    sentences = [sentence for doc in docs for sentence in sentence_docs(doc)]
    frequency = Counter(ent.label_ for sentence in sentences for ent in sentence.ents)
    strata: dict[str, list[Doc]] = defaultdict(list)
    for sentence in sentences:
        strata[rarest_label(sentence, frequency)].append(sentence)
    splits: dict[str, list[Doc]] = {split: [] for split in SPLITS}
    for stratum in sorted(strata):
        members = strata[stratum]
        random.Random(f"{seed}-{stratum}").shuffle(members)
        for split, part in cut(members, SENTENCE_RATIOS).items():
            splits[split].extend(part)
    return splits


def parse_ratios(ratios: str) -> tuple[float, float, float]:
    """"0.7,0.1,0.2" -> (0.7, 0.1, 0.2), checked to sum to one."""
    values = tuple(float(value) for value in ratios.split(","))
    if len(values) != 3 or abs(sum(values) - 1) > 1e-6 or min(values) < 0:
        raise typer.BadParameter(
            f"--ratios needs three non-negative numbers summing to 1: {ratios}")
    return values  # type: ignore[return-value]


def main(
    docbin_dir: Path = typer.Argument(..., help="Folder with <lang>.spacy from the convert step"),
    output_dir: Path = typer.Argument(..., help="Where to write <lang>/{train,dev,test}.spacy"),
    mode: str = typer.Option("document", help="document, kfold or sentence"),
    ratios: str = typer.Option("0.7,0.1,0.2", help="train,dev,test shares (document mode)"),
    n_folds: int = typer.Option(5, help="Number of folds (kfold mode)"),
    fold: int = typer.Option(0, help="Which fold is the test fold (kfold mode)"),
    seed: int = typer.Option(0, help="Random seed"),
) -> None:
    """Write train/dev/test DocBins per language, plus the multilingual union under `xx/`."""
    docs_by_lang = {path.stem: load_docs(path) for path in sorted(docbin_dir.glob("*.spacy"))}
    if not docs_by_lang:
        raise typer.BadParameter(f"no <lang>.spacy files in {docbin_dir}; run the convert step")
    if mode == "sentence":
        docs_by_lang = {lang: [doc for doc in docs if source_of(doc) == LETTERS]
                        for lang, docs in docs_by_lang.items()}
    letter_ids = {lang: [doc.user_data["doc_id"] for doc in docs if source_of(doc) == LETTERS]
                  for lang, docs in docs_by_lang.items()}
    split_ratios = parse_ratios(ratios)
    if mode == "document":
        assignment = assign_documents(letter_ids, split_ratios, seed)
    elif mode == "kfold":
        assignment = assign_folds(letter_ids, n_folds, fold, seed)
    elif mode != "sentence":
        raise typer.BadParameter(f"--mode must be document, kfold or sentence, not {mode!r}")
    if mode != "sentence":
        for docs in docs_by_lang.values():
            assignment.update(assign_by_genre(
                [doc for doc in docs if source_of(doc) != LETTERS], split_ratios, seed))
    union: dict[str, list[Doc]] = {split: [] for split in SPLITS}
    for lang, docs in docs_by_lang.items():
        if mode == "sentence":
            splits = split_sentences(docs, seed)
        else:
            splits = {split: [doc for doc in docs if assignment[doc.user_data["doc_id"]] == split]
                      for split in SPLITS}
        (output_dir / lang).mkdir(parents=True, exist_ok=True)
        for split, members in splits.items():
            DocBin(docs=members, store_user_data=True).to_disk(output_dir / lang / f"{split}.spacy")
            union[split].extend(members)
        typer.echo(f"{lang:4} " + "  ".join(f"{split} {len(splits[split]):4}" for split in SPLITS))
    (output_dir / "xx").mkdir(parents=True, exist_ok=True)
    for split, members in union.items():
        DocBin(docs=members, store_user_data=True).to_disk(output_dir / "xx" / f"{split}.spacy")
    if mode != "sentence":
        srsly.write_json(output_dir / "assignment.json", dict(sorted(assignment.items())))


if __name__ == "__main__":
    typer.run(main)
