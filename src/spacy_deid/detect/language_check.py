"""The `deid_language_check` component: warns when a text is clearly in another language.

Every pipeline is trained for one language; a letter in another language through it
leaks most of its identifiers without any sign of trouble. This component, first in the
pipeline, guesses the text's language with `spacy_deid.lang.identify` (scripts and
function words of the ten languages; no model) and sets `doc._.deid_language` to a dict:
`lang` (the likeliest language, None without any cue), `confidence` (its share of the
scores), `expected` (the pipeline's language) and `mismatch` (whether the text is clearly
not in `expected`). On a mismatch it emits a `LanguageMismatchWarning` with
`warnings.warn` (Python's warning filters decide whether it is shown, raised or ignored);
the message names the two languages and never quotes the text.

Short or ambiguous texts never count as a mismatch (`is_clear_mismatch`): fewer than
`min_words` words, less than `min_cues` of function-word and letter evidence, or more than
`max_expected_share` of the evidence for the pipeline's own language. The component
changes nothing else on the Doc.
"""

from __future__ import annotations

import warnings

from spacy.language import Language
from spacy.tokens import Doc

from spacy_deid.extensions import register_extensions
from spacy_deid.lang import pipeline_language
from spacy_deid.lang.identify import (
    MAX_EXPECTED_SHARE,
    MIN_CUES,
    MIN_WORDS,
    LanguageMismatchWarning,
    identify_language,
    is_clear_mismatch,
)


class LanguageCheck:
    """Sets `doc._.deid_language` and warns on a clear language mismatch."""

    def __init__(self, name: str, lang: str, min_words: int = MIN_WORDS,
                 min_cues: float = MIN_CUES, max_expected_share: float = MAX_EXPECTED_SHARE,
                 warn: bool = True) -> None:
        register_extensions()
        if min_words < 0 or min_cues < 0:
            raise ValueError("deid_language_check: settings 'min_words' and 'min_cues' must "
                             "be >= 0")
        if not 0.0 <= max_expected_share <= 1.0:
            raise ValueError("deid_language_check: setting 'max_expected_share' must be in "
                             "[0, 1]")
        self.name = name
        self.lang = lang
        self.min_words = min_words
        self.min_cues = min_cues
        self.max_expected_share = max_expected_share
        self.warn = warn

    def __call__(self, doc: Doc) -> Doc:
        guess = identify_language(doc.text)
        mismatch = is_clear_mismatch(guess, self.lang, self.min_words, self.min_cues,
                                     self.max_expected_share)
        doc._.deid_language = {"lang": guess.lang, "confidence": guess.confidence,
                               "expected": self.lang, "mismatch": mismatch}
        if mismatch and self.warn:
            warnings.warn(
                f"{self.name}: the text reads as {guess.lang!r} (confidence "
                f"{guess.confidence:.2f}), not as the pipeline's language {self.lang!r}; "
                f"detection is unreliable on it. Use the {guess.lang!r} pipeline.",
                LanguageMismatchWarning, stacklevel=2)
        return doc


@Language.factory(
    "deid_language_check",
    assigns=["doc._.deid_language"],
    default_config={"lang": None, "min_words": MIN_WORDS, "min_cues": MIN_CUES,
                    "max_expected_share": MAX_EXPECTED_SHARE, "warn": True},
)
def make_language_check(nlp: Language, name: str, lang: str | None, min_words: int,
                        min_cues: float, max_expected_share: float,
                        warn: bool) -> LanguageCheck:
    """Factory of `deid_language_check`: `lang` (null: the pipeline's tokenizer language),
    the thresholds of a clear mismatch (module docstring) and `warn` (false: only set
    `doc._.deid_language`)."""
    return LanguageCheck(name, pipeline_language(nlp, lang, "deid_language_check"), min_words,
                         min_cues, max_expected_share, warn)
