"""The lesson's record: what a lecturer takes home from a class, as a CSV the console offers.

Each poll is recorded when it is revealed, with the counts the class saw: its question, the right answer, how many
answered, how many gave each answer and made each known mistake (judged once, at the reveal, on the answers the room
stopped taking: ui/lecture/poll.py). Each student's exploration put on the projector is recorded when it is put
there: whose (their number in the room), their note, the page, the step and the state, as a link carries it. The
entries are kept in the room (``Rooms.keep``: the lecturer's windows only, capped), so that a reloaded console, or
the projection, offers the same record.

:func:`lesson_csv` is plain Python; the entries are read back as hostile (a room's content), and a cell that a
spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from typing import Any

from ..check.tally import Tally
from ..words.plain import plain_text
from . import window
from .deck import Poll
from .explorations import Spotlight
from .records import Lecturer
from .rooms import RoomError

__all__ = ["COLUMNS", "keep_polled", "keep_projected", "lesson_csv"]

COLUMNS = ("entry", "kind", "lecture_step", "page", "step", "question", "right_answer", "answer", "count", "judged",
           "mistake", "student", "note", "state")
_log = logging.getLogger("attention_app")


def keep_polled(member: Lecturer, poll: Poll, prompt: str, counted: Tally) -> None:
    """A poll revealed: its question and the counts shown to the class."""
    bars = [[bar.shown, bar.count, bar.correct, bar.mistake] for bar in counted.bars]
    _keep(member, {"kind": "poll", "number": poll.number, "at": poll.position + 1, "page": poll.page,
                   "question": plain_text(prompt), "answer": counted.answer, "total": counted.total,
                   "right": counted.right, "bars": bars, "mistakes": [list(m) for m in counted.mistakes]})


def keep_projected(member: Lecturer, spotlight: Spotlight) -> None:
    """A student's exploration put on the projector."""
    _keep(member, {"kind": "exploration", "number": spotlight.number, "at": spotlight.at + 1,
                   "page": spotlight.page, "step": spotlight.step, "student": spotlight.student,
                   "note": spotlight.note, "state": spotlight.shared})


def _keep(member: Lecturer, entry: dict[str, Any]) -> None:
    try:
        if not window.rooms().keep(member.room, member.secret, json.dumps(entry, ensure_ascii=False)):
            _log.warning("the lesson's record is full: an entry was not kept")
    except RoomError as exc:  # out of reach, or the room is gone: the class saw it; the record misses it
        _log.warning("the lesson's record could not keep an entry: %s", exc)


def lesson_csv(entries: list[str]) -> str:
    """The record as CSV: a poll's total, right, each answer and each known mistake on a row of their own; an
    exploration on one row. Entries that cannot be read are skipped."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for number, raw in enumerate(entries, 1):
        try:
            entry = json.loads(raw)
            rows = _poll_rows(entry) if entry.get("kind") == "poll" else _exploration_rows(entry)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError):
            _log.warning("a lesson record's entry could not be read")
            continue
        for row in rows:
            writer.writerow([_cell(number), *(_cell(row.get(c)) for c in COLUMNS[1:])])
    return out.getvalue()


def _poll_rows(entry: dict[str, Any]) -> list[dict[str, Any]]:
    base = {"lecture_step": entry["at"], "page": entry["page"], "question": entry["question"],
            "right_answer": entry["answer"]}
    rows = [{**base, "kind": "poll_total", "count": entry["total"], "judged": "all"},
            {**base, "kind": "poll_right", "count": entry["right"], "judged": "right"}]
    for shown, count, correct, mistake in entry["bars"]:
        judged = "right" if correct else "mistake" if mistake else "other"
        rows.append({**base, "kind": "poll_answer", "answer": "(other answers)" if shown is None else shown,
                     "count": count, "judged": judged, "mistake": mistake})
    for mistake, count, shown in entry["mistakes"]:
        rows.append({**base, "kind": "poll_mistake", "answer": shown, "count": count, "judged": "mistake",
                     "mistake": mistake})
    return rows


def _exploration_rows(entry: dict[str, Any]) -> list[dict[str, Any]]:
    if entry["kind"] != "exploration":
        raise KeyError("kind")  # not an entry of this app's: skipped
    return [{"kind": "exploration", "lecture_step": entry["at"], "page": entry["page"], "step": entry["step"],
             "student": entry["student"], "note": entry["note"], "state": f"{entry['page']}?s={entry['state']}"}]


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

