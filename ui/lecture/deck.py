"""The deck: the whole state a lecture's windows share, small and serialisable (reveal.js's idea).

The projection and the presenter console are two views of one deck: which walkthrough step is
on, the walkthrough's control values, the input matrix, the walkthrough itself when it is the
lecturer's own, and the talk's clock. Every view derives from it; nothing else is shared (each
window keeps its own language, its own sidebar and its own explanation folds).

A deck travels through a room (``ui/lecture/rooms.py``) as JSON. What arrives from a room is
treated like a link: :meth:`Deck.from_json` checks every field and its size, and decodes the
matrix and controls with the link codec's checks (``ui/sharing/codec.py``); anything else raises
:class:`DeckError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..inputs.matrix import InputMatrix
from ..settings import limits
from ..sharing.codec import LinkError, SharedState, decode_state, encode_state
from .walkthrough import MAX_BYTES, MAX_STEPS

__all__ = ["DEFAULT_BUDGET_MIN", "MAX_BUDGET_MIN", "Deck", "DeckError"]

DEFAULT_BUDGET_MIN = 50  # a lecture slot
MAX_BUDGET_MIN = 600
VERSION = 1


class DeckError(ExplainedValueError):
    """A room's document that this app cannot use, and why. Written to the server's log, never shown:
    only the lecturer's own windows write to a room, so a refused deck is a bug or an attack."""


@dataclass(frozen=True)
class Deck:
    position: int  # the walkthrough step on screen, from 0
    arrived: int | None  # the step whose own control values were last applied (ui/lecture/state.py)
    shared: str  # the matrix and the walkthrough's control values, as a link carries them (?s=)
    walkthrough: str | None = None  # a lecturer's own walkthrough, encoded as in ?wt=; None: the bundled one
    clock_start: float | None = None  # when the talk's clock started (seconds since the epoch); None: not yet
    budget_min: int = DEFAULT_BUDGET_MIN  # the talk's length, for pacing
    # The projection has drawn this deck: the class takes it now (ui/lecture/sync.py). Not part of what the
    # deck *is* (equality ignores it): the same step, matrix and controls, before and after the projection drew it.
    shown: bool = field(default=False, compare=False)

    @classmethod
    def of(cls, position: int, arrived: int | None, matrix: InputMatrix, controls: dict[str, dict[str, Any]],
           walkthrough: str | None, clock_start: float | None, budget_min: int) -> Deck:
        shared, _ = encode_state(matrix, controls)  # a matrix too large for a link travels as its recipe or not
        return cls(position, arrived, shared, walkthrough, clock_start, budget_min)

    def state(self) -> SharedState:
        """The matrix (None: the link codec left it out) and the walkthrough's control values."""
        lim = limits()
        return decode_state(self.shared, pages={p.page_id for p in PAGES}, max_tokens=lim.max_tokens,
                            max_dim=lim.max_dim, max_chars=MAX_SHARED)

    def to_json(self) -> str:
        return json.dumps({"v": VERSION, **asdict(self)}, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Deck:
        """The deck in a room's document, every field checked; DeckError for anything else."""
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (TypeError, ValueError, RecursionError):
            raise DeckError("the lecture's shared state is damaged.") from None
        if not isinstance(data, dict) or data.get("v") != VERSION or set(data) != _FIELDS | {"v"}:
            raise DeckError("the lecture's shared state comes from another version of this app.")
        deck = cls(**{name: data[name] for name in _FIELDS})
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
        if not isinstance(self.shown, bool):
            raise DeckError("the lecture's shared state is damaged.")
        if not _whole(self.budget_min) or not 1 <= self.budget_min <= MAX_BUDGET_MIN:
            raise DeckError("the lecture's length is not a number of minutes from 1 to {limit}.",
                            limit=MAX_BUDGET_MIN)
        try:
            self.state()
        except LinkError as exc:
            raise DeckError("the lecture's matrix or controls cannot be used: {problem}", problem=exc) from None


MAX_SHARED = 40_000  # characters of the encoded matrix and controls (a room's document is at most 64,000)
_FIELDS = {"position", "arrived", "shared", "walkthrough", "clock_start", "budget_min", "shown"}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _no_constant(name: str) -> None:
    raise DeckError("the lecture's shared state holds {constant}, which is not a number.", constant=name)
