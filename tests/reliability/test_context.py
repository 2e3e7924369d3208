"""`IndexedContextEnhancer` gives exactly the scores of Presidio's own lemma context
enhancer, and the component's overlap choice and merge give what their plain all-pairs
definitions give."""

from __future__ import annotations

import functools
import warnings

import pytest
import spacy
from hypothesis import given
from hypothesis import strategies as st
from presidio_analyzer import AnalyzerEngine, RecognizerResult
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from spacy.tokens import Span

from spacy_deid.presidio.context import IndexedContextEnhancer, token_ends
from spacy_deid.presidio.patterns import choose_non_overlapping
from spacy_deid.presidio.recognizers import normalize_digits

TEXTS = {
    "de": [
        "Patientin Gerda Hufnagel, geb. 03.07.1961, Tel. 0911 4567890, Fax: 0911 4567891.\n"
        "Versichertennummer A123456780, Fallnummer 31857924, Aufnahme am 12.03.2024.\n"
        "Vermerk 31857924 abgelegt. PLZ 90402 Nürnberg, IBAN DE89370400440532013000.",
        "  \n\nTel.0911-4567890 (Zentrale); Aktenzeichen: 2057113 vom 1. März 2023;"
        " E-Mail hufnagel@example.de, www.klinik-nuernberg.de/kardiologie",
    ],
    "pl": [
        "Szpital Miejski, ul. Długa 5, 76-200 Słupsk, tel.: 52 585 42 23, faks: 52 585 43 38, "
        "e-mail: sekretariat@szpital.pl. Przyjęty 12.03.2024, PESEL 44051401359, nr 601482937.",
    ],
    "en": [
        "Patient John Smith, DOB 03/07/1961, phone (212) 555-0143, MRN 004512987, "
        "seen on March 12, 2024. Fax 212-555-0199. SSN 078-05-1120, zip code 10027.",
    ],
}


def blank(lang: str) -> spacy.language.Language:
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})


@functools.cache
def component(lang: str, merge_policy: str = "ner_first"):
    nlp = blank(lang)
    nlp.add_pipe("deid_presidio_patterns", config={"lang": lang, "merge_policy": merge_policy})
    return nlp, nlp.get_pipe("deid_presidio_patterns")


def presidio_reference(patterns) -> AnalyzerEngine:
    """The component's analyzer with Presidio's own enhancer in place of ours."""
    ours = patterns.analyzer.context_aware_enhancer
    theirs = LemmaContextAwareEnhancer(
        context_similarity_factor=ours.context_similarity_factor,
        min_score_with_context_similarity=ours.min_score_with_context_similarity,
        context_prefix_count=ours.context_prefix_count,
        context_suffix_count=ours.context_suffix_count,
        context_matching_mode=ours.context_matching_mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return AnalyzerEngine(registry=patterns.analyzer.registry,
                              nlp_engine=patterns.nlp_engine,
                              supported_languages=[patterns.lang],
                              context_aware_enhancer=theirs)


def outcome(results: list[RecognizerResult]) -> list[tuple]:
    return sorted((r.start, r.end, r.entity_type, r.score,
                   r.analysis_explanation.supportive_context_word if r.analysis_explanation
                   else None) for r in results)


def cases() -> list[tuple[str, str, list[str] | None]]:
    found = [(lang, text, None) for lang, texts in TEXTS.items() for text in texts]
    found += [(lang, texts[0] * 40, None) for lang, texts in TEXTS.items()]
    return found + [(lang, texts[-1], ["tel", "geb", "nr"]) for lang, texts in TEXTS.items()]


@pytest.mark.parametrize("lang,text,context", cases())
def test_same_scores_as_presidio(lang, text, context):
    nlp, patterns = component(lang)
    assert isinstance(patterns.analyzer.context_aware_enhancer, IndexedContextEnhancer)
    reference = presidio_reference(patterns)
    doc = nlp.make_doc(text)
    normalized = normalize_digits(text)
    ours = patterns.analyzer.analyze(normalized, language=lang, context=context,
                                     nlp_artifacts=patterns._artifacts(doc),
                                     return_decision_process=True)
    theirs = reference.analyze(normalized, language=lang, context=context,
                               nlp_artifacts=patterns._artifacts(doc),
                               return_decision_process=True)
    assert outcome(ours) == outcome(theirs)
    boosted = [r for r in ours if r.analysis_explanation.supportive_context_word]
    assert boosted, "the text should have matches that context words raise"


def test_tokens_that_do_not_allow_bisection_fall_back_to_presidio():
    nlp, patterns = component("de")
    doc = nlp.make_doc("Tel. 0911 4567890")
    artifacts = patterns._artifacts(doc)
    assert token_ends(artifacts) == [t.idx + len(t) for t in doc]
    artifacts.tokens_indices = list(reversed(artifacts.tokens_indices))
    assert token_ends(artifacts) is None
    artifacts.tokens_indices = artifacts.tokens_indices[:-1]
    assert token_ends(artifacts) is None


intervals = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 12),
                               st.sampled_from([0.3, 0.4, 0.75, 1.0])), max_size=40)


@given(intervals)
def test_choose_non_overlapping_matches_the_all_pairs_rule(raw):
    results = [RecognizerResult("X", start, start + length, score)
               for start, length, score in raw]
    expected: list[RecognizerResult] = []
    for result in sorted((r for r in results if r.end > r.start),
                         key=lambda r: (-r.score, -(r.end - r.start), r.start)):
        if all(result.end <= other.start or other.end <= result.start for other in expected):
            expected.append(result)
    expected.sort(key=lambda r: r.start)
    assert choose_non_overlapping(results) == expected


def all_pairs_merge(patterns, existing, found):
    kept = list(existing)
    for span in found:
        overlapping = [ent for ent in kept if ent.start < span.end and span.start < ent.end]
        if not overlapping:
            kept.append(span)
        elif patterns.pattern_wins(span, overlapping):
            kept = [ent for ent in kept if ent not in overlapping] + [span]
    return sorted(kept, key=lambda ent: ent.start)


def non_overlapping(doc, bounds, label):
    spans, end = [], 0
    for gap, length in bounds:
        start = end + gap
        if start + length > len(doc) or length == 0:
            break
        spans.append(Span(doc, start, start + length, label=label))
        end = start + length
    return spans


pairs = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)), max_size=15)


@pytest.mark.parametrize("policy", ["ner_first", "patterns_first", "longest"])
@given(existing=pairs, found=pairs, scores=st.lists(st.sampled_from([0.4, 1.0]), max_size=15))
def test_merge_matches_the_all_pairs_rule(policy, existing, found, scores):
    nlp, patterns = component("de", policy)
    doc = nlp.make_doc(" ".join(f"w{i}" for i in range(60)))
    ents = non_overlapping(doc, existing, "NAME_PATIENT")
    spans = non_overlapping(doc, found, "DATE")
    for span, score in zip(spans, scores, strict=False):
        span._.deid_score = score
    assert patterns.merge(ents, spans) == all_pairs_merge(patterns, ents, spans)
