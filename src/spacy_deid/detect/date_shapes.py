"""The `deid_date_shapes` component: a number that no date is written as is not a date.

The NERs learned dates from digits and separators, and now and then they take a long
number for one ("Case: 217358409316", "Паспорт: 03 09 538716"). The anonymizer then
writes a date-like surrogate, and a strategy chosen for dates (`keep`, for a study that
needs the real dates) would apply to an identifier. A date has separators
or a month word, or is a short run of digits; a run of `min_digits` or more digits with
at most spaces between the groups, unless the groups read as day, month, year
("12 03 2024") or year, month, day ("2024 03 12"), is a code. So is one word of letters
and digits, in parts joined by "-" or "/" or not at all, that holds a letter outside the
language's month names, Roman numerals and a closing era or year mark of up to two letters
("AUT/24/137409", "HP-24-3586", "ACC90051736"; not "12-Mar-2024", "12-III-2024",
"26/04/1446هـ"), or two or more digit groups of which one has five digits or more
("2024-137906"). Such a DATE entity becomes an ID. A DATE or AGE entity that is only
part of such a word, the rest of which holds a digit too, becomes an ID as well (the
tokenizer cuts "23-44871" into three tokens, and an NER may take "23" for an age), and so
does one that touches an ID ("4" of "4B", the "B" an ID).
Two numbers of one or two digits joined by "/" or "." that are both above 12 ("20/20" of a
visual acuity, a pressure of "14/15", the time "15.38") read as no day and month, month and
day or month and year, and a time of day with a colon ("12:14:02") or a medication scheme
with a dose of 0 or of more than 31 ("1-0-1", "250-250-250") names no day: such a DATE
entity is dropped, so that the anonymizer does not shift a measurement or a time as it
shifts a date. A month name and the year after it are one date, also across a line break
("Oktober ⏎ 2012"): two such DATE entities are joined, and a DATE entity that ends with a
month name takes the year after it that no entity holds ("۱۱ مرداد ۱۴۰۳"), so that the
anonymizer shifts the date as a whole; an Arabic or Persian era mark written right after a
date's last digit is part of it ("14/09/1445هـ").
Nothing is learned: no annotated date or age in the corpus has the shapes of a code, lies
in such a word or touches another entity, while IDs, phone numbers and postcodes do; no
annotated span of any label is a pair of numbers no calendar reads, a time of day or such a
scheme; an annotated month name with its year is one span, never a day and month without
the year after them; and an era mark written right after a date is inside its span. Place it
after the NERs, before the components that act on IDs (`deid_entity_bounds` then joins
"RAD-" and "2024-137906").
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_deid.anonymize.surrogates.dates import ERA_MARKS, month_table
from spacy_deid.detect.entities import span_tokens
from spacy_deid.detect.entity_bounds import PARAGRAPH_BREAK, whole_code_word
from spacy_deid.detect.id_cues import LONG_CODE
from spacy_deid.detect.tokens import next_word
from spacy_deid.lang import pipeline_language
from spacy_deid.lang.scripts import LETTER_RUN
from spacy_deid.presidio.recognizers.common import HIJRI_YEAR, YEAR, normalize_digits
from spacy_deid.presidio.recognizers.phones import is_dose_scheme, scheme_doses

# Digits in groups separated by single spaces.
DIGIT_GROUPS = re.compile(r"\d+(?: \d+)*")
# Day, month, year or year, month, day, written with spaces.
SPACED_DATE = re.compile(r"\d{1,2} \d{1,2} (?:\d{2}|\d{4})|\d{4} \d{1,2} \d{1,2}")
DIGIT_RUN = re.compile(r"\d+")
ROMAN_NUMERAL = re.compile(r"[IVXivx]+")
# An era or year mark closing a date ("1446هـ", "2024م", "2024г").
MAX_CLOSING_MARK = 2
# Two numbers of one or two digits joined by a slash or a dot ("20/20", "14 / 15", "15.38").
NUMBER_PAIR = re.compile(r"(\d{1,2}) ?[/.] ?(\d{1,2})\.?")
# The highest month number: a date of two numbers has one of them at most this.
LAST_MONTH = 12
# A time of day: hours and minutes, perhaps seconds, joined by colons.
TIME_OF_DAY = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?")
# The highest day number.
LAST_DAY = 31
# A year after a month name: as the date recognizers read years, or of the Hijri and Solar
# Hijri calendars ("۱۱ مرداد ۱۴۰۳").
FULL_YEAR = re.compile(rf"{YEAR}|{HIJRI_YEAR}")


def is_code_not_date(text: str, min_digits: int) -> bool:
    """Whether `text` is `min_digits` or more digits in space-separated groups that do not
    read as a date."""
    if not DIGIT_GROUPS.fullmatch(text) or SPACED_DATE.fullmatch(text):
        return False
    return sum(char.isdigit() for char in text) >= min_digits


def month_letters(text: str, lang: str) -> str:
    """`text` with the month names of `lang` and the numbers (with their ordinal endings)
    blanked out, so that the letters left over are those no date word accounts for."""
    _, _, pattern = month_table(lang)
    return "".join(match.group("lit") or " " for match in pattern.finditer(text))


def is_lettered_code(text: str, lang: str) -> bool:
    """Whether `text` is one word of letters and digits that no date of `lang` is written as:
    a letter outside its month names, Roman numerals and a closing mark of up to two letters,
    or a group of five digits or more among two or more."""
    text = normalize_digits(text)
    groups = DIGIT_RUN.findall(text)
    if not groups or LONG_CODE.fullmatch(text) is None:
        return False
    if len(groups) >= 2 and max(map(len, groups)) >= 5:
        return True
    letters = LETTER_RUN.findall(month_letters(text, lang))
    if letters and text.endswith(letters[-1]) and len(letters[-1]) <= MAX_CLOSING_MARK:
        letters = letters[:-1]
    return any(not ROMAN_NUMERAL.fullmatch(run) for run in letters)


def names_no_day(text: str) -> bool:
    """Whether `text` is two numbers joined by "/" or "." that no calendar reads as a day and
    month, a month and day or a month and year (both are above 12), a time of day, or a
    medication scheme with a dose of 0 or doses above 31 (`1-0-1`, `250-250-250`)."""
    text = normalize_digits(text)
    if TIME_OF_DAY.fullmatch(text):
        return True
    if is_dose_scheme(text):
        doses = [int(dose) for dose in scheme_doses(text)]
        return 0 in doses or min(doses) > LAST_DAY
    match = NUMBER_PAIR.fullmatch(text)
    return match is not None and min(int(match[1]), int(match[2])) > LAST_MONTH


def is_month_name(text: str, lang: str) -> bool:
    """Whether `text` is a month name of `lang` and nothing else."""
    left = month_letters(text, lang)
    return not any(char.isdigit() for char in text) and left != text and not LETTER_RUN.search(left)


def is_year_after(first: Span, second: Span) -> bool:
    """Whether `second` is a year (`FULL_YEAR`) after `first` with nothing but white space
    between them within the paragraph."""
    between = first.doc.text[first.end_char:second.start_char]
    return (not between.strip() and PARAGRAPH_BREAK.search(between) is None
            and FULL_YEAR.fullmatch(normalize_digits(second.text)) is not None)


def ends_with_month_name(span: Span, lang: str) -> bool:
    """Whether the last one, two or three tokens of `span` are a month name ("Juli",
    "تشرين الأول")."""
    return any(is_month_name(span[-n:].text, lang) for n in range(1, min(3, len(span)) + 1))


def month_and_year(first: Span, second: Span, lang: str) -> bool:
    """Whether `first` is a month name and `second` the year right after it (see
    `is_year_after`): both DATE entities."""
    return (first.label_ == second.label_ == "DATE" and is_month_name(first.text, lang)
            and is_year_after(first, second))


def with_year_after(ent: Span, taken: set[int], lang: str) -> Span:
    """A DATE entity that ends with a month name, grown over the year right after it where
    that year is in no entity ("11 Mordad" + "1403")."""
    doc = ent.doc
    year = next_word(doc, ent.end, 1)
    if (ent.label_ != "DATE" or year >= len(doc) or year in taken
            or not ends_with_month_name(ent, lang) or not is_year_after(ent, doc[year:year + 1])):
        return ent
    return Span(doc, ent.start, year + 1, label="DATE")


def join_months_and_years(ents: list[Span], lang: str) -> list[Span]:
    """`ents` (in order) with each month name joined to the year right after it."""
    joined: list[Span] = []
    for ent in ents:
        if joined and month_and_year(joined[-1], ent, lang):
            joined[-1] = Span(ent.doc, joined[-1].start, ent.end, label="DATE")
        else:
            joined.append(ent)
    return joined


def with_era_mark(ent: Span, taken: set[int]) -> Span:
    """A DATE entity grown over an era mark written right after its last digit ("1446" +
    "هـ") that no entity holds."""
    doc = ent.doc
    mark = ent.end
    if (ent.label_ != "DATE" or mark >= len(doc) or mark in taken or ent[-1].whitespace_
            or not ent[-1].text[-1:].isdigit() or doc[mark].text not in ERA_MARKS):
        return ent
    return Span(doc, ent.start, mark + 1, label="DATE")


def touching_ids(ents: list[Span]) -> set[int]:
    """The indices of the entities (in text order) that an ID touches, with no character
    between them: pieces of one code that the NERs labelled apart ("4" + "B" of "4B")."""
    touching = set()
    for i, (first, second) in enumerate(zip(ents, ents[1:], strict=False)):
        if first.end_char == second.start_char:
            if second.label_ == "ID":
                touching.add(i)
            if first.label_ == "ID":
                touching.add(i + 1)
    return touching


class DateShapes:
    """Relabel the DATE and AGE entities that cannot be dates or ages as IDs, and drop the
    DATE entities that name no day: pairs of numbers no calendar reads, times of day; join a
    month name to its year (see the module docstring)."""

    def __init__(self, name: str, lang: str, min_digits: int) -> None:
        self.name = name
        self.lang = lang
        self.min_digits = min_digits

    def is_code(self, text: str) -> bool:
        """Whether a DATE entity's `text` has a shape no date is written in."""
        return is_code_not_date(text, self.min_digits) or is_lettered_code(text, self.lang)

    def in_code_word(self, ent: Span, taken: set[int]) -> bool:
        """Whether `ent` is part of a longer code word (letters, digits, hyphens, no space,
        no token in `taken`) whose other pieces hold a digit and which, whole, has a shape
        no date has."""
        word = whole_code_word(ent, taken)
        rest = [token.text for token in word if not ent.start <= token.i < ent.end]
        return (any(char.isdigit() for text in rest for char in text)
                and self.is_code(word.text))

    def is_id(self, ent: Span, taken: set[int], touches_id: bool) -> bool:
        """Whether a DATE or AGE entity is an ID by its shape, the word it is part of, or an
        ID it touches (`touches_id`)."""
        if ent.label_ == "DATE" and self.is_code(ent.text):
            return True
        return ent.label_ in ("DATE", "AGE") and (touches_id or self.in_code_word(ent, taken))

    def __call__(self, doc: Doc) -> Doc:
        ents = list(doc.ents)
        # whole_code_word grows over the tokens beside an entity, never its own, so the
        # tokens of every entity can be passed as taken
        taken = span_tokens(ents)
        touching = touching_ids(ents)
        relabelled = [
            Span(doc, ent.start, ent.end, label="ID")
            if self.is_id(ent, taken, i in touching) else ent
            for i, ent in enumerate(ents)
            if not (ent.label_ == "DATE" and names_no_day(ent.text))
        ]
        relabelled = [with_era_mark(with_year_after(ent, taken, self.lang), taken)
                      for ent in join_months_and_years(relabelled, self.lang)]
        if relabelled != ents:
            doc.ents = relabelled
        return doc


@Language.factory("deid_date_shapes", assigns=["doc.ents"], requires=["doc.ents"],
                  default_config={"lang": None, "min_digits": 6})
def make_date_shapes(nlp: Language, name: str, lang: str | None, min_digits: int) -> DateShapes:
    """Factory of `deid_date_shapes`: `min_digits` digits make a number too long for a
    date; `lang` (default: the pipeline's) gives the month names."""
    return DateShapes(name, pipeline_language(nlp, lang, "deid_date_shapes"), min_digits)
