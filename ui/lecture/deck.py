"""The deck: the whole state a lecture's windows share, small and serialisable (reveal.js's idea).

The projection and the presenter console are two views of one deck: which walkthrough step is
on, the walkthrough's control values, the input matrix, the walkthrough itself when it is the
lecturer's own, the talk's clock, the question put to the class (:class:`Poll`), whether the speaker
notes are shared with the class, and a student's exploration on the projector (a ``Spotlight``). Every
view derives from it; nothing else is shared (each window keeps its own language, its own sidebar and its
own explanation folds).

A deck travels through a room (``ui/lecture/rooms.py``) as JSON. What arrives from a room is
treated like a link: :meth:`Deck.from_json` checks every field and its size, and decodes the
matrix and controls with the link codec's checks (``ui/sharing/codec.py``); anything else raises
:class:`DeckError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..check.questions import QUESTIONS
from ..check.tally import POLL_KINDS
from ..inputs.matrix import InputMatrix
from ..settings import limits
from ..sharing.codec import LinkError, SharedState, decode_state, encode_state
from .explorations import ExplorationError, Spotlight
from .picture import Picture, PictureError
from .right import Right, RightError
from .walkthrough import MAX_BYTES, MAX_STEPS

__all__ = ["DEFAULT_BUDGET_MIN", "MAX_BUDGET_MIN", "Deck", "DeckError", "Poll"]

DEFAULT_BUDGET_MIN = 50  # a lecture slot
MAX_BUDGET_MIN = 600
VERSION = 1


class DeckError(ExplainedValueError):
    """A room's document that this app cannot use, and why. Written to the server's log, never shown:
    only the lecturer's own windows write to a room, so a refused deck is a bug or an attack."""


@dataclass(frozen=True)
class Poll:
    """A Check yourself question put to the class on one walkthrough step (ui/lecture/poll.py).

    It is shown while the deck is on that step: moving on hides it, coming back shows it again. Its
    answers are in the room (``Rooms.answers(room, number)``), never in the deck. ``fields``, ``options``
    and ``labels`` are what the prompt needed when it was asked (the query's number, the tokens' names),
    so that a student's device words it in its own language; the right answer is worked out by the
    lecturer's windows from the live state when the answers are counted. At the reveal the console adds what a
    light page needs to judge its student's answer (``right``, ui/lecture/right.py): only a revealed poll has it.
    """

    number: int  # the room's number for it (Rooms.open_poll)
    position: int  # the walkthrough step it was asked on
    page: str
    question: str
    revealed: bool = False
    fields: tuple[tuple[str, str | int | float], ...] = ()
    options: tuple[str, ...] = ()
    labels: tuple[tuple[str, str], ...] = ()
    right: Right | None = None

    @property
    def mark(self) -> str:
        """What a student's page and beat say of it (ui/lecture/watchdog.js compares the two): which, and whether
        revealed."""
        return f"{self.number}-{int(self.revealed)}"

    @classmethod
    def from_data(cls, data: Any) -> Poll:
        """The poll of a room's document, every field checked; DeckError for anything else."""
        # "right" came with the light page's verdicts: a deck published before them has none
        if not isinstance(data, dict) or set(data) - {"right"} != _POLL_FIELDS:
            raise DeckError("the lecture's question is damaged.")
        try:
            poll = cls(data["number"], data["position"], data["page"], data["question"], data["revealed"],
                       tuple((k, v) for k, v in data["fields"]), tuple(data["options"]),
                       tuple((k, v) for k, v in data["labels"]))
        except (TypeError, ValueError):
            raise DeckError("the lecture's question is damaged.") from None
        poll._check()
        if data.get("right") is None:
            return poll
        question = next(q for q in QUESTIONS[poll.page] if q.id == poll.question)
        try:  # the answer travels only once the class may see it
            if not poll.revealed:
                raise RightError("an answer before the reveal")
            return replace(poll, right=Right.from_data(data["right"], question, poll.options))
        except RightError:
            raise DeckError("the lecture's question is damaged.") from None

    def _check(self) -> None:
        kinds = {q.id: q.kind for q in QUESTIONS.get(self.page, ()) if isinstance(self.page, str)}
        if not _whole(self.number) or not 1 <= self.number <= 10_000 or not _whole(self.position) \
                or not 0 <= self.position < MAX_STEPS or kinds.get(self.question) not in POLL_KINDS \
                or not isinstance(self.revealed, bool):
            raise DeckError("the lecture's question is not one of this app's questions.")
        values = [v for _, v in self.fields]
        texts = [k for k, _ in self.fields] + list(self.options) + [t for pair in self.labels for t in pair]
        if len(self.fields) > 16 or len(self.options) > 64 or len(self.labels) > 64 \
                or not all(isinstance(t, str) and len(t) <= 200 for t in texts) \
                or not all(_plain(v) for v in values):
            raise DeckError("the lecture's question is too large or damaged.")


@dataclass(frozen=True)
class Deck:
    position: int  # the walkthrough step on screen, from 0
    arrived: int | None  # the step whose own control values were last applied (ui/lecture/state.py)
    shared: str  # the matrix and the walkthrough's control values, as a link carries them (?s=)
    walkthrough: str | None = None  # a lecturer's own walkthrough, encoded as in ?wt=; None: the bundled one
    clock_start: float | None = None  # when the talk's clock started (seconds since the epoch); None: not yet
    budget_min: int = DEFAULT_BUDGET_MIN  # the talk's length, for pacing
    # The projection has drawn this deck: the class takes it now (ui/lecture/protocol.py). Not part of what the
    # deck *is* (equality ignores it): the same step, matrix and controls, before and after the projection drew it.
    shown: bool = field(default=False, compare=False)
    poll: Poll | None = None  # the question put to the class, if one is
    notes_shared: bool = False  # the lecturer shares the speaker notes with the class (the console's switch)
    spotlight: Spotlight | None = None  # new: a student's exploration on the projector (ui/lecture/spotlight.py)
    # What the projection drew at this step, for the class's light pages (ui/lecture/picture.py). Like ``shown``, a mark
    # of one publish, not part of the deck: only the projection's shown publish carries it (ui/lecture/window.py).
    picture: Picture | None = field(default=None, compare=False)

    @classmethod
    def of(cls, position: int, arrived: int | None, matrix: InputMatrix, controls: dict[str, dict[str, Any]],
           walkthrough: str | None, clock_start: float | None, budget_min: int, poll: Poll | None = None,
           notes_shared: bool = False, spotlight: Spotlight | None = None) -> Deck:
        shared, _ = encode_state(matrix, controls)  # a matrix too large for a link travels as its recipe or not
        return cls(position, arrived, shared, walkthrough, clock_start, budget_min, poll=poll,
                   notes_shared=notes_shared, spotlight=spotlight)

    def merged(self, base: Deck | None, theirs: Deck) -> Deck:
        """This window's deck (``self``) merged into ``theirs``, the newer one another window published since
        this window last saw the room's (``base``): each part this window changed and the other did not keeps
        this window's value; every other part is theirs. The step and the step whose controls were applied
        are one part, as are the matrix and the controls (they travel as one link). The other window arriving
        at the step it was already on (its controls applied: its echo of a move) is no move of its own: a step
        this window moved to meanwhile (a lecturer's PageDown) stands."""
        # What the other window's projection drew is no picture of the merged deck: the next shown publish draws one.
        if base is None:
            return replace(theirs, picture=None)
        out = replace(theirs, picture=None)
        for part in _PARTS:
            mine_changed = any(getattr(self, f) != getattr(base, f) for f in part)
            theirs_changed = any(getattr(theirs, f) != getattr(base, f) for f in (_MOVE if part == _STEP else part))
            if mine_changed and not theirs_changed:
                out = replace(out, **{f: getattr(self, f) for f in part})
        return out

    def asked(self) -> Poll | None:
        """The poll to show now: the one asked on the step on screen."""
        return self.poll if self.poll is not None and self.poll.position == self.position else None

    def spotlit(self) -> Spotlight | None:
        """The student's exploration to show now: the one put on the projector at the step on screen."""
        return self.spotlight if self.spotlight is not None and self.spotlight.at == self.position else None

    def state(self) -> SharedState:
        """The matrix (None: the link codec left it out) and the walkthrough's control values."""
        lim = limits()
        return decode_state(self.shared, pages={p.page_id for p in PAGES}, max_tokens=lim.max_tokens,
                            max_dim=lim.max_dim, max_chars=MAX_SHARED)

    def to_json(self) -> str:
        data = asdict(replace(self, picture=None))
        del data["picture"]  # written only when there is one: a deck without stays as it was
        if self.picture is not None:
            data["picture"] = self.picture.to_data()
        return json.dumps({"v": VERSION, **data}, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Deck:
        """The deck in a room's document, every field checked; DeckError for anything else."""
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (TypeError, ValueError, RecursionError):
            raise DeckError("the lecture's shared state is damaged.") from None
        if not isinstance(data, dict) or data.get("v") != VERSION or set(data) - {"picture"} != _FIELDS | {"v"}:
            raise DeckError("the lecture's shared state comes from another version of this app.")
        values = {name: data[name] for name in _FIELDS}
        try:
            values["picture"] = None if data.get("picture") is None else Picture.from_data(data["picture"])
        except PictureError as exc:
            raise DeckError("the projected step cannot be used: {problem}", problem=exc) from None
        values["poll"] = None if data["poll"] is None else Poll.from_data(data["poll"])
        try:
            values["spotlight"] = None if data["spotlight"] is None else Spotlight.from_data(data["spotlight"])
        except ExplorationError as exc:
            raise DeckError("the exploration on the projector cannot be used: {problem}", problem=exc) from None
        deck = cls(**values)
        deck._check()
        return deck

    def _check(self) -> None:
        if not _whole(self.position) or not 0 <= self.position < MAX_STEPS:
            raise DeckError("the lecture's step is not a step number.")
        if self.arrived is not None and (not _whole(self.arrived) or not 0 <= self.arrived < MAX_STEPS):
            raise DeckError("the lecture's step is not a step number.")
        if not isinstance(self.shared, str) or len(self.shared) > MAX_SHARED:
            raise DeckError("the lecture's matrix and controls are too large.")
        if self.walkthrough is not None and (not isinstance(self.walkthrough, str)
                                             or len(self.walkthrough) > MAX_BYTES // 2):
            raise DeckError("the lecture's walkthrough is too large.")
        if self.clock_start is not None and (isinstance(self.clock_start, bool)
                                             or not isinstance(self.clock_start, int | float)
                                             or not math.isfinite(self.clock_start) or self.clock_start < 0):
            raise DeckError("the lecture's clock is not a time.")
        if not isinstance(self.shown, bool) or not isinstance(self.notes_shared, bool):
            raise DeckError("the lecture's shared state is damaged.")
        if self.picture is not None and (not isinstance(self.picture, Picture) or self.picture.index != self.position):
            raise DeckError("the projected step is not the lecture's step.")
        if not _whole(self.budget_min) or not 1 <= self.budget_min <= MAX_BUDGET_MIN:
            raise DeckError("the lecture's length is not a number of minutes from 1 to {limit}.",
                            limit=MAX_BUDGET_MIN)
        try:
            self.state()
        except LinkError as exc:
            raise DeckError("the lecture's matrix or controls cannot be used: {problem}", problem=exc) from None


MAX_SHARED = 40_000  # characters of the encoded matrix and controls (a room's document is at most 64,000)
_FIELDS = {"position", "arrived", "shared", "walkthrough", "clock_start", "budget_min", "shown", "poll", "notes_shared",
           "spotlight"}
_STEP, _MOVE = ("position", "arrived"), ("position",)
_PARTS = (_STEP, ("shared",), ("walkthrough",), ("clock_start",), ("budget_min",), ("poll",),
          ("notes_shared",), ("spotlight",))
_POLL_FIELDS = {"number", "position", "page", "question", "revealed", "fields", "options", "labels"}


def _plain(value: Any) -> bool:
    """A prompt's value: short text, a whole number or a finite number."""
    if isinstance(value, str):
        return len(value) <= 200
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _no_constant(name: str) -> None:
    raise DeckError("the lecture's shared state holds {constant}, which is not a number.", constant=name)
