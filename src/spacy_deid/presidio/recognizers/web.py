"""E-mail addresses and URLs: Presidio's recognizers, offline and without markup or false hosts.

Presidio's e-mail check fetches the public-suffix list from the internet and its patterns
take markup along (`href=x@klinik.de`, quotes around a URL); its URL recognizer also accepts
abbreviations glued to a word ("Dr.me"). These subclasses keep Presidio's patterns and fix
what they return.
"""

from __future__ import annotations

import regex as re
import tldextract
from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import EmailRecognizer, UrlRecognizer

from spacy_deid.presidio.recognizers.common import CERTAIN

# Presidio's e-mail check reads the public-suffix list, which tldextract fetches from the
# internet by default; this extractor uses only the snapshot shipped with tldextract.
OFFLINE_TLD_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


# An attribute name and "=" before an unquoted attribute value: `<a href=x@klinik.de>`.
ATTRIBUTE_NAME_RE = re.compile(r"[A-Za-z][\w:-]*=")


def inside_tag(text: str, position: int) -> bool:
    """Whether `position` lies inside an HTML/XML tag: a `<` opens before it on its line
    and no `>` closes that tag before it."""
    line_start = text.rfind("\n", 0, position) + 1
    return text.rfind("<", line_start, position) > text.rfind(">", line_start, position)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer, validating domains without network access.

    Presidio's pattern allows "=" in the part before the "@", so inside a tag it takes
    the attribute name along (`href=x@klinik.de`); a match that starts with an attribute
    name inside a tag starts after its "=", so that the markup is not replaced.
    """

    def validate_result(self, pattern_text: str) -> bool:  # noqa: D102
        return OFFLINE_TLD_EXTRACT(pattern_text).fqdn != ""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:  # noqa: D102
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            attribute = ATTRIBUTE_NAME_RE.match(text, result.start, result.end)
            if attribute and inside_tag(text, result.start):
                result.start = attribute.end()
        return results


class PlausibleUrlRecognizer(UrlRecognizer):
    """Presidio's URL recognizer, without its matches that only look like a domain.

    Presidio also accepts a URL without scheme ("klinik.de"), so every abbreviation
    glued to a word that happens to be a top-level domain matches: "Dr.me", "geb.am",
    "Gent.mo", "No.lu", "Mening.ne". A match without a scheme counts only if it starts
    with "www", has a path, or is a lower-case host whose name before the top-level domain
    has at least `MIN_BARE_HOST` characters ("uniklinik-ulm.de").
    Punctuation that ends the sentence after a path ("…/radiologie,") and the quotes of a
    quoted URL (`href="https://…"`) are left out. A URL with a scheme or starting with "www."
    is as unambiguous as an e-mail address and scores `CERTAIN`, so that it replaces an
    entity the NER gave another label ("www.klinik.de" read as a user name or a city).
    """

    MIN_BARE_HOST = 4

    def validate_result(self, pattern_text: str) -> bool | None:  # noqa: D102
        return None if plausible_url(pattern_text.strip("\"'"), self.MIN_BARE_HOST) else False

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:  # noqa: D102
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            match = text[result.start:result.end]
            result.start += len(match) - len(match.lstrip("\"'"))
            result.end = result.start + len(text[result.start:result.end].rstrip(".,;:!?\"'"))
            if unambiguous_url(text[result.start:result.end]):
                result.score = CERTAIN
        return results


def unambiguous_url(text: str) -> bool:
    """Whether `text` has a scheme or starts with "www.": no abbreviation or name has that."""
    lowered = text.lower()
    return "://" in lowered or lowered.startswith("www.")


def plausible_url(text: str, min_bare_host: int) -> bool:
    """Whether `text` reads as a URL rather than an abbreviation before a word."""
    lowered = text.lower()
    if "://" in text or lowered.startswith("www") or "/" in text:
        return True
    *names, _suffix = text.split(".")
    return text == lowered and bool(names) and len(names[-1]) >= min_bare_host
