"""Long texts: chunk bounds, entities at chunk edges, one anonymization over the whole text."""

import spacy
from hypothesis import given
from hypothesis import strategies as st

import spacy_deid  # noqa: F401  (registers the extensions)
from spacy_deid.chunking import chunk_bounds, detect_in_chunks, process_long


def pipeline() -> spacy.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.Tokenizer.v1",
                                                          "lang": "de"}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": [{"TEXT": "Anna"}, {"TEXT": "Berg"}]}])
    nlp.add_pipe("deid_anonymizer", config={"strategies": {"NAME_PATIENT": "tag"}})
    return nlp


@given(st.text(alphabet="ab \n", max_size=300), st.integers(min_value=1, max_value=40))
def test_chunks_cover_the_text_in_order_within_the_limit(text, max_chars):
    bounds = chunk_bounds(text, max_chars)
    assert "".join(text[start:end] for start, end in bounds) == text
    assert all(0 < end - start <= max_chars for start, end in bounds)


def test_chunks_end_at_paragraphs_before_lines_before_words():
    text = "one two\nthree\n\nfour five six"
    assert chunk_bounds(text, 20) == [(0, 15), (15, len(text))]
    assert chunk_bounds("one two\nthree four", 12) == [(0, 8), (8, 18)]
    assert chunk_bounds("abcdefgh", 3) == [(0, 3), (3, 6), (6, 8)]


def test_an_entity_across_a_chunk_edge_is_kept_whole():
    nlp = pipeline()
    text = "x " * 10 + "Anna Berg kam."
    start = text.index("Anna")
    found = list(detect_in_chunks(nlp, text, max_chars=start + 3, context_chars=20))
    assert found == [(start, start + len("Anna Berg"), "NAME_PATIENT")]


def test_a_long_text_is_anonymized_whole_and_nothing_else_changes():
    nlp = pipeline()
    paragraph = "Patientin Anna Berg wurde aufgenommen.\n\n"
    text = paragraph * 50
    doc = process_long(nlp, text, max_chars=200, context_chars=30)
    assert len(doc.ents) == 50
    assert doc._.deid_text == text.replace("Anna Berg", "[NAME_PATIENT]")


def test_a_short_text_goes_through_the_pipeline_unchanged():
    nlp = pipeline()
    doc = process_long(nlp, "Anna Berg", max_chars=100)
    assert doc._.deid_text == "[NAME_PATIENT]"


def test_a_doc_keeps_its_extensions_for_the_anonymizer():
    nlp = pipeline()
    nlp.get_pipe("deid_anonymizer").strategies["NAME_PATIENT"] = "surrogate"
    text = "Patientin Anna Berg wurde aufgenommen.\n\n" * 10

    def run(key):
        doc = nlp.make_doc(text)
        doc._.deid_secret_key = key
        return process_long(nlp, doc, max_chars=100, context_chars=20)._.deid_text

    assert run("k1") == run("k1") != run("k2")
    assert "Anna Berg" not in run("k1")
