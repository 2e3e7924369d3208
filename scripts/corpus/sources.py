"""The corpus's document sources and genres, as the workflow steps record and read them.

`convert` writes `source` (and, for the multi-genre corpus, `genre`) into every Doc's
`user_data`; `split`, `evaluate` and `leakage` read them back to split by genre and to
score each source on its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from spacy.tokens import Doc

LETTERS = "letters"
SYNTHETIC = "synthetic"
SOURCES = (LETTERS, SYNTHETIC)
SYNTHETIC_FOLDER = "synthetic_clinical"


def source_of(doc: Doc) -> str:
    """The source a converted document comes from (letters when it was not recorded)."""
    return str(doc.user_data.get("source", LETTERS))


def genre_of(doc: Doc) -> str:
    """A document's genre: the multi-genre corpus's file-name prefix, `letter` for letters."""
    return str(doc.user_data.get("genre", "letter"))


def genre_from_path(path: Path) -> str:
    """`nursing_2.txt` -> `nursing`: the multi-genre corpus names files `<genre>_<n>.txt`."""
    stem = path.name.split(".", 1)[0]
    genre, _, number = stem.rpartition("_")
    if not genre or not number.isdigit():
        raise ValueError(f"{path.name}: expected a file name <genre>_<n>.txt")
    return genre


def synthetic_doc_id(lang: str, path: Path) -> str:
    """The multi-genre documents are written per language, not translations of each other,
    so their names carry the language (unlike a letter's, shared by its translations)."""
    return f"{SYNTHETIC_FOLDER}/{lang}/{path.name.split('.', 1)[0]}"


def group_documents(docs: Iterable[Doc], key: Callable[[Doc], str]) -> dict[str, list[Doc]]:
    """Documents grouped by `key`, each group in the documents' order."""
    groups: dict[str, list[Doc]] = defaultdict(list)
    for doc in docs:
        groups[key(doc)].append(doc)
    return groups


def by_source(docs: Iterable[Doc]) -> dict[str, list[Doc]]:
    """Documents grouped by source, in the order of `SOURCES` (sources without documents
    left out)."""
    groups = group_documents(docs, source_of)
    return {source: groups[source] for source in SOURCES if groups.get(source)}


def by_genre(docs: Iterable[Doc]) -> dict[str, list[Doc]]:
    """Documents grouped by genre, genres sorted."""
    return dict(sorted(group_documents(docs, genre_of).items()))


def primary_source(groups: Mapping[str, object]) -> str:
    """The source a report leads with: the letters (as the published numbers are), else the
    first source present."""
    return LETTERS if LETTERS in groups else next(iter(groups), LETTERS)
