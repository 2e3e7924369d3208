"""Markup, control characters and odd Unicode never shield a name.

Known names are wrapped in random HTML/XML tags, character entities, control characters,
zero-width characters and bidi marks inside a letter-like text. On a small pipeline (the
deid tokenizer, an entity ruler that knows the names, the anonymizer) and on the Presidio
path (the same pipeline in Presidio's AnalyzerEngine, our surrogate operator), no name
survives, and every character outside the replaced spans, the markup included, comes back
unchanged.
"""

from __future__ import annotations

import warnings

import pytest
import spacy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_deid.lang.markup import trim_span
from spacy_deid.presidio.analyzer import build_analyzer
from spacy_deid.presidio.operator import anonymize as presidio_anonymize

NAMES = {
    "de": ("Annegret", "Hufnagel"),
    "pl": ("Grażyna", "Wiśniewska"),
}
LETTERS = {
    "de": ("Sehr geehrter Herr Kollege,\n\nwir berichten über Ihre Patientin Frau {name}, die "
           "sich vom 04.03.2024 bis 14.03.2024 in unserer Behandlung befand. {surname} klagte "
           "über Husten und Fieber. Wir entlassen Frau {surname} in gutem Zustand.\n\n"
           "Mit freundlichen Grüßen"),
    "pl": ("Szanowny Panie Doktorze,\n\nuprzejmie informujemy, że pacjentka Pani {name} "
           "przebywała w naszym oddziale od 04.03.2024 do 14.03.2024. Pani {surname} skarżyła "
           "się na kaszel i gorączkę. {surname} została wypisana w stanie dobrym.\n\n"
           "Z wyrazami szacunku"),
}
PIECES = ["<b>", "</b>", "<i>", "</i>", "<nachname>", "</nachname>", "<p>", "</p>", "<br/>",
          "<td>", "</td>", '<span class="pat">', "</span>", "<a href='mailto:x@klinik.de'>",
          "</a>", "&amp;", "&nbsp;", "&#160;", "&#x27;", "&lt;", "&gt;", "\x00", "\x07", "\x1b",
          "\x7f", "\u200b", "\u2060", "\ufeff", "\u200e", "\u200f", "\u202a", "\u202e",
          "\u202c", "\u2066", "\u2069", " ", "\n"]
# What may stand between a first name and a surname.
SEPARATORS = [" ", "<br>", "&nbsp;", "\u200b", " \x07 ", "</b> <b>", "\u202e", "\n"]

wrapping = st.lists(st.sampled_from(PIECES), max_size=3).map("".join)


@st.composite
def letters(draw, lang: str) -> str:
    first, last = NAMES[lang]
    name = (draw(wrapping) + first + draw(st.sampled_from(SEPARATORS)) + last
            + draw(wrapping))
    surnames = [draw(wrapping) + last + draw(wrapping) for _ in range(2)]
    template = LETTERS[lang]
    text = template.replace("{name}", name, 1)
    for surname in surnames:
        text = text.replace("{surname}", surname, 1)
    return draw(wrapping) + text + draw(wrapping)


def small_pipeline(lang: str) -> spacy.Language:
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "NAME_PATIENT", "pattern": [{"TEXT": word}]}
                        for word in NAMES[lang]])
    return nlp


PIPELINES = {}
for _lang in NAMES:
    PIPELINES[_lang] = small_pipeline(_lang)
    PIPELINES[_lang].add_pipe("deid_anonymizer", config={"seed": 3})

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def assert_only_spans_changed(text: str, out: str, spans: list[tuple[int, int, int, int]]):
    """`spans`: (start, end) in `text` and (out_start, out_end) in `out`, in text order."""
    cursor = out_cursor = 0
    for start, end, out_start, out_end in spans:
        assert text[cursor:start] == out[out_cursor:out_start]
        cursor, out_cursor = end, out_end
    assert text[cursor:] == out[out_cursor:]


def assert_no_name_survives(lang: str, out: str):
    for word in NAMES[lang]:
        assert word not in out


@pytest.mark.parametrize("lang", sorted(NAMES))
@SETTINGS
@given(data=st.data())
def test_no_name_survives_markup_in_the_spacy_pipeline(lang, data):
    text = data.draw(letters(lang))
    doc = PIPELINES[lang](text)
    # every mention is its own name token
    assert sum(ent.text in NAMES[lang] for ent in doc.ents) == 4
    out = doc._.deid_text
    assert_no_name_survives(lang, out)
    records = doc._.deid_replacements
    assert_only_spans_changed(text, out, [(r["start"], r["end"], r["out_start"], r["out_end"])
                                          for r in records])


@pytest.fixture(scope="module")
def analyzers(tmp_path_factory):
    built = {}
    for lang in NAMES:
        nlp = small_pipeline(lang)
        nlp.add_pipe("deid_presidio_patterns", config={"lang": lang})
        path = tmp_path_factory.mktemp(f"shield_{lang}") / "pipeline"
        nlp.to_disk(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            built[lang] = build_analyzer(lang, path)
    return built


@pytest.mark.parametrize("lang", sorted(NAMES))
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_name_survives_markup_on_the_presidio_path(analyzers, lang, data):
    text = data.draw(letters(lang))
    results = analyzers[lang].analyze(text, language=lang)
    output = presidio_anonymize(text, results, lang, seed=3)
    assert_no_name_survives(lang, output.text)
    inputs = sorted(trim_span(text, r.start, r.end) for r in results)
    inputs = [span for span in inputs if span[1] > span[0]]
    items = sorted(output.items, key=lambda item: item.start)
    assert len(items) == len(inputs)
    pairs = zip(inputs, items, strict=True)
    assert_only_spans_changed(text, output.text, [(start, end, item.start, item.end)
                                                  for (start, end), item in pairs])
