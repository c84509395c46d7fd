"""The deck: the whole state a lecture's windows share, small and serialisable (reveal.js's idea).

The projection and the presenter console are two views of one deck: which walkthrough step is
on, the walkthrough's control values, the input matrix, the walkthrough itself when it is the
lecturer's own, the talk's clock, the question put to the class (:class:`Poll`), whether the speaker
notes are shared with the class, and a student's exploration on the projector (a ``Spotlight``). Every
view derives from it; nothing else is shared (each window keeps its own language, its own sidebar and its
own explanation folds).

A deck travels through a room (``ui/lecture/rooms.py``) as JSON. What arrives from a room is
treated like a link: :meth:`Deck.from_json` decodes it into its types (:class:`DeckDocument` and
:class:`PollDocument`, ``ui/lecture/documents.py``), which check every field, its size and range,
then checks what a type cannot say (a question of this app, the matrix and controls with the link
codec's checks, ``ui/sharing/codec.py``); anything else raises :class:`DeckError`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field, replace
from typing import Annotated, Any, Literal

from msgspec import Meta

from attention.errors import ExplainedValueError

from ..chapter import PAGES
from ..check.questions import QUESTIONS
from ..check.tally import POLL_KINDS
from ..inputs.matrix import InputMatrix
from ..settings import limits
from ..sharing.codec import LinkError, SharedState, decode_state, encode_state
from .documents import Document, Finite, Mismatch, Text, decode
from .explorations import ExplorationError, Spotlight, SpotlightDocument
from .picture import Picture, PictureDocument, PictureError
from .right import Right, RightError
from .walkthrough import MAX_BYTES, MAX_STEPS

__all__ = ["DEFAULT_BUDGET_MIN", "MAX_BUDGET_MIN", "MAX_SHARED", "Deck", "DeckDocument", "DeckError", "Poll",
           "PollDocument"]

DEFAULT_BUDGET_MIN = 50  # a lecture slot
MAX_BUDGET_MIN = 600
MAX_SHARED = 40_000  # characters of the encoded matrix and controls (a room's document is at most 64,000)
VERSION = 1
MAX_TOKEN, TOKEN_PATTERN = 16, "^[A-Za-z0-9_-]+$"  # a window's token (``by``): secrets.token_urlsafe(9) writes 12
Step = Annotated[int, Meta(ge=0, lt=MAX_STEPS)]


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

    @classmethod
    def of_document(cls, found: PollDocument) -> Poll:
        """The poll of a room's deck, its types checked: one of this app's questions that a class can be asked,
        carrying its right answer only once revealed; DeckError otherwise."""
        kinds = {q.id: q.kind for q in QUESTIONS.get(found.page, ())}
        if kinds.get(found.question) not in POLL_KINDS:
            raise DeckError("the lecture's question is not one of this app's questions.")
        poll = cls(found.number, found.position, found.page, found.question, found.revealed, found.fields,
                   found.options, found.labels)
        # "right" came with the light page's verdicts: a deck published before them has none
        if found.right is None:
            return poll
        question = next(q for q in QUESTIONS[poll.page] if q.id == poll.question)
        try:  # the answer travels only once the class may see it
            if not poll.revealed:
                raise RightError("an answer before the reveal")
            return replace(poll, right=Right.from_data(found.right, question, poll.options))
        except RightError:
            raise DeckError("the lecture's question is damaged.") from None


class PollDocument(Document):
    """A poll as a deck carries it: a prompt's fields, options and labels are short, and few."""

    number: Annotated[int, Meta(ge=1, le=10_000)]
    position: Step
    page: Text
    question: Text
    revealed: bool
    fields: Annotated[tuple[tuple[Text, Text | int | Finite], ...], Meta(max_length=16)]
    options: Annotated[tuple[Text, ...], Meta(max_length=64)]
    labels: Annotated[tuple[tuple[Text, Text], ...], Meta(max_length=64)]
    right: dict[str, Any] | None = None  # its parts depend on the question's kind: ui/lecture/right.py checks them


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
    # The window that published it (ui/lecture/state.py window_token), also a mark of one publish: a window hears
    # its own publishes come back on the room's stream, and reruns for none of them (ui/lecture/listen.js).
    by: str | None = field(default=None, compare=False)
    # The publish changes nothing of the deck at the version before it (the projection saying it has drawn it): a
    # window that has that version already has this one, and does not rerun for it.
    unchanged: bool = field(default=False, compare=False)

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
        found = decode(text, DeckDocument, _refusal)
        try:
            picture = None if found.picture is None else Picture.of_document(found.picture)
        except PictureError as exc:
            raise DeckError("the projected step cannot be used: {problem}", problem=exc) from None
        if picture is not None and picture.index != found.position:
            raise DeckError("the projected step is not the lecture's step.")
        try:
            spotlight = None if found.spotlight is None else Spotlight.of_document(found.spotlight)
        except ExplorationError as exc:
            raise DeckError("the exploration on the projector cannot be used: {problem}", problem=exc) from None
        deck = cls(found.position, found.arrived, found.shared, found.walkthrough, found.clock_start,
                   found.budget_min, found.shown, None if found.poll is None else Poll.of_document(found.poll),
                   found.notes_shared, spotlight, picture, found.by, found.unchanged)
        try:
            deck.state()
        except LinkError as exc:
            raise DeckError("the lecture's matrix or controls cannot be used: {problem}", problem=exc) from None
        return deck


class DeckDocument(Document):
    """A deck as a room keeps it (:meth:`Deck.to_json`): every field written, ``picture`` only when there is one."""

    v: Literal[1]  # VERSION: a deck of another version of this app is refused whole
    position: Step
    arrived: Step | None
    shared: Annotated[str, Meta(max_length=MAX_SHARED)]
    walkthrough: Annotated[str, Meta(max_length=MAX_BYTES // 2)] | None
    clock_start: Annotated[float, Meta(ge=0, le=sys.float_info.max)] | None
    budget_min: Annotated[int, Meta(ge=1, le=MAX_BUDGET_MIN)]
    shown: bool
    poll: PollDocument | None
    notes_shared: bool
    spotlight: SpotlightDocument | None
    picture: PictureDocument | None = None
    by: Annotated[str, Meta(max_length=MAX_TOKEN, pattern=TOKEN_PATTERN)] | None = None
    unchanged: bool = False


def _refusal(mismatch: Mismatch) -> DeckError:
    """Why a room's document is no deck, said of the field that failed."""
    if mismatch.malformed:
        return DeckError("the lecture's shared state is damaged.")
    # a field missing or unknown fails the document as a whole: most likely another version of this app wrote it
    why = _REFUSED.get(mismatch.field, "the lecture's shared state comes from another version of this app.")
    return DeckError(why, limit=MAX_BUDGET_MIN)


_REFUSED = {"position": "the lecture's step is not a step number.",
            "arrived": "the lecture's step is not a step number.",
            "shared": "the lecture's matrix and controls are too large.",
            "walkthrough": "the lecture's walkthrough is too large.",
            "clock_start": "the lecture's clock is not a time.",
            "budget_min": "the lecture's length is not a number of minutes from 1 to {limit}.",
            "poll": "the lecture's question is too large or damaged.",
            "spotlight": "the exploration on the projector is damaged.",
            "shown": "the lecture's shared state is damaged.", "notes_shared": "the lecture's shared state is damaged.",
            "picture": "the projected step is damaged.", "by": "the lecture's shared state is damaged.",
            "unchanged": "the lecture's shared state is damaged."}
_STEP, _MOVE = ("position", "arrived"), ("position",)
_PARTS = (_STEP, ("shared",), ("walkthrough",), ("clock_start",), ("budget_min",), ("poll",),
          ("notes_shared",), ("spotlight",))
