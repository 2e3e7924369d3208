import json
from collections import Counter
from pathlib import Path

import pytest

from scripts.corpus.inception import CasFormatError, read_cas_json, read_cas_xmi

CORPUS = Path(__file__).parents[3] / "corpus" / "grascco_phi"
JSON_DIR = CORPUS / "grascco_phi_annotation_json"
XMI_DIR = CORPUS / "grascco_phi_annotation_xmi"


@pytest.fixture(scope="module")
def german():
    return {path.name: read_cas_json(path) for path in sorted(JSON_DIR.glob("*.json"))}


def test_all_gold_spans_are_accounted_for(german):
    labels = Counter(span.label for document in german.values() for span in document.spans)
    assert len(german) == 63
    assert sum(labels.values()) == 1439
    assert labels["DATE"] == 694 and labels["NAME_PATIENT"] == 166
    # the one unlabelled span ("49", in Quendler) becomes an AGE: 23 + 1
    assert labels["AGE"] == 24


def test_byte_order_mark_is_removed_and_offsets_shift(german):
    raw = json.loads((JSON_DIR / "Boeck.txt_phi.json").read_text(encoding="utf-8"))
    structures = raw["%FEATURE_STRUCTURES"]
    sofa = next(s["sofaString"] for s in structures if s["%TYPE"] == "uima.cas.Sofa")
    first = min((s for s in structures if s["%TYPE"] == "webanno.custom.PHI"),
                key=lambda s: s["begin"])
    document = german["Boeck.txt_phi.json"]
    assert sofa.startswith("\ufeff") and not document.text.startswith("\ufeff")
    assert document.text == sofa[1:]
    assert document.spans[0].start == first["begin"] - 1
    assert (document.text[document.spans[0].start:document.spans[0].end]
            == sofa[first["begin"]:first["end"]])


def test_span_text_never_starts_or_ends_with_a_byte_order_mark(german):
    for document in german.values():
        for span in document.spans:
            assert "\ufeff" not in document.text[span.start:span.end]


def test_xmi_agrees_with_json_on_every_document(german):
    for name, document in german.items():
        from_xmi = read_cas_xmi(XMI_DIR / name.replace(".json", ".xmi"))
        assert from_xmi.text == document.text, name
        assert from_xmi.spans == document.spans, name
        assert from_xmi.sentences == document.sentences, name


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def cas(sofa, phi):
    return json.dumps({"%FEATURE_STRUCTURES": [
        {"%ID": 1, "%TYPE": "uima.cas.Sofa", "sofaString": sofa},
        *({"%TYPE": "webanno.custom.PHI", **annotation} for annotation in phi)]})


def test_broken_json_names_file_and_position(tmp_path):
    path = write(tmp_path, "broken.json", '{"%FEATURE_STRUCTURES": [\n  {"a": }')
    with pytest.raises(CasFormatError, match=r"broken\.json:2:\d+: invalid JSON"):
        read_cas_json(path)


def test_missing_sofa_is_an_error(tmp_path):
    path = write(tmp_path, "nosofa.json", json.dumps({"%FEATURE_STRUCTURES": []}))
    with pytest.raises(CasFormatError, match="nosofa.json: no uima.cas.Sofa"):
        read_cas_json(path)


def test_unknown_label_names_file_and_offset(tmp_path):
    path = write(tmp_path, "x.json", cas("Herr Max", [{"begin": 5, "end": 8, "kind": "PET"}]))
    with pytest.raises(CasFormatError, match="x.json: offset 5: unknown PHI label 'PET'"):
        read_cas_json(path)


def test_unlabelled_span_that_is_not_an_age_is_an_error(tmp_path):
    path = write(tmp_path, "x.json", cas("Herr Max", [{"begin": 5, "end": 8}]))
    with pytest.raises(CasFormatError, match="offset 5: PHI span without a label"):
        read_cas_json(path)


def test_span_outside_the_text_is_an_error(tmp_path):
    path = write(tmp_path, "x.json", cas("kurz", [{"begin": 2, "end": 40, "kind": "DATE"}]))
    with pytest.raises(CasFormatError, match=r"x.json: annotation \[2, 40\) lies outside"):
        read_cas_json(path)


def test_utf16_offsets_are_converted(tmp_path):
    # an emoji takes two UTF-16 code units in UIMA offsets, one character in Python
    annotation = {"begin": 3, "end": 6, "kind": "NAME_PATIENT"}
    path = write(tmp_path, "x.json", cas("🙂 Max", [annotation]))
    document = read_cas_json(path)
    assert document.text[document.spans[0].start:document.spans[0].end] == "Max"


def test_broken_xmi_names_file_and_position(tmp_path):
    path = write(tmp_path, "x.xmi", "<xmi:XMI xmlns:xmi='http://www.omg.org/XMI'>\n<a></b>")
    with pytest.raises(CasFormatError, match=r"x.xmi:2:\d+: invalid XML"):
        read_cas_xmi(path)
