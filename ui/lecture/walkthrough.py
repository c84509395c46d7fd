"""The chapter as one sequence of live steps, read from a plain walkthrough file.

A walkthrough is TOML::

    title = "Chapter 3, one idea at a time"

    [[step]]
    page = "one-query"          # a page id (its URL path)
    step = "scores"             # one of that page's [steps.<name>] in its content file
    controls = { query = 1 }    # optional: control values set when the step is reached
    note = "One line for the speaker."

The file is checked like any learner input (:func:`parse`): a wrong page, a step the page
does not have, a control value of the wrong kind, or a file that is not TOML gets a
:class:`WalkthroughError` naming the step at fault. A value of the right kind that the
page's control refuses (out of range, not an option) is reported when the step is shown.

The walkthrough has its own control values, apart from the pages': a step's ``controls``
are applied when it is reached; what the lecturer changes afterwards stays for the next
steps on that page.
"""

from __future__ import annotations

import base64
import binascii
import tomllib
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..words.content import page_text

__all__ = ["BUNDLED", "FILE_PARAM", "MAX_BYTES", "MAX_STEPS", "Walkthrough", "WalkStep", "WalkthroughError",
           "decode", "decode_text", "encode", "load_bundled", "parse"]

BUNDLED = Path(__file__).resolve().parents[2] / "pages" / "content" / "walkthroughs" / "chapter3.toml"
FILE_PARAM = "wt"  # a walkthrough of one's own in the address: ?wt=<encode(text)>
MAX_BYTES, MAX_STEPS = 64_000, 200
_PAGE_IDS = {p.page_id for p in PAGES}


class WalkthroughError(ExplainedValueError):
    """A walkthrough file that cannot be used, and why (an English template and its fields)."""


@dataclass(frozen=True)
class WalkStep:
    page: str
    step: str
    note: str = ""
    controls: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Walkthrough:
    title: str
    steps: tuple[WalkStep, ...]


def parse(text: str) -> Walkthrough:
    """A walkthrough from TOML text, checked step by step."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise WalkthroughError("the walkthrough is larger than {limit_kb} kB.", limit_kb=MAX_BYTES // 1000)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # TRANSLATORS: {problem} is Python's TOML reader's own message, in English (where and what).
        raise WalkthroughError("the walkthrough is not valid TOML ({problem}).", problem=str(exc)) from None
    steps = data.get("step")
    if not isinstance(steps, list) or not steps:
        raise WalkthroughError("the walkthrough has no [[step]] tables.")
    if len(steps) > MAX_STEPS:
        raise WalkthroughError("the walkthrough has {count} steps; the limit is {limit}.",
                               count=len(steps), limit=MAX_STEPS)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise WalkthroughError("the walkthrough's title must be text.")
    return Walkthrough(title, tuple(_step(i + 1, raw) for i, raw in enumerate(steps)))


def _step(number: int, raw: Any) -> WalkStep:
    """Step ``number`` (counting from 1) of the file, checked."""
    if not isinstance(raw, dict):
        raise WalkthroughError("step {number} is not a table.", number=number)
    unknown = set(raw) - {"page", "step", "note", "controls"}
    if unknown:
        raise WalkthroughError("step {number} has unknown fields {fields}; use page, step, note, controls.",
                               number=number, fields=sorted(unknown))
    page, name, note = raw.get("page"), raw.get("step"), raw.get("note", "")
    if page not in _PAGE_IDS:
        raise WalkthroughError("step {number} names the page {page!r}, which this app does not have; "
                               "pages are {pages}.", number=number, page=page, pages=sorted(_PAGE_IDS))
    names = [s.name for s in page_text(page).steps]
    if name not in names:
        raise WalkthroughError("step {number}: page {page!r} has no step {step!r}; its steps are {steps}.",
                               number=number, page=page, step=name, steps=names)
    if not isinstance(note, str) or len(note) > 500:
        raise WalkthroughError("step {number}: the note must be text of at most 500 characters.", number=number)
    return WalkStep(page, name, note, _controls(number, raw.get("controls", {})))


def _controls(number: int, raw: Any) -> dict[str, Any]:
    """Step ``number``'s control values, checked for their kind (the page's controls check the rest)."""
    if not isinstance(raw, dict):
        raise WalkthroughError("step {number}: controls must be a table such as {{ causal = true }}.", number=number)
    for name, value in raw.items():
        if not (isinstance(name, str) and name.isidentifier() and len(name) <= 40):
            raise WalkthroughError("step {number}: {name!r} is not a control name.", number=number, name=name)
        if isinstance(value, float) and value != value:
            raise WalkthroughError("step {number}: control {name!r} is NaN.", number=number, name=name)
        if not isinstance(value, bool | int | float | str) or (isinstance(value, str) and len(value) > 2000):
            raise WalkthroughError("step {number}: control {name!r} has a value of the wrong kind ({value!r}); "
                                   "use true/false, a number or short text.", number=number, name=name, value=value)
    return dict(raw)


@cache
def load_bundled() -> Walkthrough:
    """The walkthrough that ships with the app."""
    return parse(BUNDLED.read_text(encoding="utf-8"))


def encode(text: str) -> str:
    """A walkthrough file as a link parameter (zlib, base64url)."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode().rstrip("=")


def decode(value: str) -> Walkthrough:
    """The walkthrough carried by a link, checked like a file."""
    return parse(decode_text(value))


def decode_text(value: str) -> str:
    """The text of the walkthrough file carried by a link (checked by :func:`parse` before use)."""
    try:
        packed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_BYTES + 1)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise WalkthroughError("the link's walkthrough is damaged: it cannot be read.") from None
