"""A registered tokenizer: the language's own spaCy rules plus splits at PHI boundaries.

Packaged pipelines are named `xx_deid_<lang>`, so `nlp.lang` is "xx"; this
tokenizer brings back the rules of the real language (`lang` in the config) and
adds the splits that de-identification needs: a title glued to a name
(`Hr.Baastrup`), Turkish case suffixes after an apostrophe (`Ankara'da`), and
Arabic proclitics before a definite noun or a number (`والمصري`), dates glued to
words or ranges (`30.12.1987der`, `11.01.-14.01.2026`) and sentence periods after
dates (`27.03.2029.`); markup, control characters and invisible format characters
(`<b>`, `&amp;`, BEL, zero-width space, bidi marks: `spacy_deid.lang.markup`) become tokens
of their own, so that a name glued to them is a name token as usual.

The splits that all languages share are here; a language's own extra prefixes, suffixes and
infixes are in its profile (`spacy_deid.lang.profile`), with `{ALPHA}` for spaCy's letters.

These rules are the code's: a pipeline saved with an earlier version of them loads with the
current ones (`DeidTokenizer`), while its special cases (exceptions) load from disk. A change
of the rules must leave the tokens of the training corpus as they are, since the NER models
learned from those tokens (tests/lang/test_tokenizer.py checks the examples, the corpus check
in tests/reliability compares every corpus document).
"""

from __future__ import annotations

from collections.abc import Callable

import spacy
from spacy.lang.char_classes import ALPHA, ALPHA_LOWER, ALPHA_UPPER
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.markup import BIDI_MARKS, CONTROL, ENTITY, TAG, TAG_END, ZERO_WIDTH
from spacy_deid.lang.profile import TokenizerRules, language_profile

# Splits that apply in every language.
COMMON_INFIXES: tuple[str, ...] = (
    # a period between a lowercase and an uppercase letter: "Hr.Baastrup", "Dr.Meier"
    rf"(?<=[{ALPHA_LOWER}])\.(?=[{ALPHA_UPPER}])",
    # a slash or hyphen between letters and digits: "Station3/Zimmer", "Fax-0221"
    rf"(?<=[{ALPHA}])[/-](?=[0-9])",
    rf"(?<=[0-9])[/-](?=[{ALPHA}])",
    # a colon, semicolon or comma glued between a letter and a digit: "Tel.:0221", "geb.12.3."
    rf"(?<=[{ALPHA}.])[:;,](?=[0-9])",
    rf"(?<=[0-9])[:;](?=[{ALPHA}])",
    # a period between a letter and a digit: "geb.12.03.1950", "Str.5"
    rf"(?<=[{ALPHA}])\.(?=[0-9])",
    # digits glued to a following word: "30.12.1987der", "49jährig" (a zero-width split)
    rf"(?<=[0-9])(?=[{ALPHA}])",
    # date ranges and lists: "11.01.-14.01.2026", "05.2023–05.2019", "06/07.11.2024"
    r"(?<=[0-9.])[-–—](?=[0-9])",
    r"(?<=[0-9])/(?=[0-9])",
    # an opening bracket glued to a number: "2b(7/15)", "10.02.2022(1000mg"
    rf"(?<=[{ALPHA}0-9])\((?=[0-9])",
)

# Directional marks (common in Arabic and Persian text) are split off on both sides, and
# inside a token too, except after a slash: Arabic letters write one there inside a token
# ("B/\u200fPanIN", "F/\u200f8"), which the NER learned as one token.
DIRECTION_MARKS = BIDI_MARKS

# Markup and characters that are never part of a word (`spacy_deid.lang.markup`): a whole
# tag or entity, one control or zero-width character, the quote and `>` that end a tag with
# attributes (`mailto:a@b.de'>Dr`), a tag's `>` glued between a word and a letter
# (`class=x>Anna`) and the `="` that opens an attribute value (`href="https://...`). They
# come before spaCy's own affixes, which would take `<` or `&` alone.
MARKUP_PIECES: tuple[str, ...] = (TAG, ENTITY, CONTROL, ZERO_WIDTH)
MARKUP_INFIXES: tuple[str, ...] = (
    *MARKUP_PIECES,
    rf"(?<!/){DIRECTION_MARKS}",
    TAG_END,
    rf"(?<=[{ALPHA}0-9_])>(?=[{ALPHA}])",
    # the "=" and quote that open an attribute value: 'href="https://...'
    r"(?<=[A-Za-z0-9])=[\"'](?=\S)",
    # a tag glued after a word whose attributes follow: "Hufnagel<span class=...>"
    rf"(?<=[{ALPHA}0-9.,;:])</?(?=[A-Za-z][\w:.-]*$)",
)

COMMON_PREFIXES: tuple[str, ...] = (*MARKUP_PIECES, DIRECTION_MARKS)

COMMON_SUFFIXES: tuple[str, ...] = (
    *MARKUP_PIECES,
    TAG_END,
    DIRECTION_MARKS,
    # a sentence period after a year or a full date: "2006.", "27.03.2029.", "15.3.95."
    r"(?<=[0-9]{4})\.",
    r"(?<=\.[0-9]\.[0-9]{2})\.",
    r"(?<=\.[0-9]{2}\.[0-9]{2})\.",
    # a sentence period after a ward or room code: "Station 4A.", "A31.", "5Б."
    rf"(?<=[0-9][{ALPHA}])\.",
    rf"(?<=[{ALPHA}][0-9]{{2}})\.",
    # a trailing range dash or an ordinal sign: "05/2019-", "55°"
    r"(?<=[0-9])[-–°]",
    # a sentence period after a closing bracket, as Arabic and Persian text writes it: "(2033)."
    r"(?<=\))\.",
)

# spaCy's letter classes, as a language profile's rules name them.
CHARACTER_CLASSES: dict[str, str] = {
    "{ALPHA}": ALPHA,
    "{ALPHA_LOWER}": ALPHA_LOWER,
    "{ALPHA_UPPER}": ALPHA_UPPER,
}


# "xx": spaCy's multi-language rules plus every language's extra splits (multilingual model).
MULTILINGUAL = "xx"


def check_tokenizer_language(lang: str) -> str:
    """Return `lang` if spaCy has rules for it, else raise a ValueError naming it."""
    if lang in LANGUAGES or lang == MULTILINGUAL:
        return lang
    try:
        spacy.util.get_lang_class(lang)
    except ImportError as error:
        raise ValueError(f"Unsupported language code {lang!r}: neither one of "
                         f"{', '.join(LANGUAGES)} nor a language spaCy knows") from error
    return lang


def expand_character_classes(rule: str) -> str:
    """`rule` with `{ALPHA}` and the other placeholders of `CHARACTER_CLASSES` filled in."""
    for placeholder, characters in CHARACTER_CLASSES.items():
        rule = rule.replace(placeholder, characters)
    return rule


def profile_rules(lang: str) -> list[TokenizerRules]:
    """The profiles' tokenizer rules that apply to `lang`: its own, every language's for the
    multilingual tokenizer, none for another language spaCy knows."""
    if lang == MULTILINGUAL:
        return [language_profile(code).tokenizer for code in LANGUAGES]
    if lang in LANGUAGES:
        return [language_profile(lang).tokenizer]
    return []


def extra_rules(lang: str, kind: str) -> list[str]:
    """The extra `kind` rules ("prefixes", "suffixes", "infixes") of `lang` (`profile_rules`)."""
    return [expand_character_classes(rule)
            for rules in profile_rules(lang) for rule in getattr(rules, kind)]


def keeps_token_match(lang: str) -> bool:
    """Whether `lang` keeps spaCy's token_match (the multilingual tokenizer always does)."""
    return lang == MULTILINGUAL or all(rules.keep_token_match for rules in profile_rules(lang))


# The tokenizer settings that come from the code, never from a saved pipeline.
CODE_RULES: tuple[str, ...] = ("prefix_search", "suffix_search", "infix_finditer", "token_match",
                               "url_match")


class DeidTokenizer(Tokenizer):
    """spaCy's tokenizer whose affix rules stay those of the code when a pipeline is loaded.

    A saved pipeline stores the affix regular expressions of the version that saved it;
    loading it restores only the special cases (exceptions), so that fixes of the rules
    reach pipelines that were saved before them. `lang` is the language whose rules it
    follows, which components read when their own `lang` setting is left empty.
    """

    lang: str = MULTILINGUAL

    def __reduce__(self):
        constructor, args, *_ = super().__reduce__()
        return constructor, args, {"lang": self.lang}

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> DeidTokenizer:  # noqa: D102
        rules = {name: getattr(self, name) for name in CODE_RULES}
        super().from_bytes(bytes_data, exclude=exclude)
        for name, value in rules.items():
            setattr(self, name, value)
        return self


def build_tokenizer(nlp: Language, lang: str) -> Tokenizer:
    """Build `lang`'s default tokenizer for `nlp`'s vocab, with the PHI boundary rules added."""
    defaults = spacy.util.get_lang_class(lang).Defaults
    prefixes = [*COMMON_PREFIXES, *extra_rules(lang, "prefixes"), *(defaults.prefixes or ())]
    suffixes = [*COMMON_SUFFIXES, *extra_rules(lang, "suffixes"), *(defaults.suffixes or ())]
    infixes = [*MARKUP_INFIXES, *(defaults.infixes or ()), *COMMON_INFIXES,
               *extra_rules(lang, "infixes")]
    tokenizer = DeidTokenizer(
        nlp.vocab,
        rules=dict(defaults.tokenizer_exceptions or {}),
        prefix_search=compile_prefix_regex(prefixes).search,
        suffix_search=compile_suffix_regex(suffixes).search,
        infix_finditer=compile_infix_regex(infixes).finditer,
        token_match=defaults.token_match if keeps_token_match(lang) else None,
        url_match=defaults.url_match,
    )
    tokenizer.lang = lang
    return tokenizer


@spacy.registry.tokenizers("spacy_deid.Tokenizer.v1")
def create_deid_tokenizer(lang: str) -> Callable[[Language], Tokenizer]:
    """Registered factory: `[nlp.tokenizer] @tokenizers = "spacy_deid.Tokenizer.v1"`.

    `lang` is one of the ten languages, "xx" for the multilingual model, or any other language
    spaCy knows (a corpus translated into a new language: only the common PHI splits apply).
    """
    check_tokenizer_language(lang)

    def make_tokenizer(nlp: Language) -> Tokenizer:
        return build_tokenizer(nlp, lang)

    return make_tokenizer
