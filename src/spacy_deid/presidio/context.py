"""A context enhancer with Presidio's scores in time linear in the length of the text.

Presidio's `LemmaContextAwareEnhancer` finds the token of every match by walking the
tokens from the start of the text, and tests each word near the match for membership
in the list of all keywords of the text: two scans of the whole text per match, so its
time grows with the square of the text's length (about 26 s for a 195,000-character
text). `IndexedContextEnhancer` makes the same decisions from an index built once per
text: the end offset of every token, searched by bisection, and the keywords as a set.
Where the tokens do not allow the bisection (an empty token, end offsets that decrease),
it falls back to Presidio's own token search, so the scores are Presidio's in every case.
"""

from __future__ import annotations

import copy
from bisect import bisect_right

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.nlp_engine import NlpArtifacts

# Attribute of the indexed copy of the NLP artifacts: the end offset of every token.
TOKEN_ENDS = "deid_token_ends"


def token_ends(nlp_artifacts: NlpArtifacts) -> list[int] | None:
    """End offsets of the tokens, or None where a bisection would not find Presidio's
    token: an empty token, end offsets that decrease, or offsets that do not match the
    tokens one to one."""
    starts = nlp_artifacts.tokens_indices
    tokens = nlp_artifacts.tokens
    if len(starts) != len(tokens):
        return None
    ends = []
    previous = -1
    for start, token in zip(starts, tokens, strict=True):
        end = start + len(token)
        if end <= start or end < previous:
            return None
        ends.append(end)
        previous = end
    return ends


def indexed_artifacts(nlp_artifacts: NlpArtifacts) -> NlpArtifacts:
    """A shallow copy of `nlp_artifacts` with the keywords as a set and the token end
    offsets attached (the caller's artifacts are left as they are)."""
    indexed = copy.copy(nlp_artifacts)
    indexed.keywords = frozenset(nlp_artifacts.keywords or ())
    setattr(indexed, TOKEN_ENDS, token_ends(nlp_artifacts))
    return indexed


class IndexedContextEnhancer(LemmaContextAwareEnhancer):
    """Presidio's lemma context enhancer (same settings, same scores) in linear time.

    The token of a match is the first token that ends after the match's start (Presidio:
    the first token that starts at it or covers it; the same token when no token is
    empty and offsets increase), found by bisection; the context words are the same
    `context_prefix_count` keywords before and `context_suffix_count` after it.
    """

    def enhance_using_context(
        self,
        text: str,
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,
        recognizers: list[EntityRecognizer],
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """Presidio's `enhance_using_context` over an index of the artifacts."""
        if nlp_artifacts is not None and nlp_artifacts.tokens and raw_results:
            nlp_artifacts = indexed_artifacts(nlp_artifacts)
        return super().enhance_using_context(text, raw_results, nlp_artifacts, recognizers,
                                             context)

    def _extract_surrounding_words(self, nlp_artifacts: NlpArtifacts, word: str,
                                   start: int) -> list[str]:
        """The keywords around the token at `start` (Presidio's choice of words; the words
        are not logged, since they are text of the document)."""
        ends = getattr(nlp_artifacts, TOKEN_ENDS, None)
        if ends is None:
            return super()._extract_surrounding_words(nlp_artifacts, word, start)
        index = bisect_right(ends, start)
        if index == len(ends):
            raise ValueError(f"No token covers the match at offset {start}")
        words = self._add_n_words_backward(index, self.context_prefix_count,
                                           nlp_artifacts.lemmas, nlp_artifacts.keywords)
        words += self._add_n_words_forward(index, self.context_suffix_count,
                                           nlp_artifacts.lemmas, nlp_artifacts.keywords)
        return list(set(words))
