"""Surrogates for places, organisations, contacts, professions and titles.

Realistic for the document's language: Faker where its locale data is good (companies,
e-mails, URLs), the lists of the language's profile (`lang/profiles/<lang>.json`)
elsewhere (real city names, street names, hospital name templates, medical titles,
professions). Hospitals and organisations are named after the
document's surrogate city, so places stay consistent within a document.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from faker import Faker

from spacy_deid.anonymize.surrogates.shapes import shape_surrogate
from spacy_deid.lang.casing import match_case
from spacy_deid.lang.profile import language_profile

NUMBER = re.compile(r"\d+(?:[/-]?[^\W\d_])?")
STREET_NAME = re.compile(r"[^\W\d_][^\d,]*[^\W\d_]\.?|[^\W\d_]")


def pick_other(
    options: Sequence[str],
    original: str,
    rng: random.Random,
    avoid: frozenset[str] | set[str] = frozenset(),
) -> str:
    """A random option that neither contains nor is contained in `original`
    (case-insensitively) and is not in `avoid` (other originals), where one can."""
    lowered = original.strip().lower()
    others = [
        o for o in options if o.lower() not in lowered and (not lowered or lowered not in o.lower())
    ]
    preferred = [o for o in others if o.lower() not in avoid]
    return rng.choice(preferred or others or list(options))


class PlaceSurrogates:
    """Places, organisations, contacts, professions and titles for one language."""

    def __init__(self, lang: str, faker: Faker) -> None:
        self.lang = lang
        self.faker = faker
        profile = language_profile(lang)
        self.places = profile.places
        self.people = profile.people
        # Lowercased originals of the current document; set by `DocumentSession.avoid`.
        self.avoid: set[str] = set()

    def _faker(self, rng: random.Random) -> Faker:
        self.faker.seed_instance(rng.getrandbits(64))
        return self.faker

    def city(self, text: str, rng: random.Random) -> str:
        return match_case(text, pick_other(self.places["cities"], text, rng, self.avoid), self.lang)

    def state(self, text: str, rng: random.Random) -> str:
        return match_case(text, pick_other(self.places["states"], text, rng, self.avoid), self.lang)

    def country(self, text: str, rng: random.Random) -> str:
        countries = self.places.get("countries")
        if countries:
            return pick_other(countries, text, rng, self.avoid)
        for _ in range(10):
            name = self._faker(rng).country()
            if name.lower() != text.strip().lower():
                return match_case(text, name, self.lang)
        return name

    def street(self, text: str, rng: random.Random) -> str:
        """A street of the locale; house numbers keep their shape and position."""
        name = pick_other(self.places["streets"], text, rng, self.avoid)
        runs = list(STREET_NAME.finditer(text))
        if not runs:
            return name
        longest = max(runs, key=lambda m: len(m.group()))
        before = NUMBER.sub(lambda m: shape_surrogate(m.group(), rng), text[: longest.start()])
        after = NUMBER.sub(lambda m: shape_surrogate(m.group(), rng), text[longest.end() :])
        if longest.group().isupper():
            name = match_case(longest.group(), name, self.lang)
        return before + name + after

    def hospital(self, text: str, city: str, rng: random.Random) -> str:
        template = pick_other(self.places["hospitals"], text, rng)
        return template.format(city=city, n=rng.randint(1, 12))

    def organization(self, text: str, city: str, rng: random.Random) -> str:
        template = pick_other(self.places["organizations"], text, rng)
        return template.format(city=city, n=rng.randint(1, 12))

    def profession(self, text: str, rng: random.Random) -> str:
        return match_case(
            text, pick_other(self.people["professions"], text, rng, self.avoid), self.lang
        )

    def title(self, text: str, rng: random.Random) -> str:
        return pick_other(self.people["titles"], text, rng, self.avoid)

    def email(self, text: str, rng: random.Random) -> str:
        for _ in range(10):
            address = self._faker(rng).email()
            if address.isascii() and address.lower() != text.lower():
                return address
        return shape_surrogate(text, rng)

    def url(self, text: str, rng: random.Random) -> str:
        """A URL of the locale, with a scheme, `www.` and trailing slash only where the
        original had them."""
        url = self._faker(rng).url()
        if not re.match(r"(?i)https?://", text):
            url = re.sub(r"^https?://", "", url)
        if "www." in text.lower() and "www." not in url:
            url = re.sub(r"^(https?://)?", lambda m: (m.group(1) or "") + "www.", url)
        if not text.endswith("/"):
            url = url.rstrip("/")
        return url if url.lower() != text.lower() else shape_surrogate(text, rng)
