"""The answer parser (ui/check/answers.py): reads what learners type, explains what it cannot read, never raises."""

from __future__ import annotations

import math
import sys
import unicodedata

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from ui.check.answers import (
    MAX_AXES,
    MAX_CHARS,
    REASONS,
    Parsed,
    Unparsed,
    format_number,
    format_shape,
    parse_choice,
    parse_number,
    parse_shape,
)
from ui.words.content import app_text

SETTINGS = settings()  # the profile's (tests/conftest.py): 100 examples in make check, 300 in make test
PARSERS = (parse_number, parse_shape, lambda raw: parse_choice(raw, ("0", "1", "above"), ("x(1) “Your”",)))
ANY_TEXT = st.text(max_size=300) | st.text(alphabet="0123456789.,-+eE ()[]xX×_−\u00a0\u2009٣", max_size=60)


def _is_result(out: object) -> bool:
    if isinstance(out, Unparsed):
        return out.reason in REASONS
    return isinstance(out, Parsed)


# ----- never raises ---------------------------------------------------------------------------


@SETTINGS
@given(ANY_TEXT)
def test_no_text_makes_any_parser_raise(text):
    for parse in PARSERS:
        assert _is_result(parse(text))


@SETTINGS
@given(st.one_of(st.none(), st.integers(), st.floats(allow_nan=True), st.binary(max_size=50),
                 st.lists(st.integers(), max_size=5), st.booleans()))
def test_no_object_makes_any_parser_raise(raw):
    for parse in PARSERS:
        assert _is_result(parse(raw))


@pytest.mark.parametrize("raw", [
    "9" * 10_000, "1" * (MAX_CHARS + 1), "0." + "3" * 5_000, "(" + "2, " * 4_000 + ")", "٣" * 10_000,
    "\x00" * 200, "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e99999999999", "1e-99999999999999",
    "0x10", "1_0", "--1", "+-1", "1..2", "1e", "e5", ".", "-", "()", "(,)", "[[]]", "torch.Size(", ")",
    "𝟘", "²", "½", "Ⅻ", "1/2", "１２", "1,23", "12,34,567",
])
def test_hostile_examples_are_read_or_explained(raw):
    for parse in PARSERS:
        out = parse(raw)
        assert _is_result(out), (raw[:20], out)
        if isinstance(out, Parsed) and parse is parse_number:
            assert math.isfinite(out.value)


def test_a_very_long_answer_is_refused_before_any_work():
    out = parse_number("9" * 10_000)
    assert out == Unparsed("too_long", {"limit": MAX_CHARS})


def test_an_object_whose_str_fails_is_no_answer():
    class Broken:
        def __str__(self):
            raise RuntimeError("no")

    assert isinstance(parse_number(Broken()), Unparsed)


# ----- numbers ------------------------------------------------------------------------------


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_every_finite_float_reads_back_exactly(x):
    for text in (repr(x), f"  {x!r} ", f"{x:.17g}", f"{x:e}".replace("e", "E")):
        out = parse_number(text)
        assert isinstance(out, Parsed), text
        assert out.value == float(text.strip()), text


@SETTINGS
@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_whole_numbers_read_with_any_thousands_grouping(n):
    grouped = f"{abs(n):,}"
    sign = "−" if n < 0 else ""  # the unicode minus sign
    for text in (grouped, grouped.replace(",", " "), grouped.replace(",", "\u202f"), grouped.replace(",", "_")):
        out = parse_number(sign + text)
        assert out == Parsed(float(n)), sign + text


@SETTINGS
@given(st.from_regex(r"[a-df-zA-DF-Z!?@#$%&]{1,20}", fullmatch=True))
def test_words_are_not_numbers(text):
    assert parse_number(text) == Unparsed("not_a_number", {"text": text})


@SETTINGS
@given(st.text(alphabet=" \t\n\u00a0\u2009", max_size=20))
def test_blank_is_blank_for_every_parser(text):
    for parse in PARSERS:
        assert parse(text) == Unparsed("blank")


@pytest.mark.parametrize("text,value", [
    ("0.95", 0.95), ("  .95 ", 0.95), ("-1e-3", -0.001), ("2,360,064", 2360064.0), ("2 360 064", 2360064.0),
    ("−0.5", -0.5), ("+3", 3.0), ("5.", 5.0), ("0,95", 0.95), ("1E3", 1000.0), ("- 2", -2.0), ("٣", 3.0),
    ("٢٬٣", None),  # an Arabic thousands separator is not one we read: explained, not guessed
])
def test_numbers_the_brief_lists(text, value):
    out = parse_number(text)
    if value is None:
        assert isinstance(out, Unparsed)
    else:
        assert out == Parsed(value)


@SETTINGS
@given(st.characters(categories=["Nd"]))
def test_any_scripts_decimal_digit_is_read_as_that_digit(c):
    assert parse_number(c) == Parsed(float(unicodedata.decimal(c)))


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e309", "-1e400", str(sys.float_info.max * 10)])
def test_nan_and_infinity_are_refused(text):
    out = parse_number(text)
    assert isinstance(out, Unparsed) and out.reason in ("not_a_number", "not_finite")


# ----- shapes -------------------------------------------------------------------------------


SHAPES = st.lists(st.integers(min_value=0, max_value=10**9), min_size=1, max_size=MAX_AXES).map(tuple)


@SETTINGS
@given(SHAPES)
@example((1000, 10**8, 10**9, 10**9, 10**9, 10**9, 10**9, 10**9))  # written out, longer than an answer may be
def test_every_way_of_writing_a_shape_reads_the_same(shape):
    inner = ", ".join(map(str, shape))
    for text in (inner, f"({inner})", f"[{inner.replace(' ', '')}]", f"torch.Size([{inner}])",
                 " x ".join(map(str, shape)), "×".join(map(str, shape)), str(shape), f"  {shape}  "):
        # eight axes of ten digits written out pass the answer's cap: refused before any reading, as any long answer
        expected = Parsed(shape) if len(text) <= MAX_CHARS else Unparsed("too_long", {"limit": MAX_CHARS})
        assert parse_shape(text) == expected, text


@pytest.mark.parametrize("text,shape", [
    ("2, 6, 2, 1", (2, 6, 2, 1)), ("(2, 6, 2, 1)", (2, 6, 2, 1)), ("[2,6,2,1]", (2, 6, 2, 1)),
    ("torch.Size([2, 6, 2, 1])", (2, 6, 2, 1)), ("(6,)", (6,)), ("()", ()), ("torch.Size([])", ()),
    ("(٢, ٦)", (2, 6)),
])
def test_shapes_the_brief_lists(text, shape):
    assert parse_shape(text) == Parsed(shape)


@pytest.mark.parametrize("text", ["(2, -1)", "2.5, 3", "(2,,3)", "two, six", "²", ",",
                                  "(" + "1," * (MAX_AXES + 1) + ")", "1" * 13])
def test_what_is_not_a_shape_is_explained(text):
    assert parse_shape(text) == Unparsed("not_a_shape", {"text": text if len(text) <= 40 else text[:37] + "…"})


@SETTINGS
@given(ANY_TEXT)
def test_a_parsed_shape_is_always_a_short_tuple_of_non_negative_ints(text):
    out = parse_shape(text)
    if isinstance(out, Parsed):
        assert isinstance(out.value, tuple) and len(out.value) <= MAX_AXES
        assert all(isinstance(s, int) and s >= 0 for s in out.value)


@SETTINGS
@given(SHAPES)
def test_formatted_shapes_read_back(shape):
    assert parse_shape(format_shape(shape)) == Parsed(shape)


# ----- choices ------------------------------------------------------------------------------


@SETTINGS
@given(st.lists(st.text(alphabet="abcdefgh_", min_size=1, max_size=8), min_size=1, max_size=6, unique=True),
       st.data())
def test_a_choice_is_read_by_its_id_or_label_in_any_case(ids, data):
    labels = [f"Label {i}" for i in ids]
    pick = data.draw(st.sampled_from(ids))
    assume(sum(i.casefold() == pick.casefold() for i in ids) == 1)
    for text in (pick, pick.upper(), f" Label {pick} ".upper()):
        assert parse_choice(text, ids, labels) == Parsed(pick)
    assert parse_choice("not-an-id!", ids, labels) == Unparsed("not_an_option", {"text": "not-an-id!"})


# ----- every reason has words ------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["", "x" * 500, "abc", "1e999", "(1, -2)"])
def test_every_reason_has_words_that_fill_in(raw):
    for parse in PARSERS:
        out = parse(raw)
        if isinstance(out, Unparsed):
            message = app_text(f"answer_{out.reason}", **out.fields)
            assert message and "{" not in message


def test_numbers_are_shown_back_readably():
    assert format_number(2360064.0) == "2,360,064"
    assert format_number(15.0, whole=True) == "15"
    assert format_number(0.95441) == "0.9544"
    assert format_number(-0.001) == "-0.0010"


@pytest.mark.parametrize("text, value", [("0,125", 0.125), ("2,360,064", 2360064), ("0.4419", 0.4419)])
def test_a_leading_zero_never_groups_thousands(text, value):
    assert parse_number(text) == Parsed(value)


@pytest.mark.parametrize("text, value", [
    ("0,125", 0.125), ("1,125", 1.125),  # Indonesian and Vietnamese write the decimal mark as a comma
    ("2.360.064", 2360064), ("2.360.064,5", 2360064.5), ("1.234,5", 1234.5),  # and may group with dots
    ("0.4419", 0.4419), ("2,360,064", 2360064),  # what the app prints still reads as printed
])
def test_a_decimal_comma_language_reads_its_own_numbers(text, value):
    assert parse_number(text, decimal_comma=True) == Parsed(value)
    assert parse_number("1,125") == Parsed(1125)  # in English that comma groups thousands
