"""The `deid_id_cues` component: ward, room, record and lot codes announced by nearby words.

Clinical letters name wards, rooms and clinics by short codes ("Station 6A", "Zimmer 316",
"Klinik II", "oda: 316", "3B numaralı servis"). The annotation counts them as IDs, and
they identify a stay, but a code alone looks like any number. This component learns from
annotated training documents (`initialize`) which words stand near such codes when they
are IDs:

* `cues_before`: a word among the `window` words before a code-shaped ID;
* `cues_after`: the word right after a code-shaped ID (Turkish "numaralı").

A word becomes a cue where it stood next to a code-shaped ID in at least `min_documents`
training documents and at least `min_ratio` of the code-shaped tokens next to it were IDs.
The last part of a word with a hyphen is counted as a cue word of its own ("-nr" of
"Fall-Nr."), so that a field label of the same kind not seen in training ("Ausweis-Nr.")
is a cue too.
The documents may be in several languages (`spacy project run assemble` gives it every
language's training documents): the words before a code are field labels and abbreviations
that languages share ("MRN", "LOT", "ID", "Nr.", "№"), so they are counted in all of them;
the words after a code are suffixes and function words of one language (Turkish
"numaralı"), so they are counted only in documents of the component's `lang` (a document's
language is `doc.user_data["lang"]`, set by the corpus conversion).

With `lang`, the language's words for a ward, room, bed, operating theatre, intensive care
or clinic (`unit_words` in its profile) are cues too, for codes with a letter
("Intensive Care Unit III", "اتاق عمل III", "oda B4"), and for bare numbers right after
the word on its line ("Bett 2", "Zi. 327") or after the word as a field label, the word
and a colon ("Zimmer: 316", "اتاق: ۳۱۶"); a bare number one word further on is as often a
dose or a count of days. Such a cue is often in one or two documents only, too few to learn
it; where the training documents put it before two or more codes with a letter and under
`min_ratio` of them were IDs, it is dropped, and where they put it right before bare
numbers and under `min_ratio` of those were IDs ("ICU 3 times a day"), it is no cue for
bare numbers.

At run time, every code-shaped word with a cue next to it becomes an `ID` entity, unless
an existing entity covers it or reaches beyond it; entities that cover only part of the
word (the digits of "P-4453069" taken for a phone number) give way to it. Code-shaped: a
Roman numeral of two or more letters ("II"), up to four digits in any script with at
most two letters before or after them and an optional hyphen ("316", "6A", "B42", "O-14",
"۳۱۶"), two numbers of up to three digits joined by a hyphen ("3-07": ranges and doses
have this shape too, so the cue decides), or a longer code of letters and digits in parts
joined by "-" or "/" ("MB-6683152", "TK/2024/22591"), the record, case, insurance, order
and lot numbers of forms and reports; the word may be several tokens ("6" "A"), written
without space between them, and ends before an apostrophe with a suffix (Turkish
"241'e"). A cue word is a word of two letters or more, or a number sign
("#", "№", "n°").

A number that any detector took for an ID also takes the word of two to five capital
letters right before it, one space apart, that is no cue: the prefix of its code ("TMU
3385217", "OHP 4471 0958 62", "SN 4471-0563-B"). Annotated IDs of the training documents
include such a word far more often than they leave it out, and the words they leave out
are the names of the number ("MRN", "NPWZ", "PID"), which are cues.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_deid.detect.entities import entity_tokens, span_tokens
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.detect.tokens import entity_index, field_label, next_word
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.profile import language_profile

SHORT_CODE = re.compile(r"^(?:[IVX]{2,5}|[^\W\d_]{0,2}-?\d{1,4}[^\W\d_]{0,2}|\d{1,3}-\d{1,3})$")
LONG_CODE = re.compile(r"^[^\W_]+(?:[-/][^\W_]+)*$")


def is_code(text: str) -> bool:
    """A Roman numeral, a short number with at most two letters around it, two short
    numbers joined by a hyphen (a ward and room, "9-06", "3-07"), or a longer
    code: letters and digits, in parts joined by "-" or "/", with a letter and a digit or
    with five digits or more ("MB-6683152", "TK/2024/22591", "24B0857913", "108597312")."""
    if SHORT_CODE.match(text):
        return True
    if LONG_CODE.match(text) is None:
        return False
    digits = sum(char.isdigit() for char in text)
    return digits >= 5 or (digits > 0 and has_letter(text))


def code_spans(doc: Doc, excluded: set[int]) -> Iterator[tuple[int, int]]:
    """(start, end) token ranges of the code-shaped words of `doc` outside the `excluded`
    tokens. A word is a run of tokens written without space between them ("6" "A",
    "O" "-" "14"), without punctuation at its edges ("B42" in "B42,") and without a suffix
    after an apostrophe ("241" in "241'e")."""
    i = 0
    while i < len(doc):
        if doc[i].is_space:  # a line break or a column gap before a word is no part of it
            i += 1
            continue
        j = i
        while j + 1 < len(doc) and not doc[j].whitespace_ and not doc[j + 1].is_space:
            j += 1
        start, end = i, suffix_start(doc, i, j + 1)
        while end > start and doc[end - 1].is_punct:
            end -= 1
        while start < end and doc[start].is_punct:
            start += 1
        if (end > start and excluded.isdisjoint(range(start, end))
                and is_code(doc[start:end].text.rstrip("."))):
            yield start, end
        i = j + 1


APOSTROPHES = frozenset({"'", "\u2019"})


def suffix_start(doc: Doc, start: int, end: int) -> int:
    """Where the word of tokens `start`-`end` ends before an apostrophe followed by letters
    only, a suffix (Turkish "1'e", "241'e"); `end` where there is none."""
    for i in range(start + 1, end - 1):
        if doc[i].text in APOSTROPHES and all(token.is_alpha for token in doc[i + 1 : end]):
            return i
    return end


def has_letter(text: str) -> bool:
    """Whether a code has a letter ("III", "B42"), unlike a bare number ("316")."""
    return any(char.isalpha() for char in text)


def unit_words(lang: str) -> frozenset[str]:
    """The language's words for a ward, room, bed, theatre or clinic (its profile)."""
    return frozenset(language_profile(lang).unit_words)


def after_field_label(doc: Doc, start: int, words: set[str]) -> bool:
    """Whether the code at token `start` follows a field label (`name_cues.field_label`)
    whose word is one of `words` ("Oda: 316")."""
    colon = next_word(doc, start - 1, -1)
    label = field_label(doc, colon) if colon >= 0 else None
    return label is not None and label.removesuffix(":") in words


def word_right_before(doc: Doc, start: int) -> str | None:
    """The lower-cased word right before token `start` on its line, without the dot of an
    abbreviation ("zi" for "Zi. 327"); None where a line break, punctuation or a number
    stands there."""
    i = start - 1
    while i >= 0 and doc[i].is_space and "\n" not in doc[i].text:
        i -= 1
    if i >= 1 and doc[i].text == "." and not doc[i - 1].whitespace_:
        i -= 1
    if i < 0 or not any(char.isalpha() for char in doc[i].text):
        return None
    return doc[i].lower_.rstrip(".")


def context_words(doc: Doc, start: int, end: int, window: int) -> tuple[list[str], str | None]:
    """The last `window` lower-cased words (no punctuation, whitespace or numbers) among the
    `window + 1` tokens before token `start`, and the first token after the code on the
    same line, past spaces, when it is a word of letters."""
    before = [token.lower_ for token in doc[max(0, start - window - 1) : start] if is_word(token)]
    after = next((token for token in doc[end : end + 2]
                  if not token.is_space or "\n" in token.text), None)
    return before[-window:], after.lower_ if after is not None and after.is_alpha else None


def cue_keys(words: Iterable[str]) -> set[str]:
    """The words, and for a compound with a hyphen its last part after the hyphen ("-nr" of
    "personalausweis-nr"): field labels of one kind of number share it, so a compound not
    seen in training is a cue where the part is one."""
    keys = set(words)
    keys |= {"-" + word.rsplit("-", 1)[1] for word in keys if "-" in word.strip("-")}
    return keys


NUMBER_SIGNS = frozenset({"#", "№", "n°", "nº"})


def is_word(token: Token) -> bool:
    """A token that can be a cue word: a number sign ("#", "№"), or two characters or more
    with a letter, not a number and not an elided article ("d'", "l'")."""
    text = token.lower_
    if text in NUMBER_SIGNS:
        return True
    return (len(text) >= 2 and any(char.isalpha() for char in text) and not token.like_num
            and not text.endswith(("'", "\u2019")))


class IdCues(LearnedData):
    """Mark code-shaped words next to learned cue words as IDs (see the module docstring)."""

    data_file = "id_cues.json"
    factory = "deid_id_cues"

    def __init__(self, name: str, lang: str | None, window: int, min_documents: int,
                 min_ratio: float) -> None:
        if window < 1 or min_documents < 1:
            raise ValueError("deid_id_cues: window and min_documents must be >= 1")
        if not 0 < min_ratio <= 1:
            raise ValueError(f"deid_id_cues: min_ratio must be in (0, 1], not {min_ratio}")
        self.name = name
        self.window = window
        self.min_documents = min_documents
        self.min_ratio = min_ratio
        self.lang = validate_language(lang) if lang else None
        # the language's ward and room words (its profile), none without `lang`
        self.ward_words = unit_words(self.lang) if self.lang else frozenset()
        self.cues_before: set[str] = set()
        self.cues_after: set[str] = set()
        self.unit_cues: set[str] = set()
        self.number_cues: set[str] = set()

    # -- learning -----------------------------------------------------------------
    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn the cue words from the reference documents; those of
        `examples` (an `[initialize.components]` setting, see `detect.gold`) where set."""
        self.learn(reference_docs(get_examples, nlp, examples))

    def learn(self, docs: Iterable[Doc]) -> None:
        """Count, over gold documents, the words around code-shaped words that are IDs and
        around those outside any entity."""
        near: Counter = Counter()  # (side, word) -> code-shaped words it stood next to
        near_id: Counter = Counter()  # (side, word) -> ... of them IDs
        lettered: Counter = Counter()  # unit word -> codes with a letter after it
        lettered_ids: Counter = Counter()  # ... of them IDs
        numbers: Counter = Counter()  # unit word -> bare numbers right after it
        number_ids: Counter = Counter()  # ... of them IDs
        id_documents: dict[tuple[str, str], set[int]] = defaultdict(set)
        for number, doc in enumerate(docs):
            ids = {i for ent in doc.ents if ent.label_ == "ID" for i in range(ent.start, ent.end)}
            others = entity_tokens(doc) - ids
            own_language = self.lang is None or doc.user_data.get("lang", self.lang) == self.lang
            for start, end in code_spans(doc, others):
                before, after = context_words(doc, start, end, self.window)
                keys = {("before", word) for word in cue_keys(before)}
                keys |= {("after", after)} if after is not None and own_language else set()
                is_id = ids.issuperset(range(start, end))
                near.update(keys)
                if is_id:
                    near_id.update(keys)
                    for key in keys:
                        id_documents[key].add(number)
                if has_letter(doc[start:end].text):
                    units = self.ward_words.intersection(before)
                    lettered.update(units)
                    lettered_ids.update(units if is_id else ())
                elif (unit := word_right_before(doc, start)) in self.ward_words:
                    numbers[unit] += 1
                    number_ids[unit] += is_id
        cues = {key for key, count in near_id.items()
                if len(id_documents[key]) >= self.min_documents
                and count / near[key] >= self.min_ratio}
        self.cues_before = {word for side, word in cues if side == "before"}
        self.cues_after = {word for side, word in cues if side == "after"}
        self.unit_cues = {word for word in self.ward_words - self.cues_before
                          if self.mostly_ids(lettered[word], lettered_ids[word],
                                             self.min_documents)}
        self.number_cues = {word for word in self.ward_words
                            if self.mostly_ids(numbers[word], number_ids[word], 1)}

    def mostly_ids(self, codes: int, ids: int, min_codes: int) -> bool:
        """Whether a ward word's `codes` after it, `ids` of them IDs, leave it a cue: too
        few (under `min_codes`) to tell, or at least `min_ratio` of them IDs."""
        return codes < min_codes or ids / codes >= self.min_ratio

    # -- finding --------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        if not (self.cues_before or self.cues_after or self.unit_cues or self.number_cues):
            return doc
        entity_of = entity_index(doc)
        found: list[Span] = []
        replaced: set[tuple[int, int]] = set()
        for start, end in code_spans(doc, set()):
            inside = list({(ent.start, ent.end): ent for i in range(start, end)
                           if (ent := entity_of.get(i)) is not None}.values())
            if not self.may_take(inside, start, end):
                continue
            before, after = context_words(doc, start, end, self.window)
            if (self.cues_before.intersection(cue_keys(before)) or after in self.cues_after
                    or self.is_unit_code(doc, start, end, before)):
                found.append(Span(doc, start, end, label="ID"))
                replaced.update((ent.start, ent.end) for ent in inside)
        ents = list(doc.ents)
        if found:
            kept = [ent for ent in ents if (ent.start, ent.end) not in replaced]
            ents = sorted([*kept, *found], key=lambda span: span.start)
        with_prefixes = self.with_code_prefixes(ents)
        if found or with_prefixes != ents:
            doc.ents = with_prefixes
        return doc

    def with_code_prefixes(self, ents: list[Span]) -> list[Span]:
        """`ents` with every ID that starts with a digit grown over a code prefix right
        before it (see `is_code_prefix`)."""
        taken = span_tokens(ents)
        return [Span(ent.doc, ent.start - 1, ent.end, label="ID")
                if ent.label_ == "ID" and ent.text[0].isdigit() and ent.start > 0
                and ent.start - 1 not in taken and self.is_code_prefix(ent.doc[ent.start - 1])
                else ent for ent in ents]

    def is_code_prefix(self, token: Token) -> bool:
        """A word of two to five capital letters, one space before a code, that is no cue
        and no ward or room word ("TMU" of "TMU 3385217", not "MRN" or "ICU")."""
        return (token.whitespace_ == " " and 2 <= len(token) <= 5 and token.is_alpha
                and token.is_upper and token.lower_ not in self.cues_before
                and token.lower_ not in self.ward_words)

    @staticmethod
    def may_take(inside: list[Span], start: int, end: int) -> bool:
        """Whether a code word (tokens `start`-`end`) may become an ID given the entities
        `inside` that overlap it: where there are none, or where they lie within the word
        and leave part of it out (the digits of "P-4453069" taken as a phone number, a year
        in "RAD-2024-137906" as a date); an entity reaching beyond the word, or one that is
        the word, stays."""
        if any(ent.start < start or ent.end > end for ent in inside):
            return False
        return sum(len(ent) for ent in inside) < end - start

    def is_unit_code(self, doc: Doc, start: int, end: int, before: list[str]) -> bool:
        """A code after a ward or room word: one with a letter, or a bare number right after
        the word ("Bett 2") or after the word as a field label ("Oda: 316")."""
        if has_letter(doc[start:end].text):
            return bool(self.unit_cues.intersection(before))
        return (word_right_before(doc, start) in self.number_cues
                or after_field_label(doc, start, self.unit_cues))

    # -- serialisation (LearnedData) ------------------------------------------------
    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        return {"cues_before": sorted(self.cues_before), "cues_after": sorted(self.cues_after),
                "unit_cues": sorted(self.unit_cues), "number_cues": sorted(self.number_cues)}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned."""
        self.cues_before = set(data.get("cues_before", []))
        self.cues_after = set(data.get("cues_after", []))
        self.unit_cues = set(data.get("unit_cues", []))
        self.number_cues = set(data.get("number_cues", []))


@Language.factory(
    "deid_id_cues",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"lang": None, "window": 2, "min_documents": 2, "min_ratio": 0.5},
)
def make_id_cues(nlp: Language, name: str, lang: str | None, window: int, min_documents: int,
                 min_ratio: float) -> IdCues:
    """Factory of `deid_id_cues`; call `initialize` (or load) to give it its cues. With
    `lang`, the language's ward and room words are cues for codes with a letter, and for
    a bare number right after the word or after the word and a colon."""
    lang = pipeline_language(nlp, lang, "deid_id_cues")
    return IdCues(name, lang, window, min_documents, min_ratio)
