"""Judging: a question's answer under the live state (the book's own value as a known mistake), how what the learner
gave compares with it, the answer as shown when asked for, and a fingerprint that says when a check is stale.

Apart from the questions (self_attention.py, causal_and_heads.py): every question is judged the same way, by its
kind; a task or a mapping brings its own check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from .answers import Parsed, Unparsed, format_number, format_shape, parse_choice, parse_number, parse_shape
from .question_types import CHOICE, NUMBER, PREDICT, SHAPE, Answer, Live, Question, Unavailable, Verdict

__all__ = ["answer_for", "judge", "shown_answer", "signature"]


def answer_for(question: Question, live: Live) -> Answer | Unavailable:
    """The question's answer under the live state. Where the learner changed the matrix or a control, a number
    that the book's own state gives is the first known mistake ("book"): a learner who types the value the
    book prints hears that the page's answer differs from the book's, not a coincidental wrong diagnosis."""
    answer = question.answer(live)
    if question.kind != NUMBER or live.book is None or not isinstance(answer, Answer):
        return answer
    book = question.answer(live.book)
    # the same question up to the tokens' names: the query x(2), whatever the learner renamed "journey" to
    same_question = isinstance(book, Answer) and (_plain(book.fields, live.book.labels)
                                                  == _plain(answer.fields, live.labels))
    if not same_question or book.value == answer.value:
        return answer
    return replace(answer, mistakes={"book": book.value, **answer.mistakes})


def _plain(fields: Mapping[str, Any], labels: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Fields comparable as text; with ``labels``, a token's name stands as its position."""
    def plain(value: Any) -> str:
        return f"token #{labels.index(value)}" if isinstance(value, str) and value in labels else repr(value)
    return sorted((k, plain(v)) for k, v in fields.items())


def judge(question: Question, answer: Answer, given: Any, tolerance: float | None,
          option_words: Mapping[str, str] | None = None, *, decimal_comma: bool = False) -> Verdict | Unparsed:
    """How ``given`` (what the learner entered) compares with the live ``answer``; never raises on bad input.

    ``option_words`` name the choices the content file names (option_<id>), for the feedback;
    ``decimal_comma``: the learner's language writes 0,125 (see answers.parse_number).
    """
    if answer.check is not None:
        return answer.check(given)
    if question.kind == NUMBER:
        return _judge_number(answer, parse_number(given, decimal_comma=decimal_comma), tolerance or 0.0)
    if question.kind == SHAPE:
        return _judge_shape(answer, parse_shape(given))
    parsed = parse_choice(given, answer.options)
    if isinstance(parsed, Unparsed):
        return parsed
    shown = (option_words or {}).get(parsed.value) or _choice_name(answer, parsed.value)
    return _verdict(answer, parsed.value, parsed.value == answer.value,
                    lambda m: parsed.value in m if isinstance(m, tuple) else parsed.value == m, shown)


def _judge_number(answer: Answer, parsed: Parsed | Unparsed, tolerance: float) -> Verdict | Unparsed:
    if isinstance(parsed, Unparsed):
        return parsed
    given = parsed.value
    right = abs(given - answer.value) <= tolerance
    # a right answer is confirmed with the exact value: "0.99" is right for 0.9929, and "Correct: 0.9900" read as if
    # 0.9900 were the value
    shown = format_number(float(answer.value) if right else given, whole=answer.whole)
    verdict = _verdict(answer, given, right, lambda m: abs(given - m) <= tolerance, shown)
    if verdict.feedback == "wrong":
        return Verdict(False, "too_high" if given > answer.value else "too_low", verdict.fields)
    return verdict


def _judge_shape(answer: Answer, parsed: Parsed | Unparsed) -> Verdict | Unparsed:
    if isinstance(parsed, Unparsed):
        return parsed
    given = parsed.value
    verdict = _verdict(answer, given, given == tuple(answer.value), lambda m: given == tuple(m), format_shape(given))
    if verdict.feedback == "wrong" and len(given) != len(answer.value):
        return Verdict(False, "rank", {**verdict.fields, "given_rank": len(given), "rank": len(answer.value)})
    return verdict


def _verdict(answer: Answer, given: Any, right: bool, matches: Callable[[Any], bool], shown: str) -> Verdict:
    fields = {"given": shown}
    if right:
        return Verdict(True, "correct", fields)
    for mistake, value in answer.mistakes.items():
        if matches(value):
            return Verdict(False, mistake, fields)
    return Verdict(False, "wrong", fields)


def _choice_name(answer: Answer, option: str) -> str:
    return answer.labels.get(option, option)


def shown_answer(question: Question, answer: Answer, option_words: Mapping[str, str] | None = None) -> str:
    """The answer as it is shown when the learner asks for it."""
    value = answer.value
    if question.kind == NUMBER:
        return format_number(float(value), whole=answer.whole)
    if question.kind == SHAPE:
        return format_shape(value)
    if question.kind in (CHOICE, PREDICT):
        return (option_words or {}).get(value) or _choice_name(answer, value)
    return str(answer.fields.get("answer", ""))


def signature(answer: Answer) -> str:
    """A fingerprint of what the answer depends on: when it changes, an earlier check is stale."""
    plain = repr((answer.value, _plain(answer.fields), answer.options,
                  sorted(answer.labels.items())))
    return hashlib.sha1(plain.encode()).hexdigest()
