"""scripts.evaluation.dev_scores: a model's dev scores summed over languages, per source."""

import pytest
from spacy.tokens import DocBin, Span

from scripts.evaluation.dev_scores import dev_scores, with_text_case
from tests.configs import blank_deid

DOCS = {
    "de": [("Frau Anna Berger kam auf Station 4B.", "letters",
            [(1, 3, "NAME_PATIENT"), (6, 7, "ID")])],
    "pl": [("Pani Anna Nowak , pokój 12 .", "synthetic",
            [(1, 3, "NAME_PATIENT"), (5, 6, "ID")]),
           ("Pan Anna Berger .", "letters", [(1, 3, "NAME_PATIENT")])],
}


def write_splits(folder):
    for lang, docs in DOCS.items():
        nlp = blank_deid(lang)
        docbin = DocBin(store_user_data=True)
        for text, source, ents in docs:
            doc = nlp.make_doc(text)
            doc.ents = [Span(doc, start, end, label) for start, end, label in ents]
            doc.user_data["source"] = source
            docbin.add(doc)
        (folder / lang).mkdir(parents=True)
        docbin.to_disk(folder / lang / "dev.spacy")


def name_finder(path):
    """A pipeline that marks every `Anna <Surname>` as a patient name and nothing else."""
    nlp = blank_deid("de")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": [{"TEXT": "Anna"},
                                                               {"IS_TITLE": True}]}])
    nlp.to_disk(path)
    return path


def test_scores_are_summed_over_languages_per_source(tmp_path):
    write_splits(tmp_path / "splits")
    result = dev_scores(name_finder(tmp_path / "model"), tmp_path / "splits", ["de", "pl"])
    letters, synthetic = result["sources"]["letters"], result["sources"]["synthetic"]
    assert (letters["n_docs"], synthetic["n_docs"]) == (2, 1)
    # letters: both names found, the ID missed -> 2 of 3 gold spans, no spurious span
    assert letters["strict_micro"]["p"] == 1.0
    assert round(letters["strict_micro"]["r"], 3) == 0.667
    assert letters["caught"]["names"]["caught"] == 2
    assert letters["caught"]["ids"] == {"spans": 1, "caught": 0, "overlapped": 0,
                                        "caught_rate": 0.0}
    assert synthetic["caught"]["names"]["caught"] == 1
    assert synthetic["strict_micro"]["r"] == 0.5


def test_a_text_case_scores_every_text_in_that_case(tmp_path):
    write_splits(tmp_path / "splits")
    # the name finder needs `Anna` and a capitalised word: no name survives either case
    for text_case in ("lower", "upper"):
        result = dev_scores(name_finder(tmp_path / "model"), tmp_path / "splits", ["de", "pl"],
                            text_case=text_case)
        assert result["text_case"] == text_case
        assert result["sources"]["letters"]["caught"]["names"] == {
            "spans": 2, "caught": 0, "overlapped": 0, "caught_rate": 0.0}


def test_with_text_case_keeps_the_annotated_tokens_and_the_user_data():
    nlp = blank_deid("de")
    doc = nlp.make_doc("Frau Anna Weiß, Straße 4B.")
    doc.ents = [doc.char_span(5, 14, "NAME_PATIENT"), doc.char_span(16, 25, "LOCATION_STREET")]
    doc.user_data["source"] = "synthetic"
    upper = with_text_case(doc, "upper")
    assert [(ent.text, ent.label_) for ent in upper.ents] == [
        ("ANNA WEISS", "NAME_PATIENT"), ("STRASSE 4B", "LOCATION_STREET")]
    assert upper.user_data == {"source": "synthetic"}
    assert with_text_case(doc, "lower").text == "frau anna weiß, straße 4b."
    with pytest.raises(ValueError, match="text case"):
        with_text_case(doc, "title")
