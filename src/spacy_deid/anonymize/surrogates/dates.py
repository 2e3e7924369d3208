"""Date surrogates: shift every date of a document by one offset, keeping its format.

A date is read into fields (day, month, year) with the positions of the characters that
wrote them; the fields are shifted by the document's offset in days and written back in
place with the same width, zero padding, digit system, month-name form (nominative,
genitive, abbreviation ...) and letter case. Partial dates keep their precision: a year
stays a year (`2006`), a day and month stay a day and month (`8.3.`). Ranges (`02–04.2021`,
`Februar bis April 2021`) share the fields the first part leaves out. A date that cannot
be read gets a surrogate of the same shape instead, never the original.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field
from functools import cache

from spacy_deid.anonymize.surrogates.shapes import shape_surrogate
from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.casing import match_case
from spacy_deid.lang.digits import digit_system, to_digit_system, to_latin_digits
from spacy_deid.lang.profile import language_profile
from spacy_deid.lang.scripts import LETTER_RUN

RANGE_WORDS = (
    "bis",
    "to",
    "until",
    "till",
    "до",
    "по",
    "au",
    "al",
    "tot",
    "do",
    "ile",
    "تا",
    "إلى",
    "حتى",
    "a",
)
RANGE_PATTERN = re.compile(
    r"[–—]|\s-\s|(?<!\w)(?:" + "|".join(RANGE_WORDS) + r")(?!\w)", re.IGNORECASE
)
_REFERENCE_LEAP_YEAR = 2000


@dataclass
class Item:
    """One piece of a date text: a number, a month name, or literal text."""

    kind: str  # "num", "month" or "lit"
    start: int
    end: int
    text: str
    value: int = 0
    form: str = ""
    suffix: str = ""  # ordinal suffix of a number ("th", "er", "°")


@dataclass
class DateFields:
    """Which items of a date group hold the day, month and year."""

    items: list[int] = field(default_factory=list)
    day: int | None = None
    month: int | None = None
    year: int | None = None
    month_is_name: bool = False


class UnreadableDate(ValueError):
    """The text is not a date this module can read."""


# The Hijri and Gregorian era marks that Arabic and Persian write right after a year
# ("1446هـ", "2024م"): part of the date, kept as written.
ERA_MARKS = frozenset({"هـ", "ه", "م"})


@cache
def month_table(
    lang: str,
) -> tuple[dict[str, tuple[int, str]], dict[str, tuple[str, ...]], re.Pattern]:
    """Month-name lookup (lowercase name -> (month, form)), the forms, and a finder regex."""
    forms = dict(language_profile(lang).months) if lang in LANGUAGES else {}
    lookup: dict[str, tuple[int, str]] = {}
    for kind, names in forms.items():
        for index, name in enumerate(names):
            lookup.setdefault(name.lower(), (index + 1, kind))
    alternation = "|".join(re.escape(name) for name in sorted(lookup, key=len, reverse=True))
    letter = r"[^\W\d_]"
    era = "|".join(sorted(ERA_MARKS, key=len, reverse=True))
    pattern = (
        re.compile(
            rf"(?<!{letter})(?P<month>{alternation})(?!{letter})|"
            rf"(?P<num>\d+)(?P<ord>st|nd|rd|th|er|re|°|º)?(?!(?!{era}){letter})|"
            r"(?P<lit>.)",
            re.IGNORECASE | re.DOTALL,
        )
        if lookup
        else re.compile(
            r"(?P<month>(?!x)x)|(?P<num>\d+)(?P<ord>st|nd|rd|th|er|°|º)?|(?P<lit>.)", re.DOTALL
        )
    )
    return lookup, forms, pattern


def tokenize_date(text: str, lang: str) -> list[Item]:
    """Split a (Latin-digit) date text into numbers, month names and literal characters."""
    lookup, _, pattern = month_table(lang)
    items: list[Item] = []
    for match in pattern.finditer(text):
        if match.group("month"):
            month, form = lookup[match.group("month").lower()]
            items.append(Item("month", match.start(), match.end(), match.group(), month, form))
        elif match.group("num"):
            number = match.group("num")
            items.append(
                Item(
                    "num",
                    match.start(),
                    match.start() + len(number),
                    number,
                    int(number),
                    suffix=match.group("ord") or "",
                )
            )
        elif items and items[-1].kind == "lit":
            items[-1].text += match.group()
            items[-1].end = match.end()
        else:
            items.append(Item("lit", match.start(), match.end(), match.group()))
    return items


def split_groups(items: list[Item]) -> list[list[int]]:
    """Indices of date items per range part (split at dashes and words like 'bis', 'to')."""
    groups: list[list[int]] = [[]]
    for index, item in enumerate(items):
        if item.kind == "lit" and RANGE_PATTERN.search(item.text) and groups[-1]:
            groups.append([])
        elif item.kind != "lit":
            groups[-1].append(index)
    return [group for group in groups if group]


def _separator_before(items: list[Item], index: int) -> str:
    return items[index - 1].text if index > 0 and items[index - 1].kind == "lit" else ""


def read_group(items: list[Item], group: list[int], lang: str) -> DateFields:
    """Assign day / month / year roles to the items of one date group."""
    fields = DateFields(items=group)
    months = [i for i in group if items[i].kind == "month"]
    numbers = [i for i in group if items[i].kind == "num"]
    if len(months) > 1:
        raise UnreadableDate("several month names in one date")
    if months:
        fields.month, fields.month_is_name = months[0], True
        for i in numbers:
            item = items[i]
            width = len(item.text)
            if width == 4 and fields.year is None:
                fields.year = i
            elif (
                width <= 2
                and item.suffix
                and fields.day is None
                or width <= 2
                and i < months[0]
                and fields.day is None
            ):
                fields.day = i
            elif width <= 2 and i > months[0]:
                apostrophe = _separator_before(items, i).endswith(("'", "’"))
                if lang == "en" and fields.day is None and not apostrophe:
                    fields.day = i
                elif fields.year is None:
                    fields.year = i
                else:
                    raise UnreadableDate("unexpected number")
            else:
                raise UnreadableDate("unexpected number")
        return fields
    widths = [len(items[i].text) for i in numbers]
    separators = "".join(_separator_before(items, i) for i in numbers[1:])
    if len(numbers) == 3:
        if widths[0] == 4:
            fields.year, fields.month, fields.day = numbers
        elif lang == "en" and "/" in separators:
            fields.month, fields.day, fields.year = numbers
        else:
            fields.day, fields.month, fields.year = numbers
        if items[fields.month].value > 12 and items[fields.day].value <= 12:
            fields.month, fields.day = fields.day, fields.month
    elif len(numbers) == 2:
        first, second = (items[i].value for i in numbers)
        if widths[0] == 4:
            fields.year, fields.month = numbers
        elif widths[1] == 4:
            fields.month, fields.year = numbers
        elif "/" in separators:
            if first <= 12:
                fields.month, fields.year = numbers
            else:
                fields.day, fields.month = numbers
        elif second <= 12:
            fields.day, fields.month = numbers
        else:
            fields.month, fields.year = numbers
    elif len(numbers) == 1:
        item = items[numbers[0]]
        if len(item.text) == 4:
            fields.year = numbers[0]
        elif item.suffix and item.value <= 31:
            fields.day = numbers[0]
        else:
            raise UnreadableDate("a lone number")
    else:
        raise UnreadableDate("no date fields")
    return fields


def _full_year(item: Item) -> int:
    if len(item.text) == 2:
        return 2000 + item.value if item.value < 50 else 1900 + item.value
    return item.value


def _anchor(items: list[Item], fields: DateFields, inherited: DateFields | None) -> dt.date:
    """A full date standing for the (possibly partial) date, for shifting."""
    year_item = fields.year if fields.year is not None else (inherited and inherited.year)
    month_item = fields.month if fields.month is not None else (inherited and inherited.month)
    year = _full_year(items[year_item]) if year_item is not None else _REFERENCE_LEAP_YEAR
    if month_item is None:
        return dt.date(year, 7, 2)
    month = items[month_item].value
    day = items[fields.day].value if fields.day is not None else 15
    return dt.date(year, month, day)


def _format_number(original: Item, value: int, padded: bool = False) -> str:
    """Write `value` like `original`: zero-padded to its width when `padded` or it had a zero."""
    width = len(original.text)
    if width > 1 and (padded or original.text.startswith("0")):
        return str(value).zfill(width)
    return str(value)


def _padded_style(items: list[Item], groups: list[DateFields]) -> bool:
    """Whether day and month numbers are zero-padded: one has a leading zero, or an all-numeric
    date writes every day and month with two digits (`12.11.2025`)."""
    fields = [
        f
        for g in groups
        for f in (g.day, g.month)
        if f is not None and items[f].kind == "num" and not items[f].suffix
    ]
    if any(items[f].text.startswith("0") and len(items[f].text) > 1 for f in fields):
        return True
    numeric = not any(g.month_is_name for g in groups)
    return numeric and bool(fields) and all(len(items[f].text) == 2 for f in fields)


def _ordinal_suffix(original: str, day: int, lang: str) -> str:
    if not original:
        return ""
    if original.lower() in ("st", "nd", "rd", "th"):
        suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
        return suffix.upper() if original.isupper() else suffix
    return original if day == 1 else ""


def _rewrite(
    items: list[Item],
    fields: DateFields,
    new: dt.date,
    lang: str,
    out: dict[int, str],
    padded: bool,
) -> None:
    _, forms, _ = month_table(lang)
    if fields.day is not None:
        item = items[fields.day]
        out[fields.day] = _format_number(item, new.day, padded) + _ordinal_suffix(
            item.suffix, new.day, lang
        )
    if fields.month is not None:
        item = items[fields.month]
        if fields.month_is_name:
            out[fields.month] = match_case(item.text, forms[item.form][new.month - 1], lang)
        else:
            out[fields.month] = _format_number(item, new.month, padded)
    if fields.year is not None:
        item = items[fields.year]
        year = new.year % 100 if len(item.text) == 2 else new.year
        out[fields.year] = _format_number(item, year, padded=True)


def shift_date_text(text: str, offset_days: int, lang: str) -> str:
    """Shift the date written in `text` by `offset_days`, keeping format and precision.

    Raises `UnreadableDate` when `text` is not a date this module can read.
    """
    latin = to_latin_digits(text)
    items = tokenize_date(latin, lang)
    groups = split_groups(items)
    if not groups:
        raise UnreadableDate("no date fields")
    parsed: list[DateFields | None] = []
    for group in groups:
        try:
            parsed.append(read_group(items, group, lang))
        except UnreadableDate:
            if len(group) != 1 or len(groups) == 1:
                raise
            parsed.append(None)
    last = parsed[-1]
    if last is None:
        raise UnreadableDate("the last part of a range is unreadable")
    # A lone number before a readable part takes that part's first field ("02–04.2021").
    for index, fields in enumerate(parsed):
        if fields is None:
            follower = next(f for f in parsed[index + 1 :] if f is not None)
            role = min(
                (r for r in ("day", "month", "year") if getattr(follower, r) is not None),
                key=lambda r: getattr(follower, r),
            )
            parsed[index] = DateFields(items=groups[index], **{role: groups[index][0]})
    out: dict[int, str] = {}
    padded = _padded_style(items, parsed)
    try:
        for fields in parsed:
            inherited = last if fields is not last else None
            if (
                fields.day is not None
                and fields.month is None
                and (inherited is None or inherited.month is None)
            ):
                day = (items[fields.day].value - 1 + offset_days) % 28 + 1
                out[fields.day] = _format_number(items[fields.day], day, padded) + _ordinal_suffix(
                    items[fields.day].suffix, day, lang
                )
                continue
            new = _anchor(items, fields, inherited) + dt.timedelta(days=offset_days)
            _rewrite(items, fields, new, lang, out, padded)
    except (ValueError, OverflowError) as error:
        raise UnreadableDate("not a valid calendar date") from error
    pieces = [out.get(i, item.text) for i, item in enumerate(items)]
    return to_digit_system("".join(pieces), digit_system(text))


def _plausible_number(item: Item, rng: random.Random) -> str:
    """A different number that could stand in a date: 1-12 for short ones, a year for four."""
    if len(item.text) == 4:
        choices = [y for y in range(1950, 2031) if y != item.value]
    elif len(item.text) <= 2:
        choices = [v for v in range(1, 13) if v != item.value]
    else:
        return shape_surrogate(item.text, rng)
    value = rng.choice(choices)
    return str(value).zfill(len(item.text)) if len(item.text) == 2 else str(value)


def _shaped_literal(text: str, rng: random.Random) -> str:
    """Text between the numbers and month names of an unreadable date with every letter and
    digit replaced ("0J0J0J", a number glued to letters, is no date field), spaces and
    punctuation kept, so that no part of the original survives."""
    return shape_surrogate(text, rng) if any(ch.isalnum() for ch in text) else text


def date_shape_surrogate(text: str, lang: str, rng: random.Random) -> str:
    """A same-shape stand-in for an unreadable date: random digits and month names."""
    latin = to_latin_digits(text)
    _, forms, _ = month_table(lang)
    pieces = []
    for item in tokenize_date(latin, lang):
        if item.kind == "month":
            names = forms[item.form]
            choice = rng.choice([n for n in names if n.lower() != item.text.lower()] or names)
            pieces.append(match_case(item.text, choice, lang))
        elif item.kind == "num":
            pieces.append(_plausible_number(item, rng) + item.suffix)
        else:
            pieces.append(_shaped_literal(item.text, rng))
    result = to_digit_system("".join(pieces), digit_system(text))
    return result if result != text else shape_surrogate(text, rng)


def hide_capitalised_words(text: str, lang: str, rng: random.Random) -> str:
    """`text` with every capitalised word other than a month name replaced by letters of the
    same shape. Shifting moves only a date's fields, so a name the detector took into a
    date (`Yazıcı 26.03.2029`) or a weekday that would give the real date away stays as
    written otherwise."""
    lookup, _, _ = month_table(lang)

    def hide(match: re.Match) -> str:
        word = match.group()
        if len(word) > 1 and word[0].isupper() and word.lower() not in lookup:
            return shape_surrogate(word, rng)
        return word

    return LETTER_RUN.sub(hide, text)


def date_surrogate(text: str, offset_days: int, lang: str, rng: random.Random,
                   hide_words: bool = True) -> str:
    """The shifted date, or a same-shape stand-in when `text` cannot be read; with
    `hide_words`, a capitalised word in it that is no month name is replaced too."""
    try:
        shifted = shift_date_text(text, offset_days, lang)
    except UnreadableDate:
        return date_shape_surrogate(text, lang, rng)
    if shifted == text:
        return date_shape_surrogate(text, lang, rng)
    return hide_capitalised_words(shifted, lang, rng) if hide_words else shifted
