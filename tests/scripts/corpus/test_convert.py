from pathlib import Path

import pytest
import typer

from scripts.corpus.convert import convert_language, main, parse_sources, report_line
from scripts.corpus.sources import LETTERS, SYNTHETIC, genre_of, source_of
from spacy_deid.translate.inline_tags import InlineTagError

CORPUS = Path(__file__).parents[3] / "corpus"


@pytest.mark.parametrize("lang", ["de", "tr", "ar"])
def test_no_gold_span_of_a_letter_is_lost(lang):
    docs, report = convert_language(CORPUS, lang, sources=(LETTERS,))
    assert report.lost == 0
    assert report.kept + report.adjusted == report.spans_in
    assert sum(len(doc.ents) for doc in docs) == report.spans_in
    # adjusted: ages written inside a compound word ("Fünfigjährige"), one Arabic ward code
    assert report.adjusted <= 8
    assert set(report.adjusted_labels) <= {"AGE", "ID"}
    assert all(doc.user_data["lang"] == lang and doc.user_data["doc_id"] for doc in docs)


@pytest.mark.parametrize("lang", ["de", "pl", "fa"])
def test_multi_genre_documents_keep_every_span_and_record_source_and_genre(lang):
    docs, report = convert_language(CORPUS, lang, sources=(SYNTHETIC,))
    assert docs and report.lost == 0
    assert sum(len(doc.ents) for doc in docs) == report.spans_in
    assert {source_of(doc) for doc in docs} == {SYNTHETIC}
    assert {"nursing", "phone", "admin"} <= {genre_of(doc) for doc in docs}
    # the documents are not translations of each other: their names carry the language
    assert all(doc.user_data["doc_id"].startswith(f"synthetic_clinical/{lang}/") for doc in docs)


def test_both_sources_by_default_and_unknown_sources_refused():
    docs, _ = convert_language(CORPUS, "uk")
    assert {source_of(doc) for doc in docs} == {LETTERS, SYNTHETIC}
    assert parse_sources("letters") == (LETTERS,)
    with pytest.raises(typer.BadParameter, match="--sources"):
        parse_sources("letters,emails")


def test_german_entities_never_cross_sentences():
    docs, _ = convert_language(CORPUS, "de", sources=(LETTERS,))
    for doc in docs:
        for ent in doc.ents:
            assert ent.sent == doc[ent.start].sent == doc[ent.end - 1].sent


def test_report_line_counts():
    docs, report = convert_language(CORPUS, "de", cas_format="xmi", sources=(LETTERS,))
    line = report_line("de", docs, report)
    assert "docs  63" in line and "gold spans in  1439" in line and "lost  0" in line


def test_malformed_replica_file_fails_with_file_and_position(tmp_path):
    folder = tmp_path / "multigrascco_replica" / "en"
    folder.mkdir(parents=True)
    (folder / "Bad.txt").write_text("Patient <NAME_PATIENT>Ann Lee", encoding="utf-8")
    with pytest.raises(InlineTagError, match=r"Bad\.txt:1:9 .* never closed"):
        main(tmp_path, tmp_path / "out", langs="en", cas_format="json")


def test_llm_translations_flow_into_conversion(tmp_path):
    # the `translate` step writes corpus/translated/<lang>/<doc_id>.txt; convert reads it
    folder = tmp_path / "translated" / "es"
    folder.mkdir(parents=True)
    (folder / "Albrecht.txt").write_text(
        "Paciente <NAME_PATIENT>Lucía Romero</NAME_PATIENT>, ingreso el <DATE>3.4.2029</DATE>.",
        encoding="utf-8")
    docs, report = convert_language(tmp_path, "es")
    assert report.lost == 0 and report.kept == 2
    assert docs[0].user_data == {"doc_id": "Albrecht", "lang": "es", "source": "letters"}
    assert [(e.text, e.label_) for e in docs[0].ents] == [("Lucía Romero", "NAME_PATIENT"),
                                                          ("3.4.2029", "DATE")]
