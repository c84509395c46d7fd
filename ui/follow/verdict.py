"""A following student's own verdict on a revealed poll, for the light page: judged as Check yourself judges it.

The judge is Check yourself's (ui/check/panel.py ``feedback``), with the answer in the plain form the poll kept; the
right answer is the one the lecturer's console worked out and put into the revealed poll (ui/lecture/right.py),
since a light page has no live result of its own. The words are the student's language's, spoken on this thread only
(the server judges in a worker thread).
"""

from __future__ import annotations

from typing import Any

from ..check.answers import Unparsed
from ..check.panel import feedback
from ..lecture.deck import Poll
from ..lecture.poll import question_of
from ..state import speaking
from ..words.content import app_text, page_text
from ..words.plain import plain_text

__all__ = ["NONE", "NOT_YET", "RIGHT", "verdict"]

RIGHT, NOT_YET, NONE = "right", "not_yet", "none"


def verdict(poll: Poll, given: str | None, lang: str) -> dict[str, Any]:
    """What the light page says to the student who sent ``given`` (None: nothing) to the revealed ``poll``:
    ``verdict`` (right, not_yet, none; None where the console could not judge), ``message`` and, for an answer
    not yet right, ``answer`` (the right one, as Check yourself shows it). Plain text: the page writes no markup."""
    with speaking(lang):
        if given is None:
            return _said(poll, NONE, app_text("follow_no_answer", lang))
        if poll.right is None:  # the console had no live result at the reveal: the projection shows the answers
            return _said(poll, None, app_text("poll_revealed", lang))
        answer = poll.right.answer(poll.fields, poll.options, poll.labels)
        said = feedback(question_of(poll), page_text(poll.page, lang).questions[poll.question], answer, given,
                        plain=True)
        if isinstance(said, Unparsed):  # kept by something other than this app: nothing to judge
            return _said(poll, NONE, app_text("follow_no_answer", lang))
        judged, message, shown = said
        if judged.correct:
            return _said(poll, RIGHT, message)
        return _said(poll, NOT_YET, message, app_text("check_the_answer", lang, answer=shown))


def _said(poll: Poll, judged: str | None, message: str, answer: str | None = None) -> dict[str, Any]:
    return {"poll": poll.number, "verdict": judged, "message": plain_text(message),
            "answer": None if answer is None else plain_text(answer)}
