"""The `deid_name_forms` component: person names recognised by their form alone.

`deid_name_cues` needs a word that announces a name. Two kinds of name come without one
and are still plain to see, so a statistical model that misses them leaks them:

* a known first name ("Aktuell gehe es Maria gut", "Ольгу, дівчинку"): a word seen
  inside a person name in the training documents, or one of the language's first names
  in Faker's person provider and the project's list of common first names Faker lacks
  (with the inflected forms the surrogate morphology knows; `faker_names`), or a
  double first name whose parts are such names ("Jan-Hendrik", "Anna-Lena"); the
  name-like words right after it (a surname) join it. Mimesis's
  longer first-name lists (also `faker_names`) hold ordinary words too ("Eylül", September),
  so one of their names counts only in title case, in a script with case, and with a
  surname after it ("Burcu Tandoğan"), or, in a script without case, as a signature: at
  the start of a line, with one name-like word after it and then the line's end, a comma
  or "(" ("داریوش نوروزی (پزشک بخش)"; in the training letters of tr, ar and fa such
  lines are person names);
* a name with an initial after it, as in signature columns ("Haselbein H. MBA",
  "Бринкевич Б.", "الصواف ب."): up to `max_tokens` - 1 name-like words before a
  one-letter abbreviation; where a surname follows the initial, the initial opens that
  name, and a word before it joins only as a known first name ("Pflegekraft K. Adeyemi"
  gives "K. Adeyemi"). Where a model has already marked the initial alone as a
  person ("H."), that entity takes the surname before it ("Haselbein H."), or, with no
  name word before it, the name word after it ("Dr. H. Müller", "دکتر ب. صفایی"):
  otherwise the anonymizer replaces the letter and leaves the surname.

Name-like means letters, outside existing entities, capitalised in scripts with case,
and not an ordinary word (seen `min_ordinary_count` times outside entities in the training
documents, even if also inside a name: "Gentile", "کرد"). In scripts without case
(Arabic, Persian) the word right after a first name joins it as its surname, and further
words only if they are known name words. Each form gets the person label it has most
often in the training documents, or its entry in `default_labels` when it never occurs
there (a first name: `NAME_PATIENT`; a name with an initial, mostly staff in signatures:
`NAME_DOCTOR`). A first name in a letter whose detected patient it shares no word with
takes the label such names had in training instead (in the training letters they are
doctors or staff). A name word standing alone that is, in any form the surrogate
morphology leads back to it, a word of a person already detected in the document takes
that person's label ("Ольга" after "Ольга Петрова" is the same patient). Existing entities always
win: new spans only fill gaps. Place it after `deid_name_cues` and before
`deid_mention_propagation`, which finds the other mentions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_deid.detect.entities import add_entities, entity_tokens
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.detect.name_cues import medical_title_words
from spacy_deid.detect.tokens import (
    ends_line,
    is_name_like,
    is_short_capitals,
    learn_common_words,
    next_word,
    opens_line,
)
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.casing import has_case
from spacy_deid.lang.lexicon import is_first_or_double_name, lexicon
from spacy_deid.lang.morphology import lemma_candidates
from spacy_deid.schema import PERSON_LABELS, validate_label

INITIAL = re.compile(r"^[^\W\d_]\.?$")
FIRST_NAME = "first_name"
WITH_INITIAL = "with_initial"
# A first-name form in a letter whose patient it shares no word with (learned label only).
OTHER_THAN_PATIENT = "first_name_other_than_patient"
# What may follow the surname of a signature line: a comma or a role in brackets.
SIGNATURE_ENDS = frozenset({",", "\u060c", "("})


def initial_end(doc: Doc, i: int) -> int | None:
    """The end of a one-letter abbreviation at token `i` that may stand for a name ("H.",
    "Б.", "ب.", or "H" "." where the tokenizer splits it), else None."""
    token = doc[i]
    if INITIAL.match(token.text) is None or token.text[0].islower():
        return None
    if token.text.endswith("."):
        return i + 1
    return i + 2 if i + 1 < len(doc) and doc[i + 1].text == "." else None


def follows_person(doc: Doc, i: int) -> bool:
    """Whether the word before token `i` (past whitespace) is part of a person entity."""
    before = next_word(doc, i - 1, -1)
    return before >= 0 and doc[before].ent_type_ in PERSON_LABELS


def words_of(span: Span) -> set[str]:
    """The lower-cased words of a span."""
    return {token.lower_ for token in span if not token.is_space and not token.is_punct}


def person_labels(doc: Doc, lang: str) -> dict[str, str]:
    """The nominatives of the words of the person entities of `doc` (`lemma_candidates`),
    each with the label of the first person it belongs to."""
    labels: dict[str, str] = {}
    for ent in doc.ents:
        if ent.label_ in PERSON_LABELS:
            for word in words_of(ent):
                for lemma in lemma_candidates(lang, word):
                    labels.setdefault(lemma, ent.label_)
    return labels


def patient_words(doc: Doc) -> set[str]:
    """The lower-cased words of the `NAME_PATIENT` entities of `doc`."""
    return {word for ent in doc.ents if ent.label_ == "NAME_PATIENT" for word in words_of(ent)}


class NameForms(LearnedData):
    """Add person names found by their form (see the module docstring)."""

    data_file = "name_forms.json"
    factory = "deid_name_forms"

    def __init__(self, name: str, lang: str, max_tokens: int, min_ordinary_count: int,
                 faker_names: bool, default_labels: dict[str, str]) -> None:
        if max_tokens < 2 or min_ordinary_count < 1:
            raise ValueError("deid_name_forms: max_tokens must be >= 2 and "
                             "min_ordinary_count >= 1")
        if set(default_labels) != {FIRST_NAME, WITH_INITIAL}:
            raise ValueError(f"deid_name_forms: default_labels needs exactly the keys "
                             f"{FIRST_NAME!r} and {WITH_INITIAL!r}, not {sorted(default_labels)}")
        for label in default_labels.values():
            if validate_label(label) not in PERSON_LABELS:
                raise ValueError(f"deid_name_forms: default_labels must be person labels "
                                 f"({sorted(PERSON_LABELS)}), not {label!r}")
        self.name = name
        self.lang = validate_language(lang)
        self.title_words = frozenset(word.rstrip(".") for word in medical_title_words(self.lang))
        self.max_tokens = max_tokens
        self.min_ordinary_count = min_ordinary_count
        self.faker_names = faker_names
        self.default_labels = dict(default_labels)
        self.names: set[str] = set()
        self.ordinary_words: set[str] = set()
        self.labels: dict[str, str] = {}

    # -- learning -----------------------------------------------------------------
    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn name words, ordinary words and the label of each form from reference docs;
        those of `examples` (an `[initialize.components]` setting, see `detect.gold`) where set."""
        self.learn(reference_docs(get_examples, nlp, examples))

    def learn(self, docs: Iterable[Doc]) -> None:
        """Collect, over gold documents, the words of person names, the ordinary words, and
        which person label each form of name has most often."""
        docs = list(docs)
        self.ordinary_words = learn_common_words(docs, self.min_ordinary_count,
                                                 also_in_names=True)
        people = [ent for doc in docs for ent in doc.ents if ent.label_ in PERSON_LABELS]
        self.names = {token.lower_ for ent in people for token in ent
                      if len(token) >= 3 and is_name_like(token, set(), self.ordinary_words)}
        forms: dict[str, Counter] = {FIRST_NAME: Counter(), WITH_INITIAL: Counter(),
                                     OTHER_THAN_PATIENT: Counter()}
        for doc in docs:
            self.count_forms(doc, forms)
        self.labels = {form: counts.most_common(1)[0][0]
                       for form, counts in forms.items() if counts}

    def count_forms(self, doc: Doc, forms: dict[str, Counter]) -> None:
        """Add the label of every person name of a gold `doc` to the counts of the forms
        it has (the letter's patient words are read once)."""
        patient = patient_words(doc)
        for ent in doc.ents:
            if ent.label_ not in PERSON_LABELS:
                continue
            if self.is_known_name(ent[0].text):
                forms[FIRST_NAME][ent.label_] += 1
                if patient and patient.isdisjoint(words_of(ent)):
                    forms[OTHER_THAN_PATIENT][ent.label_] += 1
            if any(initial_end(doc, i) == ent.end for i in range(ent.start + 1, ent.end)):
                forms[WITH_INITIAL][ent.label_] += 1

    def is_known_name(self, word: str) -> bool:
        """A person-name word of the training documents or a first name of the language, in
        any form the surrogate morphology leads back to it ("Эльвиры" -> "Эльвира"), or a
        double first name of two such first names ("Jan-Hendrik")."""
        if any(lemma in self.names for lemma in lemma_candidates(self.lang, word)):
            return True
        return self.faker_names and is_first_or_double_name(self.lang, word)

    def is_listed_first_name(self, word: str) -> bool:
        """A title-case word of a script with case that Mimesis lists as a first name. Those
        lists are long and hold ordinary words too ("Eylül", September), so such a word is a
        name only with a surname after it (`known_name`)."""
        return (self.faker_names and has_case(word) and word.istitle()
                and bool(lexicon(self.lang).first_name_genders(self.lang, word)))

    def opens_signature(self, doc: Doc, token: Token, taken: set[int]) -> bool:
        """A word of a script without case that Mimesis lists as a first name, opening its
        line, with one name-like word after it and then the line's end, a comma or "("."""
        surname = token.i + 1
        if not (self.faker_names and not has_case(token.text) and opens_line(doc, token.i)
                and surname < len(doc)
                and is_name_like(doc[surname], taken, self.ordinary_words)):
            return False
        after = next_word(doc, surname + 1, 1)
        if not (ends_line(doc, surname + 1) or after == len(doc)
                or doc[after].text in SIGNATURE_ENDS):
            return False
        return bool(lexicon(self.lang).first_name_genders(self.lang, token.text))

    # -- finding --------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        taken = entity_tokens(doc)
        doc.ents = [self.with_surname_by_initial(ent, taken) for ent in doc.ents]
        taken |= entity_tokens(doc)
        patient = patient_words(doc)  # the names found below are added after the loop
        people = person_labels(doc, self.lang)
        found: list[Span] = []
        for token in doc:
            if token.i in taken:
                continue
            span = (self.name_with_initial(doc, token, taken)
                    or self.known_name(doc, token, taken, patient, people))
            if span is not None:
                found.append(span)
                taken.update(range(span.start, span.end))
        add_entities(doc, found)
        return doc

    def label_of(self, form: str) -> str:
        """The learned label of a form of name, else its default."""
        return self.labels.get(form, self.default_labels[form])

    def first_name_label(self, name: Span, patient: set[str],
                         people: Mapping[str, str]) -> str:
        """The label of a first-name form: a name word alone that is, in some form, a word
        of a detected person (`people`, from `person_labels`) takes that person's label;
        where the letter has a patient already (its words `patient`) and the name shares no
        word with it, the label such names had in training (mostly staff); else the
        first-name label."""
        if len(name) == 1:
            lemmas = sorted(lemma_candidates(self.lang, name.text))
            label = next((people[lemma] for lemma in lemmas if lemma in people), None)
            if label is not None:
                return label
        if patient and patient.isdisjoint(words_of(name)) and OTHER_THAN_PATIENT in self.labels:
            return self.labels[OTHER_THAN_PATIENT]
        return self.label_of(FIRST_NAME)

    def known_name(self, doc: Doc, token: Token, taken: set[int], patient: set[str],
                   people: Mapping[str, str]) -> Span | None:
        """A known first name with the name-like words right after it; a first name known
        only from Mimesis's lists needs at least one such word (a surname). `patient` and
        `people`: the letter's patient words and detected persons, for `first_name_label`."""
        if not (len(token) >= 3 and is_name_like(token, taken, self.ordinary_words)):
            return None
        known = self.is_known_name(token.text)
        if not (known or self.is_listed_first_name(token.text)
                or self.opens_signature(doc, token, taken)):
            return None
        end = token.i + 1
        while (end < len(doc) and end - token.i < self.max_tokens
               and self.may_follow_first_name(doc[end], taken, end == token.i + 1)):
            end += 1
        if not known and end == token.i + 1:
            return None
        return Span(doc, token.i, end,
                    label=self.first_name_label(doc[token.i:end], patient, people))

    def may_follow_first_name(self, token: Token, taken: set[int], is_next: bool) -> bool:
        """Name-like; in a script without case, a word after the one right after the
        first name (`is_next`, the surname) must be a known name word itself."""
        if not is_name_like(token, taken, self.ordinary_words):
            return False
        return has_case(token.text) or is_next or self.is_known_name(token.text)

    def name_with_initial(self, doc: Doc, token: Token, taken: set[int]) -> Span | None:
        """Name-like words that end with `token` and are followed by an initial ("Haselbein
        H."). Where a surname follows the initial, the initial opens that name ("Pflegekraft
        K. Adeyemi": "K. Adeyemi"), and the words before it join only as a known first name
        ("Tobias M. Wendelstein")."""
        end = initial_end(doc, token.i + 1) if token.i + 1 < len(doc) else None
        if end is None or any(i in taken for i in range(token.i + 1, end)):
            return None
        start = self.surname_start(doc, token.i + 1, end, taken)
        if start is None:
            return None
        if self.is_surname_after_initial(doc, end, taken):
            first_name = start == token.i and self.is_known_name(token.text)
            start, end = (start if first_name else token.i + 1), end + 1
        return Span(doc, start, end, label=self.label_of(WITH_INITIAL))

    def is_surname_after_initial(self, doc: Doc, i: int, taken: set[int]) -> bool:
        """Whether token `i`, one space after an initial, is a surname: a name-like word of
        two or more letters that is no capitalised abbreviation ("MBA", "MD") and no title
        of the language ("Kessler K. Dott")."""
        if i >= len(doc) or doc[i - 1].whitespace_ != " ":
            return False
        token = doc[i]
        return (len(token) >= 2 and not is_short_capitals(token)
                and token.lower_.rstrip(".") not in self.title_words
                and is_name_like(token, taken, self.ordinary_words))

    def with_surname_by_initial(self, ent: Span, taken: set[int]) -> Span:
        """A person entity that begins with an initial, grown to the surname before it
        (name-like words outside the `taken` tokens of the entities: "Haselbein H."); an
        initial alone with no such word before it takes the name-like word after it
        ("Dr. H. Müller", "دکتر ب. صفایی")."""
        doc = ent.doc
        initial = initial_end(doc, ent.start)
        if ent.label_ not in PERSON_LABELS or initial is None:
            return ent
        start = self.surname_start(doc, ent.start, ent.end, taken)
        if start is not None:
            return Span(doc, start, ent.end, label=ent.label_)
        if (initial == ent.end and not follows_person(doc, ent.start) and ent.end < len(doc)
                and len(doc[ent.end]) >= 2
                and is_name_like(doc[ent.end], taken, self.ordinary_words)):
            return Span(doc, ent.start, ent.end + 1, label=ent.label_)
        return ent

    def surname_start(self, doc: Doc, initial: int, end: int, taken: set[int]) -> int | None:
        """The start of the name-like words right before the initial at token `initial`
        (at most `max_tokens` - 1 tokens up to `end`), or None if the word before it is
        not name-like."""
        if initial == 0:
            return None
        token = doc[initial - 1]
        if len(token) < 2 or not is_name_like(token, taken, self.ordinary_words):
            return None
        start = token.i
        while (start > 0 and end - start < self.max_tokens - 1
               and is_name_like(doc[start - 1], taken, self.ordinary_words)):
            start -= 1
        return start

    # -- serialisation (LearnedData) ------------------------------------------------
    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        return {"names": sorted(self.names), "ordinary_words": sorted(self.ordinary_words),
                "labels": self.labels}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned, checking that every label is a person label."""
        labels = dict(data.get("labels", {}))
        unknown = set(labels.values()) - PERSON_LABELS
        if unknown:
            raise ValueError(f"deid_name_forms: labels that are not person names: "
                             f"{sorted(unknown)}")
        self.names = set(data.get("names", []))
        self.ordinary_words = set(data.get("ordinary_words", []))
        self.labels = labels


@Language.factory(
    "deid_name_forms",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"lang": None, "max_tokens": 3, "min_ordinary_count": 2,
                    "faker_names": True,
                    "default_labels": {FIRST_NAME: "NAME_PATIENT", WITH_INITIAL: "NAME_DOCTOR"}},
)
def make_name_forms(nlp: Language, name: str, lang: str | None, max_tokens: int,
                    min_ordinary_count: int, faker_names: bool,
                    default_labels: dict[str, str]) -> NameForms:
    """Factory of `deid_name_forms`; `lang` defaults to the pipeline's language. Call
    `initialize` (or load) to give it its name words and ordinary words."""
    lang = pipeline_language(nlp, lang, "deid_name_forms")
    return NameForms(name, lang, max_tokens, min_ordinary_count, faker_names,
                     default_labels)
