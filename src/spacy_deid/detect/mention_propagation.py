"""The `deid_mention_propagation` component: every mention of a detected identifier is PHI.

A letter names its patient many times ("Beate Albrecht", "Frau Albrecht", "ALBRECHT"); a
statistical model that finds one mention may miss another, and every missed mention is
a leak. This component takes the names, places and IDs already in `doc.ents` and marks
their other occurrences in the same document: the whole entity text, and for person
names each capitalised word of at least `min_length` letters (a surname alone). Matching
ignores case but only accepts capitalised or uppercase tokens (any token in scripts
without case), so lowercase words are never taken for names. A one-word name followed
by up to `max_suffix` more letters counts too, for inflected forms ("Marijas",
"Kowalskiego", "Иванову"); 0 turns that off. With `lang` set, a word that the surrogate
morphology leads back to the same nominative counts as well ("Эльвира" -> "Эльвиры",
"Фёдорова" -> "Фёдоровой"; Polish, Russian, Ukrainian), and in Arabic and Persian another
spelling of the same name ("ياسمين" -> "ياسمن", `name_spelling`). A patient's initial that
opens a line, followed by a word that is not capitalised ("E. yaklaşık L5 seviyesinde…",
"ن. با اسپینا بیفیدا…"), is the patient too: the training letters of every language name
their patient so, and no other such initial there matches a patient. A Roman numeral
("Intensivstation III") is not looked for elsewhere: other Roman numerals of a letter are
grades, types and lab names ("Stadium IV", "AT III"). Notes written in haste give a
surname in lower case too ("13:00 hepworth mobilised"): with `min_lowercase_length`, a
lower-case word of that many letters or more that is one word of a detected person name of
two words or more counts as well, unless it is an ordinary word of the training documents
(learned by `initialize`, so "masse" or "della" are never taken). A one-word name is no
source: the NER's one-word mistakes ("Ophthalmologist" at the start of a line) would reach
the same word in lower case. An uninitialised component takes no lower-case word. In
capitals, case no longer tells a name from a word: a mention written in capitals whose words
are all ordinary words of the training documents is not taken (a spurious one-word name the
NER found in a record exported in capitals would otherwise be marked at every other
occurrence of that word). An ID found again inside a longer code word ("C412" of
"ST-C412-WS3") takes the whole word, as `deid_entity_bounds` grows IDs. Existing entities
always win; new spans only fill gaps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_deid.detect.entities import add_entities, entity_tokens
from spacy_deid.detect.entity_bounds import whole_code_word
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.detect.tokens import learn_common_words, may_start_name, opens_line
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.morphology import lemma_candidates
from spacy_deid.lang.spelling import spelling_key
from spacy_deid.schema import PERSON_LABELS, validate_label

ROMAN_NUMERAL = re.compile(r"^[IVXLC]+$")

DEFAULT_LABELS: tuple[str, ...] = (
    "NAME_PATIENT", "NAME_DOCTOR", "NAME_RELATIVE", "NAME_EXT", "NAME_OTHER",
    "LOCATION_CITY", "LOCATION_STREET", "LOCATION_HOSPITAL", "LOCATION_ORGANIZATION", "ID",
)


class MentionPropagation(LearnedData):
    """Mark further mentions of detected identifiers (see the module docstring)."""

    data_file = "mention_propagation.json"
    factory = "deid_mention_propagation"

    def __init__(self, name: str, labels: list[str], min_length: int,
                 max_suffix: int = 0, lang: str | None = None,
                 min_lowercase_length: int = 0, min_ordinary_count: int = 2) -> None:
        if min_length < 1:
            raise ValueError(f"deid_mention_propagation: min_length must be >= 1, "
                             f"not {min_length}")
        if max_suffix < 0:
            raise ValueError(f"deid_mention_propagation: max_suffix must be >= 0, "
                             f"not {max_suffix}")
        if min_lowercase_length < 0 or min_ordinary_count < 1:
            raise ValueError("deid_mention_propagation: min_lowercase_length must be >= 0 "
                             "and min_ordinary_count >= 1")
        self.name = name
        # sorted: the meta lists them
        self.labels = tuple(sorted({validate_label(label) for label in labels}))
        self.min_length = min_length
        self.max_suffix = max_suffix
        self.lang = validate_language(lang) if lang is not None else None
        self.min_lowercase_length = min_lowercase_length
        self.min_ordinary_count = min_ordinary_count
        self.ordinary_words: set[str] | None = None

    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn the ordinary words (never a lower-case name) from the reference docs; those
        of `examples` (an `[initialize.components]` setting, see `detect.gold`) where set."""
        self.ordinary_words = learn_common_words(reference_docs(get_examples, nlp, examples),
                                                 self.min_ordinary_count)

    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        words = None if self.ordinary_words is None else sorted(self.ordinary_words)
        return {"ordinary_words": words}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned."""
        words = data.get("ordinary_words")
        self.ordinary_words = None if words is None else set(words)

    def surface_forms(self, doc: Doc) -> dict[tuple[str, ...], str]:
        """Lower-cased token sequences to look for, each with the label of its source."""
        forms: dict[tuple[str, ...], str] = {}
        for ent in doc.ents:
            if ent.label_ not in self.labels:
                continue
            words = tuple(token.lower_ for token in ent if not token.is_space)
            if (words and len(ent.text) >= self.min_length
                    and not ROMAN_NUMERAL.match(ent.text)):
                forms.setdefault(words, ent.label_)
            if ent.label_ in PERSON_LABELS:
                for token in ent:
                    if (token.is_alpha and len(token) >= self.min_length
                            and may_start_name(token.text)):
                        forms.setdefault((token.lower_,), ent.label_)
        return forms

    def __call__(self, doc: Doc) -> Doc:
        forms = self.surface_forms(doc)
        if not forms:
            return doc
        longest = max(len(form) for form in forms)
        lemma_labels = self.person_lemmas(forms)
        unordinary_forms = self.without_ordinary_words(forms)
        # the nominatives again only where an ordinary word was left out
        unordinary_lemmas = (lemma_labels if len(unordinary_forms) == len(forms)
                             else self.person_lemmas(unordinary_forms))
        full_name_words = self.full_name_words(doc)
        taken = entity_tokens(doc)
        lowered = [token.lower_ for token in doc]
        found: list[Span] = []
        i = 0
        while i < len(doc):
            match = None
            for size in range(min(longest, len(doc) - i), 0, -1):
                label = forms.get(tuple(lowered[i : i + size]))
                if label and (self.is_free_capitalised(doc, i, size, taken)
                              or self.is_lowercase_name(doc, i, size, full_name_words,
                                                        taken)):
                    match = Span(doc, i, i + size, label=label)
                    break
            if match is None and self.is_free_capitalised(doc, i, 1, taken):
                in_capitals = doc[i].text.isupper()
                label = self.inflected_name_label(
                    doc[i], unordinary_forms if in_capitals else forms,
                    unordinary_lemmas if in_capitals else lemma_labels)
                match = Span(doc, i, i + 1, label=label) if label else None
            if match is None or self.is_ordinary_in_capitals(match):
                i += 1
                continue
            if match.label_ == "ID":
                match = whole_code_word(match, taken)
            found.append(match)
            taken.update(range(match.start, match.end))
            i = match.end
        if "NAME_PATIENT" in self.labels:
            found.extend(patient_initials(doc, taken))
        add_entities(doc, found)
        return doc

    def inflected_name_label(self, token: Token, forms: dict[tuple[str, ...], str],
                             lemma_labels: dict[str, str]) -> str | None:
        """The label of a one-word person name that `token` extends by a short ending
        ("Marijas", "Kowalskiego", "Иванову") or shares a nominative with, if any."""
        if not token.is_alpha:
            return None
        word = token.lower_
        for extra in range(1, min(self.max_suffix, len(word) - self.min_length) + 1):
            label = forms.get((word[:-extra],))
            if label in PERSON_LABELS:
                return label
        return next((lemma_labels[lemma] for lemma in self.lemmas(token.text)
                     if lemma in lemma_labels), None)

    def lemmas(self, word: str) -> set[str]:
        """The nominatives `word` may be a form of and its spelling key (none without
        `lang`)."""
        if self.lang is None:
            return set()
        key = spelling_key(self.lang, word)
        return lemma_candidates(self.lang, word) | ({key} if key else set())

    def person_lemmas(self, forms: dict[tuple[str, ...], str]) -> dict[str, str]:
        """Nominative -> label for the one-word person names among `forms`."""
        return {lemma: label for (form, *rest), label in forms.items()
                if not rest and label in PERSON_LABELS and len(form) >= self.min_length
                for lemma in self.lemmas(form)}

    def full_name_words(self, doc: Doc) -> set[str]:
        """The lower-cased words of `min_lowercase_length` letters or more of the person
        names of two words or more, less the ordinary words (none when uninitialised or
        turned off)."""
        if not self.min_lowercase_length or self.ordinary_words is None:
            return set()
        return {token.lower_ for ent in doc.ents if ent.label_ in self.labels
                and ent.label_ in PERSON_LABELS and sum(token.is_alpha for token in ent) >= 2
                for token in ent if token.is_alpha and len(token) >= self.min_lowercase_length
                and may_start_name(token.text)} - self.ordinary_words

    def are_ordinary(self, words: Iterable[str]) -> bool:
        """Whether all the lower-cased `words` are ordinary words of the training documents
        (never, when uninitialised)."""
        return bool(self.ordinary_words) and all(word in self.ordinary_words for word in words)

    def without_ordinary_words(
            self, forms: dict[tuple[str, ...], str]) -> dict[tuple[str, ...], str]:
        """`forms` less those made only of ordinary words of the training documents."""
        return {form: label for form, label in forms.items() if not self.are_ordinary(form)}

    def is_ordinary_in_capitals(self, span: Span) -> bool:
        """Whether every word of `span` with letters is written in capitals and is an
        ordinary word of the training documents: in capitals, case no longer tells a name
        from a word ("RECHTES AUGE" in a record exported in capitals)."""
        words = [token for token in span if any(char.isalpha() for char in token.text)]
        return (bool(words) and all(token.text.isupper() for token in words)
                and self.are_ordinary(token.lower_ for token in words))

    @staticmethod
    def is_lowercase_name(doc: Doc, start: int, size: int, full_name_words: set[str],
                          taken: set[int]) -> bool:
        """Whether one free lower-case word is a word of a detected full name."""
        token = doc[start]
        return (size == 1 and token.is_lower and start not in taken
                and token.lower_ in full_name_words)

    @staticmethod
    def is_free_capitalised(doc: Doc, start: int, size: int, taken: set[int]) -> bool:
        """No token is in an entity already and the first word may start a name or is a number."""
        if any(i in taken for i in range(start, start + size)):
            return False
        return may_start_name(doc[start].text)


def patient_initials(doc: Doc, taken: set[int]) -> list[Span]:
    """One-letter initials ("E.") of a detected patient's name words that open a line and
    come before a word that is not capitalised (a verb, not the surname of "M. Parkinson")."""
    initials = {token.text[0] for ent in doc.ents if ent.label_ == "NAME_PATIENT"
                for token in ent if token.is_alpha}
    if not initials:
        return []
    found = []
    for token in doc[:-1]:
        following = doc[token.i + 1]
        if (len(token.text) == 2 and token.text[1] == "." and token.text[0] in initials
                and token.i not in taken and opens_line(doc, token.i)
                and following.is_alpha and not following.text[0].isupper()):
            found.append(Span(doc, token.i, token.i + 1, label="NAME_PATIENT"))
    return found


@Language.factory(
    "deid_mention_propagation",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"labels": list(DEFAULT_LABELS), "min_length": 3, "max_suffix": 3,
                    "lang": None, "min_lowercase_length": 0, "min_ordinary_count": 2},
)
def make_mention_propagation(nlp: Language, name: str, labels: list[str],
                             min_length: int, max_suffix: int, lang: str | None,
                             min_lowercase_length: int,
                             min_ordinary_count: int) -> MentionPropagation:
    """Factory of `deid_mention_propagation` (settings: `labels`, `min_length`, `max_suffix`,
    `lang` for inflected forms by the surrogate morphology, `min_lowercase_length` for
    lower-case surnames, 0 for none, and `min_ordinary_count`, how often a word is seen
    outside entities in the training documents to count as ordinary)."""
    lang = pipeline_language(nlp, lang, "deid_mention_propagation")
    return MentionPropagation(name, labels, min_length, max_suffix, lang,
                              min_lowercase_length, min_ordinary_count)
