"""The leakage report on a tiny gold DocBin with a rule-based pipeline built in the test."""

import json

import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

import spacy_deid  # noqa: F401
from scripts.evaluation.leakage import (
    app,
    ensure_anonymizer,
    leak_target,
    leakage_report,
    main,
    report_by_source,
    word_survives,
)
from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.cli_output import plain_output

GOLD = [
    "Herr <NAME_PATIENT>Karl Brenner</NAME_PATIENT> (<AGE>71</AGE>) kam am <DATE>5.7.2021</DATE>.",
    "Frau <NAME_PATIENT>Ida Wolff</NAME_PATIENT>, Fall-Nr. <ID>K-4471</ID>, "
    "<LOCATION_CITY>Erfurt</LOCATION_CITY>.",
]


def rule_pipeline():
    """A blank German pipeline whose entity ruler finds all gold spans but 'Wolff'."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([
        {"label": "NAME_PATIENT", "pattern": "Karl Brenner"},
        {"label": "NAME_PATIENT", "pattern": [{"TEXT": "Ida"}]},
        {"label": "AGE", "pattern": "71"},
        {"label": "DATE", "pattern": "5.7.2021"},
        {"label": "ID", "pattern": "K-4471"},
        {"label": "LOCATION_CITY", "pattern": "Erfurt"},
    ])
    return nlp


def gold_docs(nlp):
    docs = []
    for tagged in GOLD:
        text, spans = parse_inline_tags(tagged)
        docs.append(make_doc(nlp.make_doc, text, spans)[0])
    return docs


def test_report_counts_leaked_spans_per_label():
    nlp = ensure_anonymizer(rule_pipeline(), "de")
    report = leakage_report(nlp, gold_docs(nlp), "de")
    names = report["labels"]["NAME_PATIENT"]
    # "Ida Wolff": only "Ida" was found, so "Wolff" survives (a partial leak)
    assert (names["spans"], names["leaked"], names["partial"]) == (2, 0, 1)
    assert report["labels"]["ID"]["leaked"] == 0
    assert report["labels"]["AGE"]["strategy"] == "keep"
    assert report["spans"] == 5 and report["leaked"] == 0  # AGE is kept on purpose
    assert report["labels"]["AGE"]["leaked"] == 1
    assert report["names_and_ids"]["meets_target"] is True


def report_on(tagged: str, id_pattern: str | None = None) -> tuple[str, dict]:
    """The anonymized text of one inline-tagged letter and its leakage report, with the rule
    pipeline and, if given, one more ID pattern."""
    nlp = rule_pipeline()
    if id_pattern is not None:
        nlp.get_pipe("entity_ruler").add_patterns([{"label": "ID", "pattern": id_pattern}])
    ensure_anonymizer(nlp, "de")
    text, spans = parse_inline_tags(tagged)
    report = leakage_report(nlp, [make_doc(nlp.make_doc, text, spans)[0]], "de")
    return nlp(text)._.deid_text, report


def test_a_replaced_span_found_only_inside_a_longer_word_is_not_leaked():
    output, report = report_on("Station <ID>B</ID>, Befund unauffällig.", id_pattern="B")
    assert "Befund" in output
    assert report["labels"]["ID"]["leaked_as_substring"] == 1
    assert report["labels"]["ID"]["leaked"] == 0
    assert report["names_and_ids"]["leaked"] == 0


def test_a_span_left_as_a_whole_word_is_leaked():
    _, report = report_on("Station <ID>Q7</ID>, Befund unauffällig.")
    assert report["labels"]["ID"]["leaked"] == report["labels"]["ID"]["leaked_as_substring"] == 1
    assert report["names_and_ids"]["meets_target"] is False


def test_a_replaced_span_whose_string_stands_elsewhere_is_leaked_but_not_missed():
    _, report = report_on("Station <ID>5</ID>, Zimmer <ID>Q7</ID>, 5 mg.", id_pattern="Station 5")
    assert (report["labels"]["ID"]["leaked"], report["labels"]["ID"]["missed"]) == (2, 1)
    assert report["names_and_ids"]["missed"] == 1
    # only "Q7" survives where it is PHI; the "5" that survives is the dose
    assert report["labels"]["ID"]["leaked_unreplaced"] == 1
    assert report["names_and_ids"]["leaked_unreplaced"] == 1


def test_a_replaced_span_whose_twin_was_missed_is_leaked_unreplaced():
    _, report = report_on("Station <ID>Q7</ID>, später Zimmer <ID>Q7</ID>.",
                          id_pattern="Station Q7")
    assert (report["labels"]["ID"]["missed"], report["labels"]["ID"]["leaked"]) == (1, 2)
    assert report["labels"]["ID"]["leaked_unreplaced"] == 2


def test_a_span_found_in_part_is_not_missed():
    nlp = ensure_anonymizer(rule_pipeline(), "de")
    report = leakage_report(nlp, gold_docs(nlp), "de")
    # "Ida Wolff" was found as "Ida"; the kept AGE counts as missed
    assert report["labels"]["NAME_PATIENT"]["missed"] == 0
    assert report["labels"]["AGE"]["missed"] == 1


def test_in_arabic_a_name_after_a_prefixed_preposition_is_leaked():
    assert word_survives("دمشق", "وصل بدمشق أمس", "ar")
    assert word_survives("دمشق", "وصل والدمشق أمس", "ar")
    assert not word_survives("دمشق", "وصل بدمشقي أمس", "ar")
    assert not word_survives("ن.", "جاءت مرتين.", "ar")
    assert not word_survives("Erfurt", "in NeuErfurt", "de")


def test_cli_writes_json(tmp_path):
    nlp = rule_pipeline()
    nlp.to_disk(tmp_path / "model")
    DocBin(docs=gold_docs(nlp)).to_disk(tmp_path / "gold.spacy")
    import typer

    app = typer.Typer()
    app.command()(main)
    result = CliRunner().invoke(app, [str(tmp_path / "model"), str(tmp_path / "gold.spacy"),
                                      "--lang", "de", "--output", str(tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out.json").read_text())
    assert report["lang"] == "de" and report["documents"] == 2
    assert "Brenner" not in result.output and "Wolff" not in result.output


def test_languages_writes_one_report_per_language(tmp_path):
    nlp = rule_pipeline()
    for lang in ("de", "pl"):
        (tmp_path / "training" / lang).mkdir(parents=True)
        nlp.to_disk(tmp_path / "training" / lang / "pipeline")
        (tmp_path / "splits" / lang).mkdir(parents=True)
        DocBin(docs=gold_docs(nlp)).to_disk(tmp_path / "splits" / lang / "test.spacy")
    result = CliRunner().invoke(app, ["languages", str(tmp_path / "training"),
                                      str(tmp_path / "splits"), str(tmp_path / "metrics"),
                                      "--langs", "de,pl", "--suffix", "_x"])
    assert result.exit_code == 0, result.output
    reports = {lang: json.loads((tmp_path / "metrics" / f"leakage_{lang}_x.json").read_text())
               for lang in ("de", "pl")}
    assert [reports[lang]["lang"] for lang in ("de", "pl")] == ["de", "pl"]
    assert all(report["documents"] == 2 for report in reports.values())


def test_languages_names_a_missing_pipeline(tmp_path):
    result = CliRunner().invoke(app, ["languages", str(tmp_path), str(tmp_path),
                                      str(tmp_path / "m"), "--langs", "de"])
    assert result.exit_code != 0
    assert "no pipeline at" in plain_output(result)


def test_each_source_and_genre_is_reported_apart_and_the_letters_lead():
    nlp = ensure_anonymizer(rule_pipeline(), "de")
    letter, note = gold_docs(nlp)
    note.user_data.update(source="synthetic", genre="nursing")
    report = report_by_source(nlp, [letter, note], "de")
    assert report["source"] == "letters" and report["documents"] == 1
    assert set(report["sources"]) == {"letters", "synthetic"}
    synthetic = report["sources"]["synthetic"]
    assert synthetic["documents"] == 1 and list(synthetic["genres"]) == ["nursing"]
    # "Wolff" is in the nursing note only: it leaks there, not in the letter
    assert synthetic["labels"]["NAME_PATIENT"]["partial"] == 1
    assert report["labels"]["NAME_PATIENT"]["partial"] == 0
    assert report["versions"]["spacy"] == spacy.__version__
    assert set(report["kernels"]) == {"blis", "openblas", "numpy"}
    assert report["device"] == "cpu"


def test_the_other_genres_are_held_against_their_own_leak_target():
    assert (leak_target("letters"), leak_target("synthetic")) == (0.01, 0.02)
    nlp = ensure_anonymizer(rule_pipeline(), "de")
    letter, note = gold_docs(nlp)
    note.user_data.update(source="synthetic", genre="nursing")
    report = report_by_source(nlp, [letter, note], "de")
    assert report["names_and_ids"]["target"] == 0.01
    synthetic = report["sources"]["synthetic"]
    assert synthetic["names_and_ids"]["target"] == 0.02
    assert synthetic["genres"]["nursing"]["names_and_ids"]["target"] == 0.02
