"""The `deid_anonymizer` component: strategies, overlaps, properties, corpus documents."""

import datetime as dt
import re
from collections import defaultdict
from pathlib import Path

import pytest
import spacy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc, Span

import spacy_deid  # noqa: F401  (registers the extensions)
from spacy_deid.anonymize.anonymizer import DEFAULT_STRATEGIES, merge_spans
from spacy_deid.lang.markup import trim_span
from spacy_deid.schema import PHI_LABELS
from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "multigrascco_replica"
REPLICA_LANGUAGES = ("en", "fr", "it", "pl", "ru", "uk", "tr", "ar", "fa")


def blank(lang: str, **config) -> spacy.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.Tokenizer.v1",
                                                          "lang": lang}}})
    nlp.add_pipe("deid_anonymizer", config=config)
    return nlp


def anonymize(nlp: spacy.Language, text: str, spans) -> Doc:
    doc, _ = make_doc(nlp.tokenizer, text, spans)
    return nlp.get_pipe("deid_anonymizer")(doc)


def tagged_doc(nlp: spacy.Language, tagged: str) -> Doc:
    text, spans = parse_inline_tags(tagged)
    return anonymize(nlp, text, spans)


# --- configuration ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("config", "message"),
    [({"strategies": {"NAME_FOO": "mask"}}, "NAME_FOO"),
     ({"strategies": {"DATE": "blur"}}, "blur"),
     ({"lang": "xx"}, "lang"),
     ({"age_group_over": -1}, "age_group_over")],
)
def test_bad_config_fails_at_add_pipe(config, message):
    nlp = spacy.blank("xx")
    with pytest.raises(ValueError, match=message):
        nlp.add_pipe("deid_anonymizer", config={"lang": "de", **config})


def test_language_defaults_to_the_tokenizer_language():
    assert blank("tr").get_pipe("deid_anonymizer").lang == "tr"


def test_factory_is_an_entry_point():
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="spacy_factories")}
    assert "deid_anonymizer" in names


def test_secret_key_from_the_environment(monkeypatch):
    monkeypatch.setenv("DEID_TEST_KEY", "k")
    assert blank("de", secret_key="env:DEID_TEST_KEY").get_pipe(
        "deid_anonymizer").generator.secret_key == "k"
    monkeypatch.delenv("DEID_TEST_KEY")
    with pytest.raises(ValueError, match="DEID_TEST_KEY"):
        blank("de", secret_key="env:DEID_TEST_KEY")


def test_a_document_key_replaces_the_component_key_and_is_cleared():
    nlp = blank("de", secret_key="component-key")
    text, spans = parse_inline_tags("<NAME_PATIENT>Anna Roth</NAME_PATIENT> am "
                                    "<DATE>5.7.2020</DATE>")

    def run(key):
        doc, _ = make_doc(nlp.tokenizer, text, spans)
        doc._.deid_secret_key = key
        doc = nlp.get_pipe("deid_anonymizer")(doc)
        assert doc._.deid_secret_key is None
        return doc._.deid_text

    assert run("patient-1") == run("patient-1") != run("patient-2")
    assert run(None) == run("component-key") != run("patient-1")


# --- strategies and records -------------------------------------------------------------

def test_strategies_and_replacement_records():
    nlp = blank("de", strategies={"NAME_PATIENT": "tag", "DATE": "mask", "ID": "redact"},
                reversible=True)
    doc = tagged_doc(nlp, "Frau <NAME_PATIENT>Anna Roth</NAME_PATIENT> (<AGE>93</AGE>) am "
                          "<DATE>5.7.54</DATE>, Nr. <ID>A-17</ID>, in <LOCATION_CITY>Köln"
                          "</LOCATION_CITY>.")
    assert doc._.deid_text.startswith("Frau [NAME_PATIENT] (93) am ******, Nr. , in ")
    assert "Köln" not in doc._.deid_text
    records = {r["label"]: r for r in doc._.deid_replacements}
    assert "AGE" not in records  # kept by default
    assert records["LOCATION_CITY"]["original"] == "Köln"
    assert DEFAULT_STRATEGIES["AGE"] == "keep" and DEFAULT_STRATEGIES["OTHER"] == "tag"


def test_originals_only_with_reversible():
    doc = tagged_doc(blank("de"), "<NAME_PATIENT>Anna Roth</NAME_PATIENT>")
    assert "original" not in doc._.deid_replacements[0]


def test_age_grouping_with_keep():
    doc = tagged_doc(blank("en", age_group_over=89), "aged <AGE>93</AGE> and <AGE>45</AGE>")
    assert doc._.deid_text == "aged 90+ and 45"


def test_overlapping_spans_are_merged_into_their_union():
    assert [(s.start, s.end, s.label) for s in merge_spans(
        [(0, 5, "NAME_PATIENT"), (3, 12, "LOCATION_CITY"), (20, 24, "PERSON")])] == [
        (0, 12, "LOCATION_CITY"), (20, 24, "NAME_OTHER")]
    nlp = blank("de", strategies={"NAME_PATIENT": "tag", "LOCATION_CITY": "tag"})
    doc = nlp.make_doc("Herr Maximilian Müller Berlin kam")
    doc.ents = [Span(doc, 1, 3, "NAME_PATIENT")]
    doc.spans["deid_candidates"] = [Span(doc, 2, 4, "LOCATION_CITY"), Span(doc, 2, 3, "OTHER")]
    doc = nlp.get_pipe("deid_anonymizer")(doc)
    assert doc._.deid_text == "Herr [NAME_PATIENT] kam"


# --- edge cases ---------------------------------------------------------------------------

def test_empty_doc_and_doc_without_entities():
    nlp = blank("de")
    assert nlp("")._.deid_text == "" and nlp("")._.deid_replacements == []
    assert nlp("Keine Angaben.")._.deid_text == "Keine Angaben."


def test_markup_and_mixed_scripts():
    nlp = blank("ru")
    doc = tagged_doc(nlp, "<b>{$x}</b> &amp; <NAME_PATIENT>Иван Smith</NAME_PATIENT> [1] "
                          "\\n <CONTACT_EMAIL>a.b@x.org</CONTACT_EMAIL> <ID>ﺏ-12</ID>")
    assert doc._.deid_text.startswith("<b>{$x}</b> &amp; ")
    for original in ("Иван", "Smith", "a.b@x.org", "ﺏ-12"):
        assert original not in doc._.deid_text


def test_one_megabyte_document():
    nlp = blank("en")
    nlp.max_length = 2_000_000
    block = "Patient {name} seen on {date} by Dr. Lee, phone {phone}. "
    pieces, offsets, cursor, index = [], [], 0, 0
    while cursor < 1_000_000:
        values = {"name": f"Name{index % 500} Doe", "date": f"03/{index % 28 + 1:02d}/2020",
                  "phone": f"555-{index % 9000 + 1000}"}
        text = block.format(**values)
        for key, label in (("name", "NAME_PATIENT"), ("date", "DATE"), ("phone", "CONTACT_PHONE")):
            start = cursor + text.index(values[key])
            offsets.append((start, start + len(values[key]), label))
        pieces.append(text)
        cursor += len(text)
        index += 1
    doc = nlp.make_doc("".join(pieces))
    doc.ents = [doc.char_span(start, end, label=label) for start, end, label in offsets]
    doc = nlp.get_pipe("deid_anonymizer")(doc)
    assert len(doc._.deid_replacements) == len(offsets)
    assert "Name17 Doe" not in doc._.deid_text
    assert len(doc._.deid_text) > 900_000


# --- properties (hypothesis) ---------------------------------------------------------------

WORD = st.text(alphabet="qxzjQXZJ0129ßж", min_size=6, max_size=10)
PLAIN = st.sampled_from(["und", "the", "am", ",", ".", "(", ")", "<b>", "&", "—"])


@st.composite
def documents(draw):
    """Words with entity candidates: (words, spaces, entity token ranges, labels)."""
    n = draw(st.integers(1, 25))
    words = [draw(st.one_of(WORD, PLAIN)) for _ in range(n)]
    spaces = [draw(st.booleans()) for _ in range(n)]
    ranges = []
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start + 1, min(n, start + 3)))
        ranges.append((start, end, draw(st.sampled_from(PHI_LABELS))))
    return words, spaces, ranges


def build(nlp, words, spaces, ranges):
    doc = Doc(nlp.vocab, words=words, spaces=spaces)
    spans = [Span(doc, s, e, label) for s, e, label in ranges]
    doc.ents = spacy.util.filter_spans(spans)
    doc.spans["deid_candidates"] = spans
    return nlp.get_pipe("deid_anonymizer")(doc), spans


ALL_REPLACE = {label: "surrogate" for label in PHI_LABELS}
NLP_BY_STRATEGY = {
    strategy: blank("de", seed=5, reversible=True,
                    strategies={label: strategy for label in PHI_LABELS})
    for strategy in ("surrogate", "mask", "redact", "tag")
}
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(documents(), st.sampled_from(sorted(NLP_BY_STRATEGY)))
def test_offsets_match_both_texts(document, strategy):
    doc, spans = build(NLP_BY_STRATEGY[strategy], *document)
    text, out = doc.text, doc._.deid_text
    cursor = out_cursor = 0
    for record in doc._.deid_replacements:
        assert text[cursor:record["start"]] == out[out_cursor:record["out_start"]]
        assert text[record["start"]:record["end"]] == record["original"]
        assert out[record["out_start"]:record["out_end"]] == record["surrogate"]
        cursor, out_cursor = record["end"], record["out_end"]
    assert text[cursor:] == out[out_cursor:]
    covered = {i for r in doc._.deid_replacements for i in range(r["start"], r["end"])}
    # every character of every span is replaced, except markup at a span's edges
    trimmed = [trim_span(text, span.start_char, span.end_char) for span in spans]
    assert all(i in covered for start, end in trimmed for i in range(start, end))


@PROPERTY_SETTINGS
@given(documents(), st.sampled_from(sorted(NLP_BY_STRATEGY)))
def test_no_original_survives(document, strategy):
    doc, _ = build(NLP_BY_STRATEGY[strategy], *document)
    records = doc._.deid_replacements
    kept = list(doc.text)
    for record in records:
        kept[record["start"]:record["end"]] = [""] * (record["end"] - record["start"])
    untouched = "\x00".join("".join(kept).split("\x00"))
    for record in records:
        for word in re.findall(r"[qxzjQXZJ0129ßж]{6,}", record["original"]):
            if word not in untouched:
                assert word not in doc._.deid_text


@PROPERTY_SETTINGS
@given(documents())
def test_same_original_same_surrogate_and_deterministic(document):
    doc, _ = build(NLP_BY_STRATEGY["surrogate"], *document)
    seen = defaultdict(set)
    for record in doc._.deid_replacements:
        kind = "name" if record["label"].startswith("NAME_") and record["label"] not in (
            "NAME_TITLE", "NAME_USERNAME") else record["label"]
        seen[(kind, record["original"])].add(record["surrogate"])
    assert all(len(surrogates) == 1 for surrogates in seen.values())
    again, _ = build(blank("de", seed=5, reversible=True, strategies=ALL_REPLACE), *document)
    assert again._.deid_text == doc._.deid_text


# --- real corpus documents --------------------------------------------------------------

NUMERIC_DATE = re.compile(r"^(\d{2})\.(\d{2})\.(\d{4})$")


def replica(lang: str, name: str = "Albers.txt") -> str:
    return (CORPUS / lang / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", REPLICA_LANGUAGES)
def test_corpus_document(lang):
    nlp = blank(lang, seed=11, reversible=True)
    doc = tagged_doc(nlp, replica(lang))
    records = doc._.deid_replacements
    assert records
    by_original = defaultdict(set)
    intervals = []
    untouched, cursor = [], 0
    for record in records:
        untouched.append(doc.text[cursor:record["start"]])
        cursor = record["end"]
    untouched = "\x00".join(untouched + [doc.text[cursor:]])
    for record in records:
        original, new = record["original"], record["surrogate"]
        by_original[(record["label"], original)].add(new)
        if record["label"] in ("NAME_PATIENT", "NAME_DOCTOR") and len(original) > 3:
            assert doc._.deid_text.count(original) <= untouched.count(original)
        if record["label"] == "DATE":
            assert new != original
            assert [c.isdigit() for c in new] != [] and len(new.split()) == len(original.split())
            a, b = NUMERIC_DATE.match(original), NUMERIC_DATE.match(new)
            if a:
                assert b, (original, new)
                intervals.append((dt.date(*map(int, a.groups()[::-1])),
                                  dt.date(*map(int, b.groups()[::-1]))))
        if record["label"] in ("CONTACT_PHONE", "CONTACT_FAX", "ID", "LOCATION_ZIP"):
            assert [c.isdigit() for c in new] == [c.isdigit() for c in original]
    assert all(len(v) == 1 for v in by_original.values())
    offsets = {new - old for old, new in intervals}
    assert len(offsets) <= 1


@pytest.mark.parametrize("lang", ["en", "fr", "it", "tr", "ar", "fa"])
def test_surname_mentions_reuse_the_full_name_surrogate(lang):
    nlp = blank(lang, seed=2, reversible=True)
    doc = tagged_doc(nlp, replica(lang))
    names = [r for r in doc._.deid_replacements if r["label"] == "NAME_PATIENT"]
    full = next(r for r in names if len(r["original"].split()) >= 2)
    surname = full["original"].split()[-1]
    for record in names:
        if record["original"] == surname:
            assert record["surrogate"] == full["surrogate"].split()[-1]


def test_german_letter_with_uppercase_letterhead():
    nlp = blank("de", seed=4, reversible=True)
    doc = tagged_doc(nlp, "<NAME_PATIENT>MÜLLER, ANNA</NAME_PATIENT>\nSehr geehrte Frau "
                          "<NAME_PATIENT>Müller</NAME_PATIENT>, am <DATE>27. März 2025</DATE> "
                          "und <DATE>8.3.</DATE> in <LOCATION_CITY>Köln</LOCATION_CITY>.")
    head, salutation = (r["surrogate"] for r in doc._.deid_replacements[:2])
    assert head.isupper() and head.split(",")[0] == salutation.upper()
    assert re.fullmatch(r"\d{1,2}\. \w+ \d{4}", doc._.deid_replacements[2]["surrogate"])
