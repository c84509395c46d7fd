"""A class poll's count (ui/check/tally.py): answers read in the student's language, judged on the live
state, the right answer marked, and each known mistake counted by name. Plain Python, real traces."""

from __future__ import annotations

import pytest
import torch

from attention import book_inputs, simple_attention_for_query
from ui.check.answers import Unparsed
from ui.check.questions import QUESTIONS, Live
from ui.check.tally import MAX_BARS, Bar, canonical, tally

LABELS = ("Your", "journey", "starts", "with", "one", "step")
QUESTION = {q.id: q for q in QUESTIONS["one-query"]}


def one_query(inputs: torch.Tensor, q: int = 1) -> Live:
    return Live(simple_attention_for_query(inputs, q), LABELS, inputs, {"query": q})


def test_answers_typed_in_any_language_reach_the_same_plain_form():
    question = QUESTION["score"]
    assert canonical(question, "0,9544", decimal_comma=True) == canonical(question, "0.9544") == "0.9544"
    assert isinstance(canonical(question, "lots"), Unparsed)
    (shape,) = [q for q in QUESTIONS["all-queries"] if q.id == "scores_shape"]
    assert canonical(shape, "(6, 6)") == "6,6"
    choice = QUESTION["top_key"]
    options = choice.answer(one_query(book_inputs())).options
    assert canonical(choice, "2", options) == "2" and isinstance(canonical(choice, "99", options), Unparsed)


def test_a_poll_counts_right_answers_known_mistakes_and_other_values():
    question = QUESTION["score"]
    live = one_query(book_inputs())
    answer = question.answer(live)
    weight = answer.mistakes["weight"]  # the weight α(2,1) given for the score ω(2,1): a known mistake
    given = [repr(float(answer.value))] * 3 + [repr(weight)] * 2 + ["0.5", "not a number"]
    counted = tally(question, answer, given, tolerance=0.001)
    assert (counted.total, counted.right, counted.unreadable) == (6, 3, 1)
    assert counted.answer == "0.9544"  # the book's ω(2,1)
    assert counted.bars[0] == Bar("0.9544", 3, correct=True)
    assert counted.bars[1].count == 2 and counted.bars[1].mistake == "weight" and not counted.bars[1].correct
    assert counted.mistakes == (("weight", 2, "0.1385"),)  # the book's α(2,1)
    assert Bar("0.5000", 1) in counted.bars  # as Check yourself shows a number


def test_the_count_follows_the_live_state_a_changed_matrix_changes_who_is_right():
    question = QUESTION["score"]
    before = question.answer(one_query(book_inputs()))
    given = [repr(float(before.value))] * 4
    assert tally(question, before, given, 0.001).right == 4
    changed = book_inputs().clone()
    changed[0] *= 2  # the lecturer doubled the first token's embedding while the poll was open
    after = question.answer(one_query(changed))
    recount = tally(question, after, given, 0.001)
    assert recount.right == 0 and recount.answer != tally(question, before, given, 0.001).answer


def test_the_right_answer_is_drawn_even_when_nobody_gave_it_and_many_values_are_grouped():
    question = QUESTION["score"]
    answer = question.answer(one_query(book_inputs()))
    given = [f"{10 + i}.0" for i in range(20)]
    counted = tally(question, answer, given, 0.001)
    assert len(counted.bars) == MAX_BARS + 1  # the right answer among them, and one bar for the rest
    assert any(bar.correct and bar.count == 0 for bar in counted.bars)
    assert counted.bars[-1].shown is None and counted.bars[-1].count == 20 - (MAX_BARS - 1)
    assert sum(bar.count for bar in counted.bars) == counted.total == 20


@pytest.mark.parametrize("hostile", ["x" * 10_000, "", "1e309", "nan"])
def test_hostile_answers_are_counted_as_unreadable_or_ignored_never_raise(hostile):
    question = QUESTION["score"]
    answer = question.answer(one_query(book_inputs()))
    counted = tally(question, answer, [hostile, "0.9544"], 0.001)
    assert counted.right == 1 and counted.total + counted.unreadable == 2
