"""A registered tokenizer: the language's own spaCy rules plus splits at PHI boundaries.

Packaged pipelines are named `xx_deid_<lang>`, so `nlp.lang` is "xx"; this
tokenizer brings back the rules of the real language (`lang` in the config) and
adds the splits that de-identification needs: a title glued to a name
(`Hr.Baastrup`), Turkish case suffixes after an apostrophe (`Ankara'da`), and
Arabic/Persian one-letter proclitics before digits (`و2020`).
"""

from __future__ import annotations

from collections.abc import Callable

import spacy
from spacy.lang.char_classes import ALPHA, ALPHA_LOWER, ALPHA_UPPER
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

from .labels import validate_language

# Splits that apply in every language.
COMMON_INFIXES: tuple[str, ...] = (
    # a period between a lowercase and an uppercase letter: "Hr.Baastrup", "Dr.Meier"
    rf"(?<=[{ALPHA_LOWER}])\.(?=[{ALPHA_UPPER}])",
    # a slash or hyphen between letters and digits: "Station3/Zimmer", "Fax-0221"
    rf"(?<=[{ALPHA}])[/-](?=[0-9])",
    rf"(?<=[0-9])[/-](?=[{ALPHA}])",
    # a colon, semicolon or comma glued between a letter and a digit: "Tel.:0221", "geb.12.3."
    rf"(?<=[{ALPHA}.])[:;,](?=[0-9])",
    # a period between a letter and a digit: "geb.12.03.1950", "Str.5"
    rf"(?<=[{ALPHA}])\.(?=[0-9])",
)

EXTRA_INFIXES: dict[str, tuple[str, ...]] = {
    # Turkish writes case suffixes on proper names after an apostrophe.
    "tr": (rf"(?<=[{ALPHA}0-9.])['’](?=[{ALPHA}])",),
}

EXTRA_PREFIXES: dict[str, tuple[str, ...]] = {
    # Arabic/Persian conjunction or preposition written onto a number: "و2020", "ب12"
    "ar": (r"[وبلفك](?=[0-9٠-٩])",),
    "fa": (r"[وبکه](?=[0-9۰-۹])",),
}

EXTRA_SUFFIXES: dict[str, tuple[str, ...]] = {
    # "12.3.2020г." style year markers in Russian and Ukrainian
    "ru": (r"(?<=[0-9])(?:г\.|гг\.|г)",),
    "uk": (r"(?<=[0-9])(?:р\.|рр\.|р)",),
}


def build_tokenizer(nlp: Language, lang: str) -> Tokenizer:
    """Build `lang`'s default tokenizer for `nlp`'s vocab, with the PHI boundary rules added."""
    defaults = spacy.util.get_lang_class(lang).Defaults
    prefixes = list(EXTRA_PREFIXES.get(lang, ())) + list(defaults.prefixes or ())
    suffixes = list(EXTRA_SUFFIXES.get(lang, ())) + list(defaults.suffixes or ())
    infixes = list(defaults.infixes or ()) + list(COMMON_INFIXES) + list(EXTRA_INFIXES.get(lang, ()))
    return Tokenizer(
        nlp.vocab,
        rules=dict(defaults.tokenizer_exceptions or {}),
        prefix_search=compile_prefix_regex(prefixes).search,
        suffix_search=compile_suffix_regex(suffixes).search,
        infix_finditer=compile_infix_regex(infixes).finditer,
        token_match=defaults.token_match,
        url_match=defaults.url_match,
    )


@spacy.registry.tokenizers("spacy_deid.Tokenizer.v1")
def create_deid_tokenizer(lang: str) -> Callable[[Language], Tokenizer]:
    """Registered factory: `[nlp.tokenizer] @tokenizers = "spacy_deid.Tokenizer.v1"`."""
    validate_language(lang)

    def make_tokenizer(nlp: Language) -> Tokenizer:
        return build_tokenizer(nlp, lang)

    return make_tokenizer
