"""`SurrogateGenerator`: realistic, consistent surrogates for PHI, per document.

    generator = SurrogateGenerator(lang="pl", seed=0, secret_key=None)
    session = generator.new_document()
    session.surrogate(text="Jan Kowalski", label="NAME_PATIENT", context="Pan Jan Kowalski ...")

A session holds one document's state: its date offset and the mappings that make every
mention of one person, place or number map to one surrogate. Randomness is seeded:
without a secret key from (seed, document key or counter), so results are reproducible
and, as each document draws its surrogates afresh, the original cannot be worked out
from the output; with a secret key every surrogate is drawn from a keyed hash (HMAC) of
the original, so the same original gets the same surrogate in every document (and all
dates share one keyed offset, so intervals across documents stay true).
"""

from __future__ import annotations

import random
import re

from faker import Faker

from spacy_deid.anonymize.surrogates.dates import date_surrogate
from spacy_deid.anonymize.surrogates.names import NameSurrogates
from spacy_deid.anonymize.surrogates.places import PlaceSurrogates
from spacy_deid.anonymize.surrogates.seeds import make_rng
from spacy_deid.anonymize.surrogates.shapes import mask, phone_surrogate, shape_surrogate
from spacy_deid.lang import validate_language
from spacy_deid.lang.digits import digit_system, to_digit_system
from spacy_deid.lang.profile import language_profile
from spacy_deid.schema import PERSON_LABELS, validate_label

# Date offsets are drawn from +/- this many days (never less than a year, so a year alone
# always changes; never more than three years).
DATE_OFFSET_DAYS: tuple[int, int] = (366, 1095)
AGE_NUMBER = re.compile(r"\d+")
MAX_AGE_DIGITS = 3

SHAPE_LABELS = frozenset({"ID", "NAME_USERNAME", "LOCATION_ZIP", "OTHER"})
WORD = re.compile(r"\w+")
# Same-shape surrogates drawn at most this many times to find one without an original's word.
MAX_SHAPE_DRAWS = 100


def group_age(text: str, over: int | None) -> str:
    """Write ages above `over` as `<over+1>+` (HIPAA: "90+"); other text unchanged."""
    if over is None:
        return text

    def replace(match: re.Match) -> str:
        value = match.group()
        return to_digit_system(f"{over + 1}+", digit_system(value)) if int(value) > over else value

    return AGE_NUMBER.sub(replace, text)


class DocumentSession:
    """Surrogates for one document: one date offset, consistent mappings (see module doc)."""

    def __init__(
        self, generator: SurrogateGenerator, document_seed: int, secret_key: str | None = None
    ) -> None:
        self.generator = generator
        self.lang = generator.lang
        self.rng = random.Random(document_seed)
        # A document's own key (e.g. one per patient) takes the place of the generator's.
        self.secret_key = secret_key or generator.secret_key
        key = self.secret_key
        offset_rng = make_rng("date-offset", key=key) if key else self.rng
        self.date_offset = offset_rng.choice((-1, 1)) * offset_rng.randint(*DATE_OFFSET_DAYS)
        self.age_offset = self.rng.choice((-2, -1, 1, 2))
        keyed = (lambda *parts: make_rng(self.lang, "name", *parts, key=key)) if key else None
        self.names = NameSurrogates(self.lang, self.rng, keyed)
        self.places = generator.places
        self.places.avoid = set()
        self.original_words: set[str] = set()
        self.memo: dict[tuple[str, str], str] = {}
        self.city: str | None = None

    def avoid(self, originals: list[str]) -> None:
        """Register the document's originals, so no surrogate is drawn that equals one of
        them or one of their words (which would put an original back into the text)."""
        lowered = {text.strip().lower() for text in originals}
        words = {w for text in lowered for w in text.split() if len(w) >= 3}
        self.names.avoid = lowered | words
        self.places.avoid = lowered | words
        self.original_words = {w for text in lowered for w in WORD.findall(text)}

    def _rng_for(self, kind: str, text: str) -> random.Random:
        key = self.secret_key
        return make_rng(self.lang, kind, text, key=key) if key else self.rng

    def _document_city(self) -> str:
        if self.city is None:
            self.city = self.places.city("", self._rng_for("city", ""))
        return self.city

    def surrogate(self, text: str, label: str, context: str = "") -> str:
        """A surrogate for `text`, a `label` PHI span; `context` is the text around it."""
        validate_label(label)
        if not text.strip():
            return text
        kind = "name" if label in PERSON_LABELS else label
        slot = (kind, text)
        if slot not in self.memo:
            self.memo[slot] = self._make(text, label, context)
        return self.memo[slot]

    def _make(self, text: str, label: str, context: str) -> str:
        if label in PERSON_LABELS:
            before, after = split_context(context, text)
            return self.names.surrogate(text, before, after)
        rng = self._rng_for(label, text)
        places = self.places
        if label == "DATE":
            return date_surrogate(text, self.date_offset, self.lang, rng,
                                  self.generator.hide_date_words)
        if label == "AGE":
            return self.age(text, rng)
        if label in SHAPE_LABELS:
            return self.shape(text, rng)
        if label in ("CONTACT_PHONE", "CONTACT_FAX"):
            return phone_surrogate(text, rng)
        if label == "LOCATION_CITY":
            new = places.city(text, rng)
            self.city = self.city or new
            return new
        makers = {
            "NAME_TITLE": places.title,
            "CONTACT_EMAIL": places.email,
            "CONTACT_URL": places.url,
            "LOCATION_STREET": places.street,
            "LOCATION_STATE": places.state,
            "LOCATION_COUNTRY": places.country,
            "LOCATION_OTHER": places.city,
            "PROFESSION": places.profession,
        }
        if label in makers:
            return makers[label](text, rng)
        if label == "LOCATION_HOSPITAL":
            return places.hospital(text, self._document_city(), rng)
        return places.organization(text, self._document_city(), rng)

    def shape(self, text: str, rng: random.Random) -> str:
        """A same-shape surrogate with no word that is a word of an original of the
        document (see `avoid`): a bed "3" must not become "2" where ward "2" was replaced,
        or the ward's number stands in the text again."""
        new = shape_surrogate(text, rng)
        for _ in range(MAX_SHAPE_DRAWS - 1):
            if self.original_words.isdisjoint(WORD.findall(new.lower())):
                break
            new = shape_surrogate(text, rng)
        return new

    def age(self, text: str, rng: random.Random) -> str:
        """An age moved by a small per-document amount (1-2 years), then grouped if set; an
        age the move would make negative moves up instead, so that no age stays as it was.
        An age with no number in digits (`fifty`, `ottantanove`) cannot be moved, so it is
        masked rather than left in the text. A number of more than three digits is no age
        (a code or count taken for one): moved by a year it would keep nearly all its
        digits, so it gets a new number of the same shape instead."""
        numbers = AGE_NUMBER.findall(text)
        if not numbers:
            return mask(text)
        if any(len(number) > MAX_AGE_DIGITS for number in numbers):
            return shape_surrogate(text, rng)

        def shift(match: re.Match) -> str:
            value = int(match.group())
            moved = value + self.age_offset
            moved = moved if moved >= 0 else value - self.age_offset
            return to_digit_system(str(moved), digit_system(match.group()))

        return group_age(AGE_NUMBER.sub(shift, text), self.generator.age_group_over)


def split_context(context: str, text: str) -> tuple[str, str]:
    """The text before and after `text` in `context` (all of `context` is 'before' when
    `text` is not in it)."""
    index = context.rfind(text)
    if index < 0:
        return context, ""
    return context[:index], context[index + len(text) :]


class SurrogateGenerator:
    """Makes `DocumentSession`s for one language, seed and optional secret key.

    `hide_date_words` replaces a capitalised word in a date that is no month name (a
    weekday, a name taken into the date); training copies, which are text to learn from and
    never shared, keep such words as written.
    """

    def __init__(
        self,
        lang: str,
        seed: int = 0,
        secret_key: str | None = None,
        age_group_over: int | None = None,
        hide_date_words: bool = True,
    ) -> None:
        self.lang = validate_language(lang)
        self.hide_date_words = hide_date_words
        self.seed = int(seed)
        self.secret_key = secret_key or None
        self.age_group_over = age_group_over
        self.faker = Faker(language_profile(lang).faker_locale)
        self.places = PlaceSurrogates(lang, self.faker)
        self._documents = 0

    def new_document(
        self, doc_key: str | None = None, secret_key: str | None = None
    ) -> DocumentSession:
        """A fresh session. `doc_key` (e.g. the document text) makes the session depend on
        the document rather than on how many came before; `secret_key`, if given, is used
        for this document instead of the generator's (e.g. a key per patient, so that one
        patient's documents share surrogates and date offset and other patients' do not)."""
        self._documents += 1
        part = ("key", doc_key) if doc_key is not None else ("count", self._documents)
        seed = make_rng("document", self.lang, self.seed, *part).getrandbits(64)
        return DocumentSession(self, seed, secret_key=secret_key)
