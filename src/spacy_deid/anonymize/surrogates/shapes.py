"""Same-shape surrogates: digit for digit, letter for letter, separators kept.

Used for IDs, phone and fax numbers, postal codes, user names, and as the fallback for
anything that cannot be parsed (e.g. a date we cannot read), so no original survives.
"""

from __future__ import annotations

import random
import string
import unicodedata

from spacy_deid.lang.digits import DIGIT_SYSTEMS
from spacy_deid.lang.scripts import SCRIPT_ALPHABETS


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else ""


def random_letter_like(ch: str, rng: random.Random) -> str:
    """A random letter of the same script and case as `ch` (Latin when the script is unknown)."""
    alphabet = SCRIPT_ALPHABETS.get(_script(ch), string.ascii_lowercase)
    letter = rng.choice(alphabet)
    return letter.upper() if ch.isupper() else letter


def random_digit_like(ch: str, rng: random.Random, nonzero: bool = False) -> str:
    """A random digit in the digit system of `ch`."""
    system = next((d for d in DIGIT_SYSTEMS.values() if ch in d), DIGIT_SYSTEMS["latin"])
    return system[rng.randint(1 if nonzero else 0, 9)]


def _digit_value(ch: str) -> int:
    return unicodedata.digit(ch, -1)


def shape_surrogate(text: str, rng: random.Random, keep_prefix: int = 0) -> str:
    """Replace every digit by a digit and every letter by a letter; keep everything else.

    The first `keep_prefix` characters are kept (e.g. a phone number's country code).
    A leading non-zero digit stays non-zero, so numbers keep their length. The result
    differs from `text` whenever `text` has a digit or letter after the kept prefix.
    """
    for _ in range(20):
        out = list(text[:keep_prefix])
        first_digit = True
        for ch in text[keep_prefix:]:
            if _digit_value(ch) >= 0 and ch.isdigit():
                out.append(
                    random_digit_like(ch, rng, nonzero=first_digit and _digit_value(ch) != 0)
                )
                first_digit = False
            elif ch.isalpha():
                out.append(random_letter_like(ch, rng))
            else:
                out.append(ch)
                first_digit = first_digit or not ch.isalnum()
        result = "".join(out)
        if result != text or not any(ch.isalnum() for ch in text[keep_prefix:]):
            return result
    return result


def phone_prefix_length(text: str) -> int:
    """How much of a phone number to keep: '+' with the country code, or a leading trunk '0'."""
    stripped = text.lstrip()
    offset = len(text) - len(stripped)
    if stripped.startswith("+"):
        end = 1
        while end < len(stripped) and stripped[end].isdigit() and end <= 3:
            end += 1
        # A country code is followed by a separator; without one keep only '+' and 2 digits.
        if end < len(stripped) and stripped[end].isdigit():
            end = min(end, 3)
        return offset + end
    if stripped.startswith("00"):
        return offset + 4
    if stripped.startswith("0") or stripped.startswith("(0"):
        return offset + stripped.index("0") + 1
    return offset


def phone_surrogate(text: str, rng: random.Random) -> str:
    """A phone or fax number of the same shape, keeping the country code / trunk prefix."""
    keep = phone_prefix_length(text)
    digits_after = sum(ch.isdigit() for ch in text[keep:])
    if digits_after < 4:
        keep = 0
    return shape_surrogate(text, rng, keep_prefix=keep)


def mask(text: str, char: str = "*") -> str:
    """Replace every character except white space by `char`."""
    return "".join(ch if ch.isspace() else char for ch in text)
