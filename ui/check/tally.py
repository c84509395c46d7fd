"""A class's answers to one Check yourself question, counted: plain data for the poll's chart.

A student's window reads what the student typed in their own language (a decimal comma, a shape in
brackets, a choice by its words) and sends it in one plain form (:func:`canonical`): a number as
Python writes it, a shape as ``2,6,4``, a choice as its id. The lecturer's windows count what came in
(:func:`tally`) against the answer computed from the room's live state *now*, with the same judge as
Check yourself, so that a poll judged after the matrix changed follows the change, and every known
mistake (an unscaled score, a row for a column...) is counted by name. Plain Python: no Streamlit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .answers import Unparsed, parse_choice, parse_number, parse_shape
from .questions import CHOICE, NUMBER, PREDICT, SHAPE, Answer, Question, Verdict, judge, shown_answer

__all__ = ["MAX_ANSWER_CHARS", "MAX_BARS", "POLL_KINDS", "Bar", "Tally", "canonical", "tally"]

POLL_KINDS = (NUMBER, CHOICE, SHAPE, PREDICT)  # a task or a mapping is done on the page, not answered in a poll
MAX_ANSWER_CHARS = 64  # a canonical answer is a number, a shape or a choice's id: far shorter than this
MAX_BARS = 8  # distinct answers drawn; the rest are counted together


@dataclass(frozen=True)
class Bar:
    """One distinct answer and how many gave it (``shown`` None: the rest, counted together)."""

    shown: str | None
    count: int
    correct: bool = False
    mistake: str | None = None  # the known mistake this answer is, if it is one


@dataclass(frozen=True)
class Tally:
    total: int  # answers counted
    right: int  # of which correct
    answer: str  # the right answer, as Check yourself shows it
    bars: tuple[Bar, ...]  # the most frequent first; the right answer always among them
    mistakes: tuple[tuple[str, int, str], ...]  # (mistake, how many, the answer it gives), most frequent first
    unreadable: int = 0  # answers the judge could not read (sent by something other than this app)


def canonical(question: Question, raw: object, options: Sequence[str] = (), *,
              decimal_comma: bool = False) -> str | Unparsed:
    """What a student typed (or chose among ``options``), in the one form a poll keeps; Unparsed, with the
    reason Check yourself gives, if it cannot be read."""
    if question.kind == NUMBER:
        parsed = parse_number(raw, decimal_comma=decimal_comma)
        return parsed if isinstance(parsed, Unparsed) else repr(float(parsed.value))
    if question.kind == SHAPE:
        parsed = parse_shape(raw)
        return parsed if isinstance(parsed, Unparsed) else ",".join(str(int(n)) for n in parsed.value)
    parsed = parse_choice(raw, options)
    return parsed if isinstance(parsed, Unparsed) else str(parsed.value)


def tally(question: Question, answer: Answer, given: Iterable[str], tolerance: float | None,
          option_words: Mapping[str, str] | None = None) -> Tally:
    """Count ``given`` (canonical answers) against the live ``answer``."""
    counts: Counter[str] = Counter()
    verdicts: dict[str, Verdict] = {}
    unreadable = 0
    for raw in given:
        if not isinstance(raw, str) or len(raw) > MAX_ANSWER_CHARS:
            unreadable += 1
            continue
        verdict = judge(question, answer, raw, tolerance, option_words)
        if not isinstance(verdict, Verdict):
            unreadable += 1
            continue
        shown = str(verdict.fields.get("given", raw))
        counts[shown] += 1
        verdicts[shown] = verdict
    right_shown = shown_answer(question, answer, option_words)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = ranked[:MAX_BARS]
    if right_shown not in dict(kept):  # the right answer is always drawn, even if nobody gave it
        kept = kept[:MAX_BARS - 1] + [(right_shown, counts.get(right_shown, 0))]
    bars = [_bar(shown, n, verdicts.get(shown), question) for shown, n in kept]
    rest = sum(counts.values()) - sum(n for _, n in kept)
    if rest:
        bars.append(Bar(None, rest))
    by_mistake: Counter[str] = Counter()
    for shown, n in counts.items():
        verdict = verdicts[shown]
        if verdict.feedback in question.mistakes:
            by_mistake[verdict.feedback] += n
    mistakes = tuple((m, n, _mistaken(question, answer, m, option_words))
                     for m, n in sorted(by_mistake.items(), key=lambda kv: (-kv[1], kv[0])))
    right = sum(n for shown, n in counts.items() if verdicts[shown].correct)
    return Tally(sum(counts.values()), right, right_shown, tuple(bars), mistakes, unreadable)


def _bar(shown: str, count: int, verdict: Verdict | None, question: Question) -> Bar:
    if verdict is None:  # the right answer, which nobody gave
        return Bar(shown, count, correct=True)
    mistake = verdict.feedback if verdict.feedback in question.mistakes else None
    return Bar(shown, count, verdict.correct, mistake)


def _mistaken(question: Question, answer: Answer, mistake: str, option_words: Mapping[str, str] | None) -> str:
    """The answer a known mistake gives, shown as Check yourself shows answers."""
    value = answer.mistakes.get(mistake)
    if value is None:
        return ""
    several = question.kind in (CHOICE, PREDICT) and isinstance(value, tuple)  # a choice's mistake: any of these
    values = value if several else (value,)
    return ", ".join(shown_answer(question, Answer(v, answer.fields, {}, answer.options, answer.labels, answer.whole),
                                  option_words) for v in values)
