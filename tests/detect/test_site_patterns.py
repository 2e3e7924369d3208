import json

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span

from spacy_deid.detect.site_patterns import (
    SITE_PATTERNS,
    SitePatternError,
    add_site_patterns,
    read_site_patterns,
)

WARD = {"label": "ID", "pattern": "K7 West"}
DOCTOR = {"label": "NAME_DOCTOR", "pattern": "Linnet Corbyn"}
# the tokenizer splits a code at its hyphens: "KV", "-", "2291"
CASE_NUMBER = {"label": "ID", "pattern": [{"TEXT": "KV"}, {"TEXT": "-"},
                                          {"TEXT": {"REGEX": r"^\d{4}$"}}]}


@Language.component("test_place_guess")
def place_guess(doc):
    """Stands in for an NER that read a ward code as a city."""
    start = next((t.i for t in doc if t.text == "K7"), None)
    if start is not None:
        doc.ents = [Span(doc, start, start + 1, label="LOCATION_CITY")]
    return doc


def pipeline(*components):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    for name in components:
        nlp.add_pipe(name, config={} if name.startswith("test_") else {"lang": "de"})
    return nlp


def entities(doc):
    return [(e.text, e.label_) for e in doc.ents]


def write_lines(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_phrases_match_in_any_case_and_token_patterns_as_written():
    nlp = add_site_patterns(pipeline(), [WARD, DOCTOR, CASE_NUMBER])
    doc = nlp("Auf Station K7 WEST bei Dr. linnet corbyn, Fall KV-2291 und KV-22910.")
    assert entities(doc) == [("K7 WEST", "ID"), ("linnet corbyn", "NAME_DOCTOR"),
                             ("KV-2291", "ID")]


def test_the_ruler_goes_before_the_propagation_and_its_names_are_found_again():
    nlp = add_site_patterns(pipeline("test_place_guess", "deid_mention_propagation",
                                     "deid_anonymizer"), [WARD, DOCTOR])
    assert nlp.pipe_names == ["test_place_guess", SITE_PATTERNS,
                              "deid_mention_propagation", "deid_anonymizer"]
    doc = nlp("Station K7 West: Visite durch Linnet Corbyn. Corbyn ordnet Bettruhe an.")
    # the site pattern replaces the guessed city; the surname alone is found again
    assert entities(doc) == [("K7 West", "ID"), ("Linnet Corbyn", "NAME_DOCTOR"),
                             ("Corbyn", "NAME_DOCTOR")]
    assert "Corbyn" not in doc._.deid_text and "K7" not in doc._.deid_text


def test_without_propagation_the_ruler_goes_before_the_anonymizer():
    nlp = add_site_patterns(pipeline("deid_anonymizer"), [WARD])
    assert nlp.pipe_names == [SITE_PATTERNS, "deid_anonymizer"]


def test_a_second_call_adds_to_the_same_ruler():
    nlp = add_site_patterns(add_site_patterns(pipeline(), [WARD]), [DOCTOR])
    assert nlp.pipe_names == [SITE_PATTERNS]
    assert len(nlp.get_pipe(SITE_PATTERNS).patterns) == 2


def test_a_pipeline_with_site_patterns_saves_and_loads(tmp_path):
    add_site_patterns(pipeline("deid_anonymizer"), [WARD]).to_disk(tmp_path / "nlp")
    doc = spacy.load(tmp_path / "nlp")("Verlegung auf Station K7 West.")
    assert entities(doc) == [("K7 West", "ID")]


def test_a_pattern_file_is_read_with_blank_lines_skipped(tmp_path):
    path = write_lines(tmp_path / "site.jsonl", [json.dumps(WARD), "", json.dumps(DOCTOR)])
    assert read_site_patterns(path) == [WARD, DOCTOR]
    assert entities(add_site_patterns(pipeline(), path)("K7 West")) == [("K7 West", "ID")]


@pytest.mark.parametrize(("line", "problem"), [
    ('{"label": "ID", "pattern": "K7 West"', "line 2: not JSON"),
    ('["ID", "Station 4B"]', "line 2: a pattern is an object"),
    ('{"label": "WARD", "pattern": "K7 West"}', "line 2: Unknown PHI label 'WARD'"),
    ('{"label": "ID", "pattern": "  "}', "line 2: the pattern must be"),
    ('{"label": "ID", "pattern": []}', "line 2: the pattern must be"),
    ('{"label": "ID", "pattern": [{"TEXTX": "K7"}]}', "line 2: not a token pattern"),
])
def test_a_malformed_pattern_names_file_and_line(tmp_path, line, problem):
    path = write_lines(tmp_path / "site.jsonl", [json.dumps(DOCTOR), line])
    with pytest.raises(SitePatternError, match=problem) as error:
        read_site_patterns(path)
    assert str(path) in str(error.value)
    assert "Linnet" not in str(error.value)


def test_a_bad_pattern_leaves_the_pipeline_as_it_was():
    nlp = pipeline("deid_anonymizer")
    with pytest.raises(SitePatternError, match="pattern 2: Unknown PHI label"):
        add_site_patterns(nlp, [WARD, {"label": "WARD", "pattern": "K7"}])
    assert nlp.pipe_names == ["deid_anonymizer"]


@pytest.mark.parametrize("content", [b"", b"\n\n"])
def test_no_patterns_add_no_ruler(tmp_path, content):
    path = tmp_path / "site.jsonl"
    path.write_bytes(content)
    nlp = pipeline("deid_anonymizer")
    for patterns in (path, []):
        with pytest.raises(SitePatternError, match="no patterns"):
            add_site_patterns(nlp, patterns)
    assert nlp.pipe_names == ["deid_anonymizer"]


def test_a_file_that_is_not_text_is_a_clear_error(tmp_path):
    path = tmp_path / "site.jsonl"
    path.write_bytes(b"\xff\xfe\x00\xd8bad")
    with pytest.raises(SitePatternError, match="cannot read the pattern file .*site.jsonl"):
        read_site_patterns(path)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SitePatternError, match="cannot read the pattern file"):
        read_site_patterns(tmp_path / "missing.jsonl")
