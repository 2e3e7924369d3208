"""The supported languages; what spacy-deid knows of each is in its profile
(`spacy_deid.lang.profile.language_profile`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language


# The ten languages of the MultiGraSCCo benchmark, each with a profile in `lang/profiles/`.
LANGUAGES: tuple[str, ...] = ("de", "en", "fr", "it", "pl", "ru", "uk", "tr", "ar", "fa")


def validate_language(lang: str) -> str:
    """Return `lang` if it is one of the supported language codes, else raise a ValueError."""
    if lang not in LANGUAGES:
        raise ValueError(f"Unsupported language code {lang!r}; supported: {', '.join(LANGUAGES)}")
    return lang


def parse_language_codes(codes: str) -> list[str]:
    """"de,en pl" -> ["de", "en", "pl"]: comma- or space-separated codes, in order, each once."""
    parsed: list[str] = []
    for code in codes.replace(",", " ").split():
        if code not in parsed:
            parsed.append(code)
    return parsed


def pipeline_language(nlp: Language, lang: str | None, component: str) -> str:
    """The language a component of `nlp` works in: its `lang` setting, else the language of
    the pipeline's tokenizer (`spacy_deid.Tokenizer.v1`), else `nlp.lang`. Packaged
    pipelines are `xx` pipelines with a language's tokenizer; where no supported language
    is found (a plain `xx` pipeline), a ValueError names the component and the setting,
    rather than the component silently leaving out what needs the language."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise ValueError(f"{component}: setting 'lang': unsupported language {lang!r}; "
                             f"supported: {', '.join(LANGUAGES)}")
        return lang
    found = getattr(nlp.tokenizer, "lang", None) or nlp.lang
    if found not in LANGUAGES:
        raise ValueError(f"{component}: setting 'lang' is required in a {found!r} pipeline; "
                         f"set one of {', '.join(LANGUAGES)}")
    return found
