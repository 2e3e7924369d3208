"""Same-shape surrogates for IDs, phone numbers and postal codes."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.anonymize.surrogates.shapes import mask, phone_surrogate, shape_surrogate


def _shape(text: str) -> list[str]:
    return ["9" if c.isdigit() else "a" if c.isalpha() else c for c in text]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789ABCxyzЖж۳-/. ", min_size=1, max_size=30))
def test_shape_is_kept_and_original_changes(text):
    new = shape_surrogate(text, random.Random(1))
    assert _shape(new) == _shape(text)
    if any(c.isalnum() for c in text) and len([c for c in text if c.isalnum()]) > 3:
        assert new != text


def test_scripts_and_digit_systems_are_kept():
    new = shape_surrogate("АБ-۱۲۳", random.Random(0))
    assert all("А" <= c <= "я" for c in new[:2]) and all("۰" <= c <= "۹" for c in new[3:])


def test_phone_keeps_country_code_and_trunk_prefix():
    rng = random.Random(0)
    assert phone_surrogate("+49 221 478-5510", rng).startswith("+49 ")
    new = phone_surrogate("0221 4785510", rng)
    assert new.startswith("0") and _shape(new) == _shape("0221 4785510")
    assert new != "0221 4785510"


def test_mask_keeps_white_space():
    assert mask("Jan  Kowalski") == "***  ********"
