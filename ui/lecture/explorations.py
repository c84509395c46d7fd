"""A student's exploration, sent to the lecturer, and the one on the projector (the spotlight). No Streamlit here.

A student who explores holds a live computation: a page, the step on screen, their matrix and their controls. What
they send (:class:`Exploration`) is that state, as a link carries it (``ui/sharing/codec.py``), with an optional
one-line note and a small picture of their step for the console's list. The lecturer puts one on the projector:
the deck then carries a :class:`Spotlight` (ui/lecture/deck.py), the exploration with the student's number in the
room and the lecture's step it was projected on; every window draws it from that plain data, recomputed by the
page itself, and the lecture's own state is left as it was.

Everything here arrives from a client or from a room, so it is checked like a link: :meth:`Exploration.from_json`
and :meth:`Spotlight.from_data` check every field and its size, and decode the state with the link codec's checks;
anything else raises :class:`ExplorationError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..inputs.matrix import InputMatrix
from ..settings import limits
from ..sharing.codec import LinkError, SharedState, decode_state, encode_state
from ..words.content import page_text
from .walkthrough import MAX_STEPS

__all__ = ["MAX_NOTE", "MAX_PREVIEW", "MAX_STATE", "Exploration", "ExplorationError", "Spotlight"]

MAX_NOTE = 140  # characters of a student's note: one line
MAX_STATE = 8_000  # characters of the encoded matrix and controls (a deck holding it stays far under a room's cap)
MAX_PREVIEW = 12  # rows and columns of the console's picture of the student's step
_FIELDS = {"page", "step", "shared", "note", "preview", "weights"}
_SPOT_FIELDS = {"number", "student", "at", "page", "step", "shared", "note"}


class ExplorationError(ExplainedValueError):
    """An exploration that cannot be sent or shown, and why (an English template and its fields)."""


@dataclass(frozen=True)
class Exploration:
    page: str  # a page of the chapter that computes (it has a step-through)
    step: str | None  # the step on the student's screen; None: the page's first
    shared: str  # the matrix and this page's controls, as a link carries them (?s=)
    note: str = ""  # the student's one line, shown as text (never markdown)
    preview: tuple[tuple[float | None, ...], ...] = ()  # the step's numbers in small (None: a hidden cell)
    weights: bool = False  # the preview is of weights (blues from 0), else of signed values

    @classmethod
    def of(cls, page: str, step: str | None, matrix: InputMatrix, controls: dict[str, Any], note: str,
           preview: tuple[tuple[float | None, ...], ...] = (), weights: bool = False) -> Exploration:
        """A student's state as it is sent; checked here as it will be when it arrives."""
        shared, problem = encode_state(matrix, {page: dict(controls)})
        if problem:
            raise ExplorationError("your matrix is too large to send: a link leaves it out.")
        exploration = cls(page, step, shared, " ".join(str(note).split()), preview, weights)
        exploration.check()
        return exploration

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_json(cls, text: Any) -> Exploration:
        """What a room's inbox holds, every field checked; ExplorationError for anything else."""
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (TypeError, ValueError, RecursionError):
            raise ExplorationError("the exploration is damaged.") from None
        if not isinstance(data, dict) or set(data) != _FIELDS:
            raise ExplorationError("the exploration is damaged.")
        try:
            preview = tuple(tuple(row) for row in data["preview"])
        except TypeError:
            raise ExplorationError("the exploration is damaged.") from None
        exploration = cls(data["page"], data["step"], data["shared"], data["note"], preview, data["weights"])
        exploration.check()
        return exploration

    def check(self) -> None:
        _check_place(self.page, self.step, self.shared, self.note)
        if not isinstance(self.weights, bool) or len(self.preview) > MAX_PREVIEW \
                or any(len(row) > MAX_PREVIEW for row in self.preview) \
                or not all(v is None or _number(v) for row in self.preview for v in row):
            raise ExplorationError("the exploration's picture is damaged.")

    def state(self) -> SharedState:
        return _state(self.page, self.shared)


@dataclass(frozen=True)
class Spotlight:
    """The exploration on the projector: whose (the student's number in the room), which of the room's explorations,
    and the lecture's step it was put on (it shows while the lecture is on that step)."""

    number: int
    student: int
    at: int
    page: str
    step: str | None
    shared: str
    note: str = ""

    @classmethod
    def of(cls, number: int, student: int, at: int, exploration: Exploration) -> Spotlight:
        return cls(number, student, at, exploration.page, exploration.step, exploration.shared, exploration.note)

    @classmethod
    def from_data(cls, data: Any) -> Spotlight:
        """The spotlight of a room's deck, every field checked; ExplorationError for anything else."""
        if not isinstance(data, dict) or set(data) != _SPOT_FIELDS:
            raise ExplorationError("the exploration on the projector is damaged.")
        spotlight = cls(**data)
        if not all(_whole(v) and 0 <= v <= 100_000 for v in (spotlight.number, spotlight.student)) \
                or not _whole(spotlight.at) or not 0 <= spotlight.at < MAX_STEPS:
            raise ExplorationError("the exploration on the projector is damaged.")
        _check_place(spotlight.page, spotlight.step, spotlight.shared, spotlight.note)
        return spotlight

    def state(self) -> SharedState:
        return _state(self.page, self.shared)


def _check_place(page: Any, step: Any, shared: Any, note: Any) -> None:
    """The page, its step, the state and the note: as a link's, and short."""
    pages = {p.page_id for p in PAGES}
    if not isinstance(page, str) or page not in pages or not page_text(page).steps:
        raise ExplorationError("the exploration names a page that computes nothing.")
    if step is not None and (not isinstance(step, str) or step not in {s.name for s in page_text(page).steps}):
        raise ExplorationError("the exploration names a step its page does not have.")
    if not isinstance(note, str) or len(note) > MAX_NOTE or any(not c.isprintable() for c in note):
        raise ExplorationError("a note is one line of at most {limit} characters.", limit=MAX_NOTE)
    if not isinstance(shared, str) or len(shared) > MAX_STATE:
        raise ExplorationError("the exploration's state is too large to send.")
    found = _state(page, shared)
    if found.matrix is None or set(found.controls) - {page}:
        raise ExplorationError("the exploration's state is not one page's matrix and controls.")


def _state(page: str, shared: str) -> SharedState:
    lim = limits()
    try:
        return decode_state(shared, pages={page}, max_tokens=lim.max_tokens, max_dim=lim.max_dim,
                            max_chars=MAX_STATE)
    except LinkError as exc:
        raise ExplorationError("the exploration's state cannot be used: {problem}", problem=exc) from None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _no_constant(name: str) -> None:
    raise ExplorationError("the exploration holds {constant}, which is not a number.", constant=name)
