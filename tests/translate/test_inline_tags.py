import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacy_deid.schema import PHI_LABELS
from spacy_deid.translate.inline_tags import (
    CharSpan,
    InlineTagError,
    parse_inline_tags,
    render_inline_tags,
)


def test_parse_strips_tags_and_keeps_offsets():
    tagged = "Pat. <NAME_PATIENT>Anna Berg</NAME_PATIENT>, <DATE>5.7.54</DATE>"
    text, spans = parse_inline_tags(tagged)
    assert text == "Pat. Anna Berg, 5.7.54"
    assert spans == [CharSpan(5, 14, "NAME_PATIENT"), CharSpan(16, 22, "DATE")]
    assert [text[s.start:s.end] for s in spans] == ["Anna Berg", "5.7.54"]


def test_literal_angle_brackets_are_text():
    text, spans = parse_inline_tags("CRP <5 mg/l, <DATE>2020</DATE> x<y")
    assert text == "CRP <5 mg/l, 2020 x<y"
    assert spans == [CharSpan(13, 17, "DATE")]


@pytest.mark.parametrize(
    ("tagged", "message", "offset"),
    [
        ("a <DATE>1", "never closed", 2),
        ("a </DATE> b", "without an opening tag", 2),
        ("<DATE>1</AGE>", "does not match", 7),
        ("<DATE>1 <AGE>2</AGE></DATE>", "nested", 8),
        ("x\n<FOO>1</FOO>", "unknown label", 2),
        ("<DATE></DATE>", "empty", 6),
    ],
)
def test_malformed_tags_name_source_and_position(tagged, message, offset):
    with pytest.raises(InlineTagError) as error:
        parse_inline_tags(tagged, source="letter.txt")
    assert message in str(error.value)
    assert str(error.value).startswith("letter.txt:")
    assert error.value.offset == offset


def test_error_reports_line_and_column():
    with pytest.raises(InlineTagError) as error:
        parse_inline_tags("first line\nsecond <DATE>x", source="f.txt")
    assert (error.value.line, error.value.column) == (2, 8)


def test_render_refuses_text_that_contains_a_tag():
    with pytest.raises(InlineTagError, match="reads as a tag"):
        render_inline_tags("see <DATE> here", [])


def test_render_refuses_overlapping_spans():
    with pytest.raises(InlineTagError, match="overlaps"):
        render_inline_tags("abcdef", [CharSpan(0, 3, "DATE"), CharSpan(2, 5, "AGE")])


plain_text = st.text(alphabet=st.characters(blacklist_characters="<>"), max_size=60)


@st.composite
def texts_with_spans(draw):
    text = draw(plain_text)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8, unique=True)))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        if end > start:
            spans.append(CharSpan(start, end, draw(st.sampled_from(PHI_LABELS))))
    return text, spans


@given(texts_with_spans())
def test_round_trip_is_exact(example):
    text, spans = example
    tagged = render_inline_tags(text, spans)
    assert parse_inline_tags(tagged) == (text, spans)
