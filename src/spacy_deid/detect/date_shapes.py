"""The `deid_date_shapes` component: a number that no date is written as is not a date.

The NERs learned dates from digits and separators, and now and then they take a long
number for one ("Case: 215873409317", "Паспорт: 03 09 514772"). The anonymizer then
writes a date-like surrogate, and a strategy chosen for dates (`keep`, for a study that
needs the real dates) would apply to an identifier. A date has separators
or a month word, or is a short run of digits; a run of `min_digits` or more digits with
at most spaces between the groups, unless the groups read as day, month, year
("12 03 2024") or year, month, day ("2024 03 12"), is a code. Such a DATE entity becomes
an ID. Nothing is learned: no annotated date in the corpus has that shape, while IDs,
phone numbers and postcodes do. Place it after the NERs, before the components that act
on IDs.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

# Digits in groups separated by single spaces.
DIGIT_GROUPS = re.compile(r"\d+(?: \d+)*")
# Day, month, year or year, month, day, written with spaces.
SPACED_DATE = re.compile(r"\d{1,2} \d{1,2} (?:\d{2}|\d{4})|\d{4} \d{1,2} \d{1,2}")


def is_code_not_date(text: str, min_digits: int) -> bool:
    """Whether `text` is `min_digits` or more digits in space-separated groups that do not
    read as a date."""
    if not DIGIT_GROUPS.fullmatch(text) or SPACED_DATE.fullmatch(text):
        return False
    return sum(char.isdigit() for char in text) >= min_digits


class DateShapes:
    """Relabel the DATE entities that cannot be dates as IDs (see the module docstring)."""

    def __init__(self, name: str, min_digits: int) -> None:
        self.name = name
        self.min_digits = min_digits

    def __call__(self, doc: Doc) -> Doc:
        ents = list(doc.ents)
        relabelled = [
            Span(doc, ent.start, ent.end, label="ID")
            if ent.label_ == "DATE" and is_code_not_date(ent.text, self.min_digits) else ent
            for ent in ents
        ]
        if relabelled != ents:
            doc.ents = relabelled
        return doc


@Language.factory("deid_date_shapes", assigns=["doc.ents"], requires=["doc.ents"],
                  default_config={"min_digits": 6})
def make_date_shapes(nlp: Language, name: str, min_digits: int) -> DateShapes:
    """Factory of `deid_date_shapes`: `min_digits` digits make a number too long for a
    date."""
    return DateShapes(name, min_digits)
