"""Tests for scripts/evaluation/evaluate.py: the four schemas against hand-worked numbers,
label sets, aggregation, and the CLI end to end on a tiny entity-ruler pipeline."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import srsly
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import DocBin
from typer.testing import CliRunner

from scripts.evaluation.evaluate import (
    CharSpan,
    aggregate_metrics,
    app,
    caught_rates,
    count_matches,
    distribution,
    evaluate_spans,
    f_beta,
    merge_name_label,
    prf,
    reduced_label_set,
    score_documents,
    to_reduced,
)
from spacy_deid.translate.alignment import make_doc

REPO = Path(__file__).resolve().parents[3]


def outcomes(gold: list[CharSpan], pred: list[CharSpan]) -> dict[str, dict[str, int]]:
    """Raw counts per schema, for compact assertions."""
    by_schema = count_matches(gold, pred).by_schema
    return {schema: counts.as_dict() for schema, counts in by_schema.items()}


def only_nonzero(counts: dict[str, int]) -> dict[str, int]:
    keys = ("correct", "incorrect", "partial", "missed", "spurious")
    return {key: counts[key] for key in keys if counts[key]}


# --- single outcomes -------------------------------------------------------------------


def test_exact_match_is_correct_in_every_schema():
    span = CharSpan(0, 5, "DATE")
    result = outcomes([span], [span])
    assert {s: only_nonzero(c) for s, c in result.items()} == {
        "strict": {"correct": 1}, "exact": {"correct": 1},
        "partial": {"correct": 1}, "type": {"correct": 1},
    }


def test_boundary_mismatch_with_same_label():
    result = outcomes([CharSpan(0, 10, "DATE")], [CharSpan(0, 5, "DATE")])
    assert {s: only_nonzero(c) for s, c in result.items()} == {
        "strict": {"incorrect": 1}, "exact": {"incorrect": 1},
        "partial": {"partial": 1}, "type": {"correct": 1},
    }
    scores = count_matches([CharSpan(0, 10, "DATE")], [CharSpan(0, 5, "DATE")]).by_schema
    assert prf(scores["strict"])["f1"] == 0.0
    assert prf(scores["partial"]) == pytest.approx({"p": 0.5, "r": 0.5, "f1": 0.5, "f2": 0.5})
    assert prf(scores["type"])["f1"] == 1.0


def test_type_mismatch_with_same_boundaries():
    result = outcomes([CharSpan(0, 5, "NAME_PATIENT")], [CharSpan(0, 5, "NAME_DOCTOR")])
    assert {s: only_nonzero(c) for s, c in result.items()} == {
        "strict": {"incorrect": 1}, "exact": {"correct": 1},
        "partial": {"correct": 1}, "type": {"incorrect": 1},
    }


def test_spurious_prediction_costs_precision_only():
    counts = count_matches([], [CharSpan(3, 8, "ID")]).by_schema["strict"]
    assert only_nonzero(counts.as_dict()) == {"spurious": 1}
    assert (counts.actual, counts.possible) == (1, 0)
    assert prf(counts) == {"p": 0.0, "r": 0.0, "f1": 0.0, "f2": 0.0}


def test_missed_gold_span_costs_recall_only():
    counts = count_matches([CharSpan(3, 8, "ID")], []).by_schema["partial"]
    assert only_nonzero(counts.as_dict()) == {"missed": 1}
    assert (counts.actual, counts.possible) == (0, 1)


def test_one_prediction_over_two_gold_spans_counts_once_per_gold_span():
    # "Dr. Anna" annotated as title + doctor, predicted as one doctor span (nervaluate counting)
    gold = [CharSpan(0, 3, "NAME_TITLE"), CharSpan(4, 8, "NAME_DOCTOR")]
    result = outcomes(gold, [CharSpan(0, 8, "NAME_DOCTOR")])
    assert only_nonzero(result["strict"]) == {"incorrect": 2}
    assert only_nonzero(result["partial"]) == {"partial": 2}
    assert only_nonzero(result["type"]) == {"correct": 1, "incorrect": 1}
    assert result["partial"]["actual"] == 2 and result["partial"]["possible"] == 2


def test_second_prediction_on_an_already_matched_gold_span_is_spurious():
    gold = [CharSpan(0, 10, "DATE")]
    pred = [CharSpan(0, 4, "DATE"), CharSpan(5, 10, "DATE")]
    counts = count_matches(gold, pred).by_schema["partial"]
    assert only_nonzero(counts.as_dict()) == {"partial": 1, "spurious": 1}
    # precision (0 + 0.5) / 2, recall (0 + 0.5) / 1
    assert prf(counts)["p"] == pytest.approx(0.25)
    assert prf(counts)["r"] == pytest.approx(0.5)


def test_mixed_document_scores_worked_by_hand():
    gold = [CharSpan(0, 5, "DATE"), CharSpan(10, 20, "NAME_PATIENT"),
            CharSpan(30, 40, "LOCATION_CITY"), CharSpan(50, 60, "ID")]
    pred = [CharSpan(0, 5, "DATE"), CharSpan(10, 20, "NAME_DOCTOR"),
            CharSpan(28, 35, "LOCATION_CITY"), CharSpan(70, 75, "AGE")]
    by_schema = count_matches(gold, pred).by_schema
    # strict: 1 correct of 4 actual / 4 possible
    assert prf(by_schema["strict"])["f1"] == pytest.approx(0.25)
    # exact: date + name boundaries = 2 correct
    assert prf(by_schema["exact"])["f1"] == pytest.approx(0.5)
    # partial: 2 correct + 0.5 for the city = 2.5 / 4
    assert prf(by_schema["partial"])["f1"] == pytest.approx(0.625)
    # type: date + city (overlap, same label) = 2 / 4
    assert prf(by_schema["type"])["f1"] == pytest.approx(0.5)


# --- F-beta, micro vs macro, distributions --------------------------------------------


def test_f2_weighs_recall_above_precision():
    assert f_beta(0.5, 1.0, 2.0) == pytest.approx(2.5 / 3)
    assert f_beta(1.0, 0.5, 2.0) == pytest.approx(2.5 / 4.5)
    assert f_beta(0.5, 1.0, 1.0) == pytest.approx(2 / 3)
    assert f_beta(0.0, 0.0, 2.0) == 0.0


def test_micro_and_macro_differ_when_a_rare_label_is_missed():
    gold = [[CharSpan(0, 2, "DATE"), CharSpan(3, 5, "DATE"), CharSpan(6, 8, "DATE"),
             CharSpan(9, 11, "ID")]]
    pred = [[CharSpan(0, 2, "DATE"), CharSpan(3, 5, "DATE"), CharSpan(6, 8, "DATE")]]
    strict = score_documents(gold, pred)["strict"]
    assert strict["micro"]["p"] == 1.0
    assert strict["micro"]["r"] == 0.75
    assert strict["micro"]["f1"] == pytest.approx(6 / 7)
    assert strict["micro"]["f2"] == pytest.approx(5 * 0.75 / (4 + 0.75))
    assert strict["macro"] == pytest.approx({"p": 0.5, "r": 0.5, "f1": 0.5, "f2": 0.5,
                                             "n_labels": 2})
    assert strict["per_label"]["ID"]["support"] == 1
    assert strict["per_label"]["DATE"]["f1"] == 1.0


def test_per_label_type_error_costs_predicted_label_precision_and_gold_label_recall():
    gold = [[CharSpan(0, 5, "NAME_PATIENT")]]
    pred = [[CharSpan(0, 5, "NAME_DOCTOR")]]
    per_label = score_documents(gold, pred)["strict"]["per_label"]
    patient, doctor = per_label["NAME_PATIENT"], per_label["NAME_DOCTOR"]
    assert only_nonzero(patient) == {"missed": 1}
    assert (patient["support"], patient["r"]) == (1, 0.0)
    assert only_nonzero(doctor) == {"spurious": 1}
    assert (doctor["support"], doctor["p"]) == (0, 0.0)
    # the predicted-only label has no gold support, so it is left out of macro
    assert score_documents(gold, pred)["strict"]["macro"]["n_labels"] == 1


def test_per_document_distribution_skips_documents_without_entities():
    gold = [[CharSpan(0, 5, "DATE")], [CharSpan(0, 5, "DATE")], []]
    pred = [[CharSpan(0, 5, "DATE")], [], []]
    per_doc = score_documents(gold, pred)["strict"]["per_document"]["f1"]
    assert per_doc["n"] == 2
    assert per_doc["mean"] == 0.5
    assert per_doc["sd"] == pytest.approx(math.sqrt(0.5))
    assert (per_doc["min"], per_doc["median"], per_doc["max"]) == (0.0, 0.5, 1.0)


def test_distribution_quartiles_and_edge_cases():
    stats = distribution([5, 1, 4, 2, 3])
    assert (stats["q1"], stats["median"], stats["q3"]) == (2, 3, 4)
    assert distribution([0.7])["sd"] == 0.0
    assert distribution([])["mean"] is None


def test_mismatched_document_counts_are_rejected():
    with pytest.raises(ValueError, match="1 gold documents but 2 predicted"):
        score_documents([[]], [[], []])


# --- reduced label set -----------------------------------------------------------------


def test_name_labels_merge_into_name():
    assert merge_name_label("NAME_TITLE") == "NAME"
    assert merge_name_label("NAME_PATIENT") == "NAME"
    assert merge_name_label("DATE") == "DATE"


def test_rare_labels_are_dropped_at_eleven_or_fewer():
    kept, dropped = reduced_label_set({"NAME": 13, "DATE": 12, "AGE": 11, "ID": 0})
    assert kept == ["DATE", "NAME"]
    assert dropped == ["AGE", "ID"]


def test_to_reduced_merges_and_filters():
    spans = [CharSpan(0, 3, "NAME_TITLE"), CharSpan(4, 8, "NAME_DOCTOR"), CharSpan(9, 11, "AGE")]
    assert to_reduced(spans, ["NAME"]) == [CharSpan(0, 3, "NAME"), CharSpan(4, 8, "NAME")]


def test_reduced_set_counts_on_training_data_and_forgives_name_confusions():
    train = [[CharSpan(i, i + 1, "NAME_PATIENT") for i in range(0, 16, 2)]
             + [CharSpan(i, i + 1, "NAME_DOCTOR") for i in range(20, 30, 2)]
             + [CharSpan(40, 41, "AGE")]]
    gold = [[CharSpan(0, 5, "NAME_PATIENT"), CharSpan(6, 8, "AGE")]]
    pred = [[CharSpan(0, 5, "NAME_DOCTOR"), CharSpan(6, 8, "AGE")]]
    result = evaluate_spans(gold, pred, train_docs=train)
    reduced = result["reduced"]
    assert reduced["counted_on"] == "train"
    assert reduced["label_counts"] == {"AGE": 1, "NAME": 13}
    assert (reduced["labels"], reduced["dropped"]) == (["NAME"], ["AGE"])
    assert "<= 11" in reduced["description"]
    assert reduced["scores"]["strict"]["micro"]["f1"] == 1.0
    # on the fine labels the name is a type error and AGE counts
    assert result["fine"]["scores"]["strict"]["micro"]["f1"] == 0.5


# --- aggregation -----------------------------------------------------------------------


def _run(gold, pred):
    return {"lang": "de", "n_docs": len(gold), "label_sets": evaluate_spans(gold, pred)}


def test_aggregate_gives_mean_and_sample_sd_per_score():
    perfect = _run([[CharSpan(0, 5, "DATE")]], [[CharSpan(0, 5, "DATE")]])
    half = _run([[CharSpan(0, 5, "DATE"), CharSpan(6, 9, "ID")]], [[CharSpan(0, 5, "DATE")]])
    agg = aggregate_metrics([perfect, half])
    recall = agg["fine"]["scores"]["strict"]["micro"]["r"]
    assert recall["mean"] == pytest.approx(0.75)
    assert recall["sd"] == pytest.approx(math.sqrt(0.125))
    assert recall["n"] == 2
    # ID has support in one run only, so its per-label mean comes from that run
    assert agg["fine"]["scores"]["strict"]["per_label"]["ID"]["f1"]["n"] == 1
    assert agg["reduced"]["labels_by_run"] == [[], []]


def test_aggregate_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="at least one"):
        aggregate_metrics([])


# --- CLI end to end --------------------------------------------------------------------

TEXTS = [
    ("Max Muster wurde am 01.02.1950 in Berlin geboren.",
     [("Max Muster", "NAME_PATIENT"), ("01.02.1950", "DATE"), ("Berlin", "LOCATION_CITY")]),
    ("Dr. Anna Beispiel behandelte ihn.",
     [("Dr.", "NAME_TITLE"), ("Anna Beispiel", "NAME_DOCTOR")]),
    ("Keine Angaben.", []),
]
RULER_PATTERNS = [
    {"label": "NAME_PATIENT", "pattern": "Max Muster"},
    {"label": "DATE", "pattern": "01.02.1950"},
    {"label": "LOCATION_STATE", "pattern": "Berlin"},
    {"label": "NAME_DOCTOR", "pattern": "Anna Beispiel"},
]


def _blank_de():
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})


def _char_spans(text, mentions):
    from spacy_deid.translate.inline_tags import CharSpan as Span

    return [Span(text.index(m), text.index(m) + len(m), label) for m, label in mentions]


@pytest.fixture(scope="module")
def tiny_setup(tmp_path_factory):
    """A saved entity-ruler pipeline and a gold DocBin of three documents."""
    root = tmp_path_factory.mktemp("eval")
    nlp = _blank_de()
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns(RULER_PATTERNS)
    nlp.to_disk(root / "model")
    docbin = DocBin()
    for text, mentions in TEXTS:
        doc, report = make_doc(nlp.tokenizer, text, _char_spans(text, mentions))
        assert report.lost == 0
        docbin.add(doc)
    docbin.to_disk(root / "gold.spacy")
    return root


def test_cli_scores_a_pipeline_end_to_end(tiny_setup):
    out = tiny_setup / "metrics" / "de.json"
    result = CliRunner().invoke(app, [
        "evaluate", str(tiny_setup / "model"), str(tiny_setup / "gold.spacy"),
        "--lang", "de", "--output", str(out), "--name", "doc-split", "--rare-max", "0"])
    assert result.exit_code == 0, result.output
    metrics = srsly.read_json(out)
    assert (metrics["n_docs"], metrics["n_gold_entities"], metrics["n_predicted_entities"]) == (
        3, 5, 4)
    assert metrics["n_tokens"] > 10
    assert metrics["name"] == "doc-split" and metrics["command"] and metrics["created"]
    assert metrics["device"] == "cpu"
    strict = metrics["label_sets"]["fine"]["scores"]["strict"]["micro"]
    # name, date, doctor correct; Berlin a type error; the title missed
    assert (strict["correct"], strict["incorrect"], strict["missed"]) == (3, 1, 1)
    assert (strict["p"], strict["r"]) == pytest.approx((0.75, 0.6))
    exact = metrics["label_sets"]["fine"]["scores"]["exact"]["micro"]
    assert exact["p"] == 1.0
    reduced = metrics["label_sets"]["reduced"]
    assert reduced["labels"] == ["DATE", "LOCATION_CITY", "NAME"]
    # LOCATION_STATE is outside the reduced set, so Berlin becomes a miss there
    red_strict = reduced["scores"]["strict"]["micro"]
    assert (red_strict["p"], red_strict["r"]) == pytest.approx((1.0, 0.6))


def test_cli_records_training_counts_and_reports_bad_input(tiny_setup):
    out = tiny_setup / "with_train.json"
    runner = CliRunner()
    result = runner.invoke(app, [
        "evaluate", str(tiny_setup / "model"), str(tiny_setup / "gold.spacy"), "--lang", "de",
        "--output", str(out), "--train", str(tiny_setup / "gold.spacy"), "--rare-max", "1"])
    assert result.exit_code == 0, result.output
    reduced = srsly.read_json(out)["label_sets"]["reduced"]
    assert reduced["counted_on"] == "train"
    assert reduced["labels"] == ["NAME"]
    missing = runner.invoke(app, ["evaluate", str(tiny_setup / "model"),
                                  str(tiny_setup / "nope.spacy"), "--lang", "de",
                                  "--output", str(tiny_setup / "x.json")])
    assert missing.exit_code == 1
    assert "Gold DocBin not found" in missing.output
    assert not (tiny_setup / "x.json").exists()
    bad_lang = runner.invoke(app, ["evaluate", str(tiny_setup / "model"),
                                   str(tiny_setup / "gold.spacy"), "--lang", "xx",
                                   "--output", str(tiny_setup / "x.json")])
    assert bad_lang.exit_code == 1
    assert "Unsupported language code" in bad_lang.output


def test_script_runs_without_subcommand_and_aggregates(tiny_setup):
    """`python -m scripts.evaluation.evaluate MODEL GOLD ...` then `... aggregate`, as
    project.yml calls it."""
    folds = [tiny_setup / f"fold{i}.json" for i in range(2)]
    args = [str(tiny_setup / "model"), str(tiny_setup / "gold.spacy"), "--lang", "de"]
    subprocess.run([sys.executable, "-m", "scripts.evaluation.evaluate", *args,
                    "--output", str(folds[0])],
                   cwd=REPO, check=True, capture_output=True, text=True)
    runner = CliRunner()
    assert runner.invoke(app, ["evaluate", *args, "--output", str(folds[1])]).exit_code == 0
    cv = tiny_setup / "cv.json"
    result = runner.invoke(app, ["aggregate", *map(str, folds), "--output", str(cv)])
    assert result.exit_code == 0, result.output
    agg = srsly.read_json(cv)
    assert agg["aggregate"] is True and agg["n_runs"] == 2 and agg["lang"] == "de"
    f1 = agg["label_sets"]["fine"]["scores"]["strict"]["micro"]["f1"]
    assert f1["mean"] == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert f1["sd"] == 0.0
    assert srsly.read_json(folds[0])["command"].startswith("python -m scripts.evaluation.evaluate ")


# --- invariants ------------------------------------------------------------------------


@st.composite
def span_lists(draw):
    """Non-overlapping spans over a short text, as an NER model outputs them."""
    spans, position = [], 0
    for _ in range(draw(st.integers(0, 6))):
        position += draw(st.integers(0, 4))
        length = draw(st.integers(1, 5))
        spans.append(CharSpan(position, position + length, draw(st.sampled_from("ABC"))))
        position += length
    return spans


@settings(max_examples=200, deadline=None)
@given(gold=span_lists(), pred=span_lists())
def test_every_gold_span_gets_one_outcome_and_relaxed_scores_are_never_lower(gold, pred):
    by_schema = count_matches(gold, pred).by_schema
    for counts in by_schema.values():
        assert counts.possible == len(gold)
        assert counts.actual >= len(pred)
    assert by_schema["strict"].correct == len(set(gold) & set(pred))
    strict_f1 = prf(by_schema["strict"])["f1"]
    for schema in ("exact", "partial", "type"):
        assert prf(by_schema[schema])["f1"] >= strict_f1 - 1e-12


def test_a_name_counts_as_caught_only_when_every_character_is_covered():
    text = "Pat. Walter Kaminski, Zi. 614"
    gold = [[CharSpan(5, 20, "NAME_PATIENT"), CharSpan(26, 29, "ID")]]
    part = [[CharSpan(12, 20, "NAME_PATIENT"), CharSpan(26, 29, "DATE")]]
    whole = [[CharSpan(5, 11, "NAME_PATIENT"), CharSpan(12, 20, "LOCATION_CITY")]]
    rates = caught_rates(gold, part, [text])
    assert rates["names"] == {"spans": 1, "caught": 0, "overlapped": 1, "caught_rate": 0.0}
    assert rates["ids"]["caught"] == 1  # any label counts: the text is replaced
    assert caught_rates(gold, whole, [text])["names"]["caught"] == 1
    assert caught_rates(gold, whole, [text])["ids"]["caught_rate"] == 0.0
