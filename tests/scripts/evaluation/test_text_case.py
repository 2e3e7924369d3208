"""scripts.evaluation.text_case: the test split as written, in lower case and in capitals."""

import pytest
import srsly
import typer
from spacy.tokens import DocBin

from scripts.evaluation import text_case
from tests.configs import blank_deid

TEXT = "Frau Anna Berger kam auf Station 4B."


def write_split(splits):
    nlp = blank_deid("de")
    doc = nlp.make_doc(TEXT)
    doc.ents = [doc.char_span(5, 16, "NAME_PATIENT"), doc.char_span(33, 35, "ID")]
    doc.user_data["source"] = "letters"
    (splits / "de").mkdir(parents=True)
    DocBin(docs=[doc], store_user_data=True).to_disk(splits / "de" / "test.spacy")


def write_pipeline(folder):
    """A pipeline that marks `Anna` before a capitalised word as a patient name."""
    nlp = blank_deid("de")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT",
                         "pattern": [{"TEXT": "Anna"}, {"IS_TITLE": True}]}])
    (folder / "de").mkdir(parents=True)
    nlp.to_disk(folder / "de" / "pipeline")


def test_each_case_is_scored_and_written_with_the_versions(tmp_path):
    write_split(tmp_path / "splits")
    write_pipeline(tmp_path / "training")
    output = tmp_path / "text_case.json"
    text_case.main(tmp_path / "training", tmp_path / "splits", output, langs="de")
    scores = srsly.read_json(output)
    assert scores["split"] == "test" and "spacy" in scores["versions"]
    names = {case: sources["letters"]["caught"]["names"]["caught"]
             for case, sources in scores["langs"]["de"].items()}
    # the finder needs capitals: the name is found as written only
    assert names == {"as written": 1, "lower": 0, "upper": 0}


def test_a_language_without_a_pipeline_is_a_clear_error(tmp_path):
    write_split(tmp_path / "splits")
    with pytest.raises(typer.BadParameter, match="no pipeline"):
        text_case.main(tmp_path / "training", tmp_path / "splits", tmp_path / "out.json",
                       langs="de")
