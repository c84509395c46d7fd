"""A revealed poll's right answer, as the deck carries it to a following student's light page (ui/follow/verdict.py).

The lecturer's console works the right answer out from its live result (ui/lecture/poll.py ``live_answer``); a light
page has no live result of its own, so at the reveal the console puts into the deck's Poll what Check yourself's judge
needs beside the prompt's fields, options and labels the poll already carries: the value, the values the known
mistakes give, and whether it is a count. Only a revealed poll carries it (ui/lecture/deck.py): before the reveal a
student's window must not be able to read the answer out of the deck. What arrives from a room is checked here like
every part of a deck. Plain Python: no Streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..check.answers import MAX_AXES, MAX_AXIS_DIGITS
from ..check.questions import GENERIC, NUMBER, SHAPE, Answer, Question

__all__ = ["MAX_MISTAKES", "Right", "RightError"]

MAX_MISTAKES = 16  # a question knows a handful of mistakes


class RightError(ValueError):
    """A right answer a deck cannot carry (the deck says it is damaged)."""


@dataclass(frozen=True)
class Right:
    value: float | tuple[int, ...] | str
    mistakes: tuple[tuple[str, Any], ...] = ()  # (mistake, the answer it gives: for a choice, one id or several)
    whole: bool = False

    @classmethod
    def of(cls, question: Question, answer: object) -> Right | None:
        """What the judge needs of the console's live ``answer``; None when there is none to carry."""
        if not isinstance(answer, Answer):
            return None
        known = set(question.mistakes) | set(GENERIC)
        try:
            mistakes = tuple((m, _value(question.kind, v, many=True)) for m, v in answer.mistakes.items() if m in known)
            right = cls(_value(question.kind, answer.value), mistakes, bool(answer.whole))
            right.check(question, answer.options)
        except (TypeError, ValueError, OverflowError):  # a value this form cannot hold: judged nowhere but the console
            return None
        return right

    @classmethod
    def from_data(cls, data: Any, question: Question, options: tuple[str, ...]) -> Right:
        """The right answer of a room's document, every part checked against the question; RightError otherwise."""
        if not isinstance(data, dict) or set(data) != {"value", "mistakes", "whole"} \
                or not isinstance(data["mistakes"], list) or len(data["mistakes"]) > MAX_MISTAKES:
            raise RightError("the revealed answer is damaged")
        try:
            right = cls(_value(question.kind, data["value"]),
                        tuple((m, _value(question.kind, v, many=True)) for m, v in data["mistakes"]), data["whole"])
        except (TypeError, ValueError, OverflowError):
            raise RightError("the revealed answer is damaged") from None
        right.check(question, options)
        return right

    def check(self, question: Question, options: tuple[str, ...]) -> None:
        known = set(question.mistakes) | set(GENERIC)
        values = [self.value, *(v for _, v in self.mistakes)]
        if not isinstance(self.whole, bool) or len(self.mistakes) > MAX_MISTAKES \
                or not all(isinstance(m, str) and m in known for m, _ in self.mistakes):
            raise RightError("the revealed answer names a mistake this question does not know")
        if question.kind not in (NUMBER, SHAPE):  # a choice: one of the poll's options, a mistake any of several
            ids = [i for v in values for i in (v if isinstance(v, tuple) else (v,))]
            if not isinstance(self.value, str) or not all(isinstance(i, str) and i in options for i in ids):
                raise RightError("the revealed answer is not one of the question's choices")

    def answer(self, fields: tuple, options: tuple[str, ...], labels: tuple) -> Answer:
        """The Answer Check yourself judges with, rebuilt from the deck's poll (its fields, options and labels)."""
        return Answer(self.value, dict(fields), dict(self.mistakes), options, dict(labels), self.whole)


def _value(kind: str, value: Any, *, many: bool = False) -> float | tuple[int, ...] | str | tuple[str, ...]:
    """One value in the form a deck keeps, or ValueError: a finite number, a shape, a choice's id (a mistake of a
    choice may be several ids)."""
    if kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError
        return float(value)
    if kind == SHAPE:
        axes = tuple(value)
        if len(axes) > MAX_AXES or not all(isinstance(n, int) and not isinstance(n, bool)
                                           and 0 <= n < 10 ** MAX_AXIS_DIGITS for n in axes):
            raise ValueError
        return axes
    if many and isinstance(value, list | tuple):
        if not value or len(value) > 64 or not all(isinstance(v, str) and len(v) <= 200 for v in value):
            raise ValueError
        return tuple(value)
    if not isinstance(value, str) or len(value) > 200:
        raise ValueError
    return value
