import spacy

from spacy_deid.translate.alignment import align_spans, doc_char_spans, make_doc
from spacy_deid.translate.inline_tags import CharSpan


def blank(lang="de"):
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})


def test_exact_spans_are_kept():
    doc, report = make_doc(blank().tokenizer, "Herr Max Braun kam am 5.7.2020.",
                           [CharSpan(5, 14, "NAME_PATIENT"), CharSpan(22, 30, "DATE")])
    assert (report.spans_in, report.kept, report.adjusted, report.lost) == (2, 2, 0, 0)
    assert [(e.text, e.label_) for e in doc.ents] == [("Max Braun", "NAME_PATIENT"),
                                                      ("5.7.2020", "DATE")]


def test_span_inside_a_token_is_expanded_and_counted():
    # "Fünfzigjährige": the age word is part of one token
    doc, report = make_doc(blank().tokenizer, "Eine Fünfzigjährige kam.",
                           [CharSpan(5, 12, "AGE")])
    assert report.adjusted == 1 and report.lost == 0
    assert report.adjusted_labels["AGE"] == 1
    assert doc.ents[0].text == "Fünfzigjährige"


def test_whitespace_around_a_span_is_trimmed():
    doc, report = make_doc(blank().tokenizer, "am  2020 ", [CharSpan(3, 9, "DATE")])
    assert doc.ents[0].text == "2020"
    assert report.adjusted == 1


def test_spans_that_collide_after_expansion_are_lost_with_position():
    nlp = blank()
    doc = nlp("abcdef ghi")
    report = align_spans(doc, [CharSpan(0, 2, "ID"), CharSpan(3, 5, "ID")], source="x.txt")
    assert report.lost == 1
    assert report.lost_positions == ["x.txt[3:5] ID"]
    assert len(doc.ents) == 1


def test_doc_char_spans_round_trip():
    spans = [CharSpan(5, 14, "NAME_PATIENT")]
    doc, _ = make_doc(blank().tokenizer, "Herr Max Braun kam.", spans)
    assert doc_char_spans(doc) == spans
