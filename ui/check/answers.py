"""Reading what a learner typed: numbers, shapes and choices. Plain Python, no Streamlit.

Every parser takes any object and returns either the value (:class:`Parsed`) or the
reason it could not read one (:class:`Unparsed`); none of them ever raises. The reason
is a key: the words that explain it live in ``_app.toml`` as ``answer_<reason>``, so
they can be translated like every other word of the app.

Accepted, for example::

    numbers  0.95   .95   -1e-3   −0.5 (unicode minus)   2,360,064   2 360 064   2_360_064   ٣
    shapes   2, 6, 2, 1   (2, 6, 2, 1)   [2,6,2,1]   torch.Size([2, 6, 2, 1])   2 x 6 x 2 x 1   (6,)   ()
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "MAX_CHARS", "MAX_AXES", "REASONS", "Parsed", "Unparsed", "format_number", "format_shape", "parse_choice",
    "parse_number", "parse_shape",
]

MAX_CHARS = 100  # longer answers are refused before any work is done
MAX_AXES = 8
MAX_AXIS_DIGITS = 12
# Why an answer could not be read (each has its words: answer_<reason> in _app.toml).
REASONS = ("blank", "too_long", "not_a_number", "not_finite", "not_a_shape", "not_an_option")

_MINUS = "\u2212\u2012\u2013\u2014\ufe63\uff0d"  # minus sign, dashes, small and full-width hyphen-minus
_SPACES = " \u00a0\u2009\u202f\u2007\u200a\u2008\u2002\u2003"  # spaces people group digits with
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?")
# 2,360,064 or 2 360 064.5 (never 0,125: a group of thousands does not start with 0)
_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(?:([,_ ])\d{3})(?:\1\d{3})*(?:\.\d*)?")
# Where the comma is the decimal mark (Indonesian, Vietnamese): 2.360.064 or 2.360.064,5
_DOT_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(?:\.\d{3}){2,}(?:,\d*)?|[+-]?[1-9]\d{0,2}\.\d{3},\d*")
_SHAPE_WRAPPERS = re.compile(r"^(?:torch\.size)?\s*[(\[]\s*[(\[]?(.*?)[)\]]?\s*[)\]]$")


@dataclass(frozen=True)
class Parsed:
    """The value read from an answer."""

    value: Any


@dataclass(frozen=True)
class Unparsed:
    """Why no value could be read; ``reason`` is one of :data:`REASONS`, ``fields`` fill its words."""

    reason: str
    fields: dict[str, Any] = field(default_factory=dict)


def _clean(raw: object) -> str | Unparsed:
    """The answer as text, digits made ASCII and spaces plain; or why there is nothing to read."""
    if raw is None:
        return Unparsed("blank")
    text = _text(raw)
    if len(text) > MAX_CHARS:
        return Unparsed("too_long", {"limit": MAX_CHARS})
    text = "".join(_ascii(c) for c in text).strip()
    return Unparsed("blank") if not text else text


def _ascii(c: str) -> str:
    if c in _MINUS:
        return "-"
    if c in _SPACES or c.isspace():
        return " "
    if c.isdecimal() and not c.isascii():  # any script's decimal digit, e.g. Arabic-Indic ٣
        try:
            return str(unicodedata.decimal(c))
        except (TypeError, ValueError):
            return c
    return c


def parse_number(raw: object, *, decimal_comma: bool = False) -> Parsed | Unparsed:
    """A finite real number; thousands may be grouped with commas, spaces or underscores.

    ``decimal_comma``: the learner's language writes 0,125 for 0.125 and may group thousands
    with dots (2.360.064). A single dot still reads as the decimal point the app prints.
    """
    text = _clean(raw)
    if isinstance(text, Unparsed):
        return text
    text = re.sub(r"^([+-]) +", r"\1", text.lower())
    grouped = _GROUPED.fullmatch(text)
    if decimal_comma and _DOT_GROUPED.fullmatch(text):
        text = text.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"[+-]?\d+,\d+", text) and (decimal_comma or not grouped):  # 0,95: a decimal comma
        text = text.replace(",", ".")
    elif grouped:
        text = text.replace(grouped.group(1), "")
    if not _NUMBER.fullmatch(text):
        return Unparsed("not_a_number", {"text": _echo(raw)})
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return Unparsed("not_a_number", {"text": _echo(raw)})
    if not math.isfinite(value):
        return Unparsed("not_finite", {"text": _echo(raw)})
    return Parsed(value)


def parse_shape(raw: object) -> Parsed | Unparsed:
    """A tensor shape: non-negative whole numbers, however they are wrapped and separated."""
    text = _clean(raw)
    if isinstance(text, Unparsed):
        return text
    text = text.lower().replace(" ", "")
    wrapped = _SHAPE_WRAPPERS.fullmatch(text)
    if wrapped:
        text = wrapped.group(1)
    if text == "":
        return Parsed(())  # () or torch.Size([]): a scalar's shape
    parts = re.split(r"[,x×*]", text)
    if parts and parts[-1] == "" and len(parts) > 1:  # (6,): a one-axis shape
        parts = parts[:-1]
    if len(parts) > MAX_AXES or not all(p.isdigit() and p.isascii() and len(p) <= MAX_AXIS_DIGITS for p in parts):
        return Unparsed("not_a_shape", {"text": _echo(raw)})
    return Parsed(tuple(int(p) for p in parts))


def parse_choice(raw: object, options: Sequence[str], labels: Sequence[str] = ()) -> Parsed | Unparsed:
    """One of ``options`` (ids), named by its id or by its label (``labels``, same order), any case."""
    text = _clean(raw)
    if isinstance(text, Unparsed):
        return text
    wanted = text.casefold()
    for i, option in enumerate(options):
        label = labels[i] if i < len(labels) else option
        if wanted in (str(option).casefold(), str(label).strip().casefold()):
            return Parsed(option)
    return Unparsed("not_an_option", {"text": _echo(raw)})


def _text(raw: object) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return str(raw)
    except Exception:  # an object whose str() fails is no answer  # noqa: BLE001
        return "?"


def _echo(raw: object) -> str:
    """The learner's text, short enough to show back in a message."""
    text = _text(raw)
    return text if len(text) <= 40 else text[:37] + "…"


def format_number(value: float, *, whole: bool = False) -> str:
    """How a number is shown back: whole numbers with thousands commas, others with 4 decimals."""
    if whole or (math.isfinite(value) and value == int(value) and abs(value) >= 1000):
        return f"{int(round(value)):,}"
    return f"{value:.4f}"


def format_shape(shape: Sequence[int]) -> str:
    """A shape as PyTorch's tuples print: ``(2, 6, 2, 1)``, ``(6,)``, ``()``."""
    return str(tuple(int(s) for s in shape))
