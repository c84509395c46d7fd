"""The lesson's record: what a lecturer takes home from a class, as a CSV the console offers.

Each poll is recorded when it is revealed, with the counts the class saw: its question, the right answer, how many
answered, how many gave each answer and made each known mistake (judged once, at the reveal, on the answers the room
stopped taking: ui/lecture/poll.py). Each student's exploration put on the projector is recorded when it is put
there: whose (their number in the room), their note, the page, the step and the state, as a link carries it. The
entries are kept in the room (``Rooms.keep``: the lecturer's windows only, capped), so that a reloaded console, or
the projection, offers the same record.

:func:`lesson_csv` is plain Python; the entries are read back as hostile (a room's content): each is decoded into its
type (:class:`PollEntry` or :class:`ExplorationEntry`, ``ui/lecture/documents.py``) or skipped, and a cell that a
spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

import csv
import io
import logging
from typing import Annotated, Any

from msgspec import Meta

from ..check.tally import Tally
from ..words.plain import plain_text
from . import window
from .deck import Poll
from .documents import Document, Mismatch, Text, decode, encode
from .explorations import Note, Spotlight, State
from .records import Lecturer
from .rooms import MAX_RECORD_CHARS, RoomError

__all__ = ["COLUMNS", "Entry", "ExplorationEntry", "PollEntry", "entry_of", "keep_polled", "keep_projected",
           "lesson_csv"]

COLUMNS = ("entry", "kind", "lecture_step", "page", "step", "question", "right_answer", "answer", "count", "judged",
           "mistake", "student", "note", "state")
_log = logging.getLogger("attention_app")


Count = Annotated[int, Meta(ge=0)]
Prompt = Annotated[str, Meta(max_length=MAX_RECORD_CHARS)]


class PollEntry(Document, tag_field="kind", tag="poll"):
    """A poll revealed: its question and the counts the class saw (ui/check/tally.py's Tally, as plain data)."""

    number: Count
    at: Count  # the lecture's step, from 1
    page: Text
    question: Prompt
    answer: Prompt  # the right answer, as Check yourself shows it
    total: Count
    right: Count
    bars: list[tuple[Prompt | None, Count, bool, Text | None]]  # (shown, count, correct, mistake); None: the rest
    mistakes: list[tuple[Text, Count, Prompt]]  # (mistake, count, the answer it gives)


class ExplorationEntry(Document, tag_field="kind", tag="exploration"):
    """A student's exploration put on the projector: whose, their note, the page, the step and the state."""

    number: Count
    at: Count
    page: Text
    step: Text | None
    student: Count
    note: Note
    state: State


Entry = PollEntry | ExplorationEntry


def keep_polled(member: Lecturer, poll: Poll, prompt: str, counted: Tally) -> None:
    """A poll revealed: its question and the counts shown to the class."""
    bars = [(bar.shown, bar.count, bar.correct, bar.mistake) for bar in counted.bars]
    _keep(member, PollEntry(poll.number, poll.position + 1, poll.page, plain_text(prompt), counted.answer,
                            counted.total, counted.right, bars, [tuple(m) for m in counted.mistakes]))


def keep_projected(member: Lecturer, spotlight: Spotlight) -> None:
    """A student's exploration put on the projector."""
    _keep(member, ExplorationEntry(spotlight.number, spotlight.at + 1, spotlight.page, spotlight.step,
                                   spotlight.student, spotlight.note, spotlight.shared))


def _keep(member: Lecturer, entry: Entry) -> None:
    try:
        if not window.rooms().keep(member.room, member.secret, encode(entry)):
            _log.warning("the lesson's record is full: an entry was not kept")
    except RoomError as exc:  # out of reach, or the room is gone: the class saw it; the record misses it
        _log.warning("the lesson's record could not keep an entry: %s", exc)


def entry_of(raw: object) -> Entry:
    """An entry of the record as kept in the room, of one of the two types; Mismatch for anything else."""
    return decode(raw, Entry)


def lesson_csv(entries: list[str]) -> str:
    """The record as CSV: a poll's total, right, each answer and each known mistake on a row of their own; an
    exploration on one row. Entries that cannot be read are skipped."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for number, raw in enumerate(entries, 1):
        try:
            entry = entry_of(raw)
        except Mismatch as exc:
            _log.warning("a lesson record's entry could not be read: %s", exc.reason)
            continue
        rows = _poll_rows(entry) if isinstance(entry, PollEntry) else _exploration_rows(entry)
        for row in rows:
            writer.writerow([_cell(number), *(_cell(row.get(c)) for c in COLUMNS[1:])])
    return out.getvalue()


def _poll_rows(entry: PollEntry) -> list[dict[str, Any]]:
    base = {"lecture_step": entry.at, "page": entry.page, "question": entry.question, "right_answer": entry.answer}
    rows = [{**base, "kind": "poll_total", "count": entry.total, "judged": "all"},
            {**base, "kind": "poll_right", "count": entry.right, "judged": "right"}]
    for shown, count, correct, mistake in entry.bars:
        judged = "right" if correct else "mistake" if mistake else "other"
        rows.append({**base, "kind": "poll_answer", "answer": "(other answers)" if shown is None else shown,
                     "count": count, "judged": judged, "mistake": mistake})
    for mistake, count, shown in entry.mistakes:
        rows.append({**base, "kind": "poll_mistake", "answer": shown, "count": count, "judged": "mistake",
                     "mistake": mistake})
    return rows


def _exploration_rows(entry: ExplorationEntry) -> list[dict[str, Any]]:
    return [{"kind": "exploration", "lecture_step": entry.at, "page": entry.page, "step": entry.step,
             "student": entry.student, "note": entry.note, "state": f"{entry.page}?s={entry.state}"}]


def _cell(value: Any) -> str:
    """A cell as text; one a spreadsheet would read as a formula (=, +, -, @; a number aside) starts with an
    apostrophe."""
    text = "" if value is None else str(value)
    if text[:1] not in ("=", "+", "-", "@", "\t", "\r"):
        return text
    try:
        float(text)
        return text
    except ValueError:
        return f"'{text}"

