"""A student's exploration, sent to the lecturer, and the one on the projector (the spotlight). No Streamlit here.

A student who explores holds a live computation: a page, the step on screen, their matrix and their controls. What
they send (:class:`Exploration`) is that state, as a link carries it (``ui/sharing/codec.py``), with an optional
one-line note and a small picture of their step for the console's list. The lecturer puts one on the projector:
the deck then carries a :class:`Spotlight` (ui/lecture/deck.py), the exploration with the student's number in the
room and the lecture's step it was projected on; every window draws it from that plain data, recomputed by the
page itself, and the lecture's own state is left as it was.

Everything here arrives from a client or from a room, so it is checked like a link: :meth:`Exploration.from_json`
decodes it into its type (:class:`ExplorationDocument`, ``ui/lecture/documents.py``), which checks every field, its
size and count, and :meth:`Spotlight.of_document` takes the deck's :class:`SpotlightDocument`; then the page, its step
and the note are checked against the app, and the state with the link codec's checks. Anything else raises
:class:`ExplorationError`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Annotated, Any

from msgspec import Meta

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..inputs.matrix import InputMatrix
from ..settings import limits
from ..sharing.codec import LinkError, SharedState, decode_state, encode_state
from ..words.content import page_text
from .documents import Document, Finite, Mismatch, Text, convert, decode
from .walkthrough import MAX_STEPS

__all__ = ["MAX_NOTE", "MAX_PREVIEW", "MAX_STATE", "Exploration", "ExplorationDocument", "ExplorationError",
           "Spotlight", "SpotlightDocument"]

MAX_NOTE = 140  # characters of a student's note: one line
MAX_STATE = 8_000  # characters of the encoded matrix and controls (a deck holding it stays far under a room's cap)
MAX_PREVIEW = 12  # rows and columns of the console's picture of the student's step
Note = Annotated[str, Meta(max_length=MAX_NOTE)]
State = Annotated[str, Meta(max_length=MAX_STATE)]
Row = Annotated[tuple[Finite | None, ...], Meta(max_length=MAX_PREVIEW)]
Number = Annotated[int, Meta(ge=0, le=100_000)]


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
        found = decode(text, ExplorationDocument, _refusal)
        exploration = cls(found.page, found.step, found.shared, found.note, found.preview, found.weights)
        _check_place(exploration.page, exploration.step, exploration.shared, exploration.note)
        return exploration

    def check(self) -> None:
        """As it will be checked when it arrives: its types and caps, then its place in the app."""
        convert(self, ExplorationDocument, _refusal)
        _check_place(self.page, self.step, self.shared, self.note)

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
    def of_document(cls, found: SpotlightDocument) -> Spotlight:
        """The spotlight of a room's deck, its types checked: its page, step, note and state as an exploration's;
        ExplorationError otherwise."""
        _check_place(found.page, found.step, found.shared, found.note)
        return cls(found.number, found.student, found.at, found.page, found.step, found.shared, found.note)

    def state(self) -> SharedState:
        return _state(self.page, self.shared)


def _check_place(page: str, step: str | None, shared: str, note: str) -> None:
    """What the types cannot say: the page computes, the step is one of its steps, the note is one printable line,
    and the state is a link's, of that one page."""
    if page not in {p.page_id for p in PAGES} or not page_text(page).steps:
        raise ExplorationError("the exploration names a page that computes nothing.")
    if step is not None and step not in {s.name for s in page_text(page).steps}:
        raise ExplorationError("the exploration names a step its page does not have.")
    if not note.isprintable():
        raise ExplorationError("a note is one line of at most {limit} characters.", limit=MAX_NOTE)
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


class ExplorationDocument(Document):
    """An exploration as a student's window sends it (:meth:`Exploration.to_json`): every field written."""

    page: Text
    step: Text | None
    shared: State
    note: Note
    preview: Annotated[tuple[Row, ...], Meta(max_length=MAX_PREVIEW)]  # None: a hidden cell
    weights: bool


class SpotlightDocument(Document):
    """The exploration on the projector as a deck carries it."""

    number: Number
    student: Number
    at: Annotated[int, Meta(ge=0, lt=MAX_STEPS)]
    page: Text
    step: Text | None
    shared: State
    note: Note


def _refusal(mismatch: Mismatch) -> ExplorationError:
    """Why a student's exploration is refused, said of the field that failed."""
    where = mismatch.field
    if where == "page":
        return ExplorationError("the exploration names a page that computes nothing.")
    if where == "step":
        return ExplorationError("the exploration names a step its page does not have.")
    if where == "note":
        return ExplorationError("a note is one line of at most {limit} characters.", limit=MAX_NOTE)
    if where == "shared":
        return ExplorationError("the exploration's state is too large to send.")
    if where in ("preview", "weights"):
        return ExplorationError("the exploration's picture is damaged.")
    return ExplorationError("the exploration is damaged.")
