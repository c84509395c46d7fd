"""Check yourself (issue 10): every section asks, checks the learner's answer against the live result,
explains mistakes, keeps progress in the session (not in the link) and marks finished sections with ✓."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import torch
from streamlit.testing.v1 import AppTest

from attention import (
    AttentionConfig,
    CausalAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
    SelfAttention_v2,
    additive_attention,
    book_inputs,
    causal_attention_step_by_step,
    count_parameters,
    dropout_demo,
    rnn_bottleneck,
    seeded,
    self_attention_step_by_step,
    simple_attention_for_query,
    simple_self_attention,
)
from attention.explore import causal_class_demo, self_attention_classes, stacking_heads, weight_splits
from tests.apptest import open_page as open_at
from tests.apptest import printed_tensors
from tests.check_lives import lives as _lives
from ui.chapter import PAGES
from ui.check.answers import Unparsed, format_shape, parse_shape
from ui.check.questions import (
    CHOICE,
    MAPPING,
    NUMBER,
    PREDICT,
    QUESTIONS,
    SHAPE,
    TASK,
    Live,
    Unavailable,
    Verdict,
    answer_for,
    judge,
)
from ui.inputs.matrix import random_matrix
from ui.state import fold_key
from ui.words.content import page_text

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BY_ID = {p.page_id: p for p in PAGES}
SECTIONS = ["long-sequences", "dependencies", "one-query", "all-queries", "trainable-steps", "self-attention-classes",
            "causal-mask", "dropout", "causal-class", "stacking-heads", "weight-splits"]
X = book_inputs()
BATCH = torch.stack((X, X))
LABELS = ("Your", "journey", "starts", "with", "one", "step")
TRANSPOSE_ALL = {"W_query": "transpose", "W_key": "transpose", "W_value": "transpose"}


# ----- driving the panel ---------------------------------------------------------------------


def open_page(page_id: str, **state: Any) -> AppTest:
    """The page with its Check yourself panel open, as a learner who answers has it."""
    return open_at(page_id, state={fold_key(f"check:{page_id}"): True, **state})


def kind_of(page_id: str, qid: str) -> str:
    return next(q.kind for q in QUESTIONS[page_id] if q.id == qid)


def enter(at: AppTest, page_id: str, qid: str, value: Any) -> None:
    """Type or choose ``value`` as the answer to a question (not yet checked)."""
    key = f"check:{page_id}:{qid}"
    kind = kind_of(page_id, qid)
    if kind in (NUMBER, SHAPE):
        at.text_input(key=key).input(value)
    elif kind in (CHOICE, PREDICT):
        at.radio(key=key).set_value(value)
    elif kind == MAPPING:
        for role, way in value.items():
            at.selectbox(key=f"{key}:{role}").set_value(way)


def check(at: AppTest, page_id: str, qid: str) -> AppTest:
    at.button(key=f"check:{page_id}:{qid}:check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def entry(at: AppTest, page_id: str, qid: str) -> dict:
    return at.session_state["_checks"].get(page_id, {}).get(qid, {}) if "_checks" in at.session_state else {}


def successes(at: AppTest) -> list[str]:
    return [s.value for s in at.success]


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


def nav_titles(at: AppTest) -> dict[str, str]:
    """The navigation's titles by URL path (what the sidebar shows), from AppTest's page registry."""
    return {info.get("url_pathname", ""): info["page_name"] for info in at._registered_pages.values()}


# ----- the answers, computed here with the package at each page's default settings ---------------------


def _num(t: Any) -> str:
    return f"{float(t):.4f}"


def _count(n: Any) -> str:
    return f"{int(n):,}"


def _built(seed: int, build):
    with seeded(seed):
        return build()


def book_answers() -> dict[tuple[str, str], Any]:
    rnn, attn, add = rnn_bottleneck(X), simple_self_attention(X), additive_attention(X)
    one, steps = simple_attention_for_query(X, 1), self_attention_step_by_step(X)
    causal = causal_attention_step_by_step(X)
    drop = dropout_demo(causal["masked_weights"], 0.5, seed=123).trace
    v2 = _built(789, lambda: SelfAttention_v2(3, 2))
    ca = _built(123, lambda: CausalAttention(3, 2, 6, 0.0))
    wrapper = _built(123, lambda: MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2))
    mha = _built(123, lambda: MultiHeadAttention(3, 2, 6, 0.0, 2))
    split = mha.trace(BATCH)
    return {
        ("long-sequences", "least_moved"): str(int(rnn["influence_share"].argmin())),
        ("long-sequences", "last_to_first"): _num(attn["weights"][5, 0]),
        ("dependencies", "top_state"): str(int(add["weights"][5].argmax())),
        ("dependencies", "state_weight"): _num(add["weights"][5, 0]),
        ("one-query", "score"): _num(one["scores"][0]),  # 0.9544, the book's ω21
        ("one-query", "top_key"): str(int(one["weights"].argmax())),
        ("one-query", "context"): _num(one["context"][0]),
        ("all-queries", "predict_top"): str(int(attn["weights"][2].argmax())),
        ("all-queries", "scores_shape"): str(tuple((X @ X.T).shape)),
        ("all-queries", "row_sum"): _num(attn["weights"][1].sum()),
        ("trainable-steps", "scaled_score"): _num(steps["scores"][0] / steps["keys"].shape[-1] ** 0.5),
        ("trainable-steps", "keys_shape"): ", ".join(map(str, steps["keys"].shape)),
        ("trainable-steps", "weight"): _num(steps["weights"][0]),
        ("self-attention-classes", "exercise_3_1"): TRANSPOSE_ALL,
        ("self-attention-classes", "v2_weight_shape"): str(list(v2.W_query.weight.shape)),
        ("causal-mask", "hidden_cells"): "above",
        ("causal-mask", "masked_weight"): _num(causal["masked_weights"][1, 0]),
        ("causal-mask", "left_in_row"): _num(causal["row_sums"][1]),
        ("dropout", "survivor"): _num(drop["dropped_example"].max()),
        ("dropout", "dropped_count"): _count((drop["keep"] == 0).sum()),
        ("dropout", "cell_after"): _num(drop["dropped_weights"][1, 0]),
        ("causal-class", "context_shape"): f"torch.Size({list(ca.trace(BATCH)['context'].shape)})",
        ("causal-class", "mask_shape"): format_shape(ca.mask.shape),
        ("causal-class", "hidden_count"): _count(ca.mask.sum()),
        ("stacking-heads", "exercise_3_2"): None,  # a task: set the page's controls (below)
        ("stacking-heads", "output_width"): _count(wrapper(BATCH).shape[-1]),
        ("stacking-heads", "parameters"): _count(count_parameters(wrapper)),
        ("weight-splits", "split_shape"): ", ".join(map(str, split["queries_split"].shape)),
        ("weight-splits", "weights_shape"): format_shape(split["weights"].shape),
        ("weight-splits", "exercise_3_3"): _count(count_parameters(MultiHeadAttention(768, 768, 1024, 0.0, 12))),
        ("weight-splits", "parameters"): _count(count_parameters(mha)),
    }


BOOK = book_answers()


def wrong(page_id: str, qid: str, right: Any) -> Any:
    kind = kind_of(page_id, qid)
    if kind == NUMBER:
        return f"{float(right.replace(',', '')) + 1.5:.4f}"
    if kind == SHAPE:
        return format_shape((*parse_shape(right).value, 1))
    if kind in (CHOICE, PREDICT):
        options = ["above", "diagonal", "below", "none"] if qid == "hidden_cells" else [str(i) for i in range(6)]
        return next(o for o in options if o != right)
    if kind == MAPPING:
        return {role: "view" for role in right}
    return None


def test_every_question_of_every_section_has_a_book_answer_here():
    assert sorted(QUESTIONS) == sorted(SECTIONS)
    assert set(BOOK) == {(p, q.id) for p, qs in QUESTIONS.items() for q in qs}
    assert BOOK[("one-query", "score")] == "0.9544"
    assert BOOK[("weight-splits", "exercise_3_3")] == "2,360,064"
    assert BOOK[("weight-splits", "split_shape")] == "2, 6, 2, 1"


# ----- every page: a Check button, blank answers explained, the package's answer accepted ------------------


def test_the_panel_is_folded_until_opened_and_then_stays_open_when_a_control_changes():
    at = open_at("causal-mask")  # a fresh session: folded, so a control change redraws none of its widgets
    assert [e.label for e in at.expander if e.label.startswith("Check yourself")] == ["Check yourself: 3 questions"]
    assert not [b for b in at.button if b.key and b.key.startswith("check:")]
    at.session_state[fold_key("check:causal-mask")] = True  # what a click on the label does
    at.run()
    keys = [b.key for b in at.button if b.key and b.key.startswith("check:causal-mask:")]
    assert len(keys) == 3
    at.number_input[0].increment().run()
    assert [b.key for b in at.button if b.key and b.key.startswith("check:causal-mask:")] == keys
    # Open from the start where the page hides a result until the learner has predicted it (3.3.2).
    at = open_at("all-queries")
    assert [b.key for b in at.button if b.key and b.key.startswith("check:all-queries:")]


@pytest.mark.parametrize("page_id", SECTIONS)
def test_each_section_has_at_least_two_questions_with_check_buttons_and_blank_answers_are_explained(page_id):
    at = open_page(page_id)
    questions = QUESTIONS[page_id]
    assert len(questions) >= 2
    assert [e.label for e in at.expander if e.label.startswith("Check yourself")] == [
        f"Check yourself: {len(questions)} questions"]
    for q in questions:
        before = len(warnings(at))
        check(at, page_id, q.id)
        assert not at.error, [e.value for e in at.error]
        if q.kind == TASK:  # no answer to type: the live settings are checked (2 + 2 = 4 is not 2)
            assert any("Not yet" in w for w in warnings(at)[before:])
        else:
            assert "There is no answer yet: type or choose one, then press Check." in warnings(at)[before:]
        assert not entry(at, page_id, q.id).get("done")


@pytest.mark.parametrize("page_id", SECTIONS)
def test_the_packages_answer_is_correct_and_another_is_not(page_id):
    at = open_page(page_id)
    for q in QUESTIONS[page_id]:
        right = BOOK[(page_id, q.id)]
        if q.kind == TASK:
            continue  # Exercise 3.2: test_exercise_3_2_checks_the_live_modules_output_shape
        enter(at, page_id, q.id, wrong(page_id, q.id, right))
        shown = len(successes(at))
        check(at, page_id, q.id)
        assert len(successes(at)) == shown, f"{q.id}: a wrong answer was accepted"
        assert entry(at, page_id, q.id)["done"] is False
        assert any(w.startswith("Not yet") for w in warnings(at)), q.id
        enter(at, page_id, q.id, right)
        check(at, page_id, q.id)
        assert len(successes(at)) == shown + 1, f"{q.id}: {right!r} was not accepted"
        assert successes(at)[-1].startswith("Correct"), successes(at)[-1]
        assert entry(at, page_id, q.id)["done"] is True


def test_exercise_3_2_checks_the_live_modules_output_shape():
    at = open_page("stacking-heads")
    check(at, "stacking-heads", "exercise_3_2")
    assert any("gives width 4" in w for w in warnings(at))
    at.number_input(key="w:stacking-heads:num_heads").set_value(1).run()  # 2 x 1 = 2, but one head
    check(at, "stacking-heads", "exercise_3_2")
    assert any("Keep 2 heads" in w for w in warnings(at))
    assert not entry(at, "stacking-heads", "exercise_3_2")["done"]
    at.number_input(key="w:stacking-heads:num_heads").set_value(2).run()
    at.number_input(key="w:stacking-heads:d_out").set_value(1).run()  # the book's answer: d_out=1, two heads
    check(at, "stacking-heads", "exercise_3_2")
    assert any(s.startswith("Correct") and "(2, 6, 2)" in s for s in successes(at)), successes(at)
    assert entry(at, "stacking-heads", "exercise_3_2")["done"]


def test_exercise_3_1_builds_v1_the_learners_way():
    at = open_page("self-attention-classes")
    page, qid = "self-attention-classes", "exercise_3_1"
    enter(at, page, qid, {**TRANSPOSE_ALL, "W_key": "as_is"})
    check(at, page, qid)
    assert any("W_key weight is (2, 3)" in w and "(3, 2)" in w for w in warnings(at)), warnings(at)
    enter(at, page, qid, {**TRANSPOSE_ALL, "W_value": "view"})
    check(at, page, qid)
    assert any("`.view` gives the right shape" in w for w in warnings(at))
    at.number_input(key="w:self-attention-classes:d_out").set_value(3).run()  # square: as_is fits, but differs
    enter(at, page, qid, {**TRANSPOSE_ALL, "W_query": "as_is"})
    check(at, page, qid)
    assert any("the shapes fit" in w for w in warnings(at)), warnings(at)
    enter(at, page, qid, TRANSPOSE_ALL)
    check(at, page, qid)
    assert any(s.startswith("Correct: v1 built your way") for s in successes(at))
    at.toggle(key="w:self-attention-classes:qkv_bias").set_value(True).run()
    assert any("needs `qkv_bias` off" in m.value for m in at.markdown)


# ----- unreadable answers, diagnosed mistakes, showing the answer ---------------------------------------------


@pytest.mark.parametrize("page_id,qid,typed,message", [
    ("one-query", "score", "abc", "“abc” is not a number"),
    ("one-query", "score", "1e999", "“1e999” is not a finite number."),
    ("one-query", "score", "9" * 10_000, "longer than 100 characters"),
    ("weight-splits", "split_shape", "(2, six)", "“(2, six)” is not a shape"),
])
def test_an_unreadable_answer_gets_a_message_never_a_traceback(page_id, qid, typed, message):
    at = open_page(page_id)
    enter(at, page_id, qid, typed)
    check(at, page_id, qid)
    assert any(message in w for w in warnings(at)), warnings(at)
    assert not at.error


def test_a_diagnosed_mistake_says_what_the_learner_computed():
    at = open_page("trainable-steps")
    unscaled = _num(self_attention_step_by_step(X)["scores"][0])  # 1.2705: forgot to divide by √2
    enter(at, "trainable-steps", "scaled_score", unscaled)
    check(at, "trainable-steps", "scaled_score")
    assert f"Not yet: your {unscaled} is the unscaled score ω(2,1) = q(2) · k(1); divide by √d_k = √2 ≈ 1.414." in (
        warnings(at))


def test_after_a_wrong_answer_the_answer_can_be_shown():
    at = open_page("weight-splits")
    enter(at, "weight-splits", "exercise_3_3", "2,359,296")  # no out_proj bias
    check(at, "weight-splits", "exercise_3_3")
    assert any("leaves out the output projection's bias" in w for w in warnings(at))
    assert not any(i.value.startswith("The answer") for i in at.info)
    at.button(key="check:weight-splits:exercise_3_3:show").click().run()
    assert "The answer: **2,360,064**" in [i.value for i in at.info]
    assert not entry(at, "weight-splits", "exercise_3_3")["done"]  # seeing the answer is not answering it


def test_predict_then_reveal_draws_the_weights_only_once_a_guess_is_committed():
    at = open_page("all-queries")
    rows = ("[0.1390, 0.2369, 0.2326, 0.1242, 0.1108, 0.1565]",  # the query "starts"
            "[0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452]",  # the chapter's first and last rows
            "[0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896]")
    charts = len(at.get("vega_lite_chart"))
    heatmaps = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert not any('"weights"' in spec for spec in heatmaps)  # no weights heatmap before the guess
    enter(at, "all-queries", "predict_top", "2")  # "starts" itself: wrong, it attends most to "journey"
    check(at, "all-queries", "predict_top")
    assert len(at.get("vega_lite_chart")) == charts + 1
    printed = "\n".join(printed_tensors(at))
    assert all(row in printed for row in rows)
    assert any("not always closest to itself" in w for w in warnings(at))
    enter(at, "all-queries", "predict_top", "1")  # "journey"
    check(at, "all-queries", "predict_top")
    assert "Correct: x(2) “journey”." in successes(at)


# ----- live: edits change the answers; stale checks are not shown as correct -----------------------------------


def test_a_matrix_edit_changes_the_answer_and_the_old_one_is_no_longer_accepted():
    at = open_page("one-query")
    enter(at, "one-query", "score", "0.9544")
    check(at, "one-query", "score")
    assert "Correct: 0.9544." in successes(at)
    edited = random_matrix(6, 3, seed=7)
    at.session_state["matrix"] = edited
    at.run()
    assert "Correct: 0.9544." not in successes(at)  # checked under the old inputs: not shown as correct
    assert any("inputs changed" in i.value for i in at.info)
    assert entry(at, "one-query", "score")["done"]  # progress: answered correctly once
    new = _num(simple_attention_for_query(edited.tensor(), 1)["scores"][0])
    assert new != "0.9544"
    check(at, "one-query", "score")  # the old answer, checked again
    assert "Correct: 0.9544." not in successes(at)
    assert any(w.startswith("Not yet: 0.9544") for w in warnings(at))
    enter(at, "one-query", "score", new)
    check(at, "one-query", "score")
    assert f"Correct: {new}." in successes(at)


def _question(page_id: str, qid: str):
    return next(q for q in QUESTIONS[page_id] if q.id == qid)


def test_the_books_value_typed_after_an_edit_is_named_as_the_books_not_as_a_coincidental_mistake():
    # m5: with an edited matrix and the mask on, the book's 0.4419 was called "the plain average"
    at = open_page("one-query")  # a run at the book's matrix and settings: the page keeps that state's answers
    at.session_state["matrix"] = random_matrix(6, 3, seed=7)
    at.run()
    at.toggle(key="w:one-query:causal").set_value(True).run()
    book = _num(simple_attention_for_query(X, 1)["context"][0])  # 0.4419, the book's z(2)'s first coordinate
    enter(at, "one-query", "context", book)
    check(at, "one-query", "context")
    assert any(w.startswith(f"Not yet: {book} is the book's value") for w in warnings(at)), warnings(at)
    enter(at, "one-query", "score", "0.9544")  # the book's ω(2,1), against the edited matrix's
    check(at, "one-query", "score")
    assert any(w.startswith("Not yet: 0.9544 is the book's value") for w in warnings(at)), warnings(at)


def test_the_books_value_is_a_mistake_only_for_the_same_question_under_other_inputs():
    question = _question("one-query", "context")
    edited = random_matrix(6, 3, seed=7).tensor()
    book = Live(simple_attention_for_query(X, 1), LABELS, X, {"query": 1})
    mine = Live(simple_attention_for_query(edited, 1, causal=True), LABELS, edited, {"query": 1}, book=book)
    said = judge(question, answer_for(question, mine), _num(book.result["context"][0]), 0.005)
    assert said.feedback == "book"
    assert "book" not in answer_for(question, replace(mine, book=None)).mistakes  # no book state known
    other_query = Live(mine.result, LABELS, edited, {"query": 2}, book=book)  # z(3) is not the book's z(2)
    assert "book" not in answer_for(question, other_query).mistakes
    assert "book" not in answer_for(question, replace(book, book=book)).mistakes  # the book's own state


def test_with_the_mask_on_a_masked_key_is_said_masked_and_the_plain_average_is_over_the_keys_seen():
    trace = simple_attention_for_query(X, 1, causal=True)  # "journey" sees x(1) and x(2)
    live = Live(trace, LABELS, X, {"query": 1})
    top = _question("one-query", "top_key")
    answer = answer_for(top, live)
    for hidden in "2345":
        assert judge(top, answer, hidden, None).feedback == "masked"
    assert answer.mistakes["least"] == "0"  # the lesser of the two keys it sees, not a masked 0
    context = _question("one-query", "context")
    mean = answer_for(context, live).mistakes["mean"]
    assert mean == pytest.approx(float(X[:2, 0].mean()))
    assert judge(context, answer_for(context, live), f"{mean:.4f}", 0.005).feedback == "mean"


def test_a_control_change_makes_the_check_stale():
    at = open_page("causal-class")
    enter(at, "causal-class", "context_shape", "(2, 6, 2)")
    check(at, "causal-class", "context_shape")
    assert "Correct: (2, 6, 2)." in successes(at)
    at.number_input(key="w:causal-class:batch").set_value(3).run()
    assert "Correct: (2, 6, 2)." not in successes(at)
    assert any("inputs changed" in i.value for i in at.info)
    assert any("batch of 3 sequences" in m.value for m in at.markdown)


# ----- progress: kept in the session, across pages; ✓ in the navigation; never in the link ---------------------


def _answer_all(at: AppTest, page_id: str) -> None:
    for q in QUESTIONS[page_id]:
        enter(at, page_id, q.id, BOOK[(page_id, q.id)])
        check(at, page_id, q.id)


def test_progress_survives_a_page_switch():
    at = open_page("one-query")
    enter(at, "one-query", "score", "0.9544")
    check(at, "one-query", "score")
    for page in ("causal-mask", "one-query"):
        at.switch_page(BY_ID[page].file)
        at.run()
    assert entry(at, "one-query", "score")["done"]
    assert at.text_input(key="check:one-query:score").value == "0.9544"  # the typed answer is back
    assert "Correct: 0.9544." in successes(at)
    assert any(m.value.startswith("**1.** ✓ ω(2,1)") for m in at.markdown)


def test_a_check_mark_appears_in_the_navigation_once_all_of_a_pages_questions_are_done():
    at = open_page("causal-mask")
    title = BY_ID["causal-mask"].title
    assert nav_titles(at)["causal-mask"] == title
    *first, last = QUESTIONS["causal-mask"]
    for q in first:
        enter(at, "causal-mask", q.id, BOOK[("causal-mask", q.id)])
        check(at, "causal-mask", q.id)
    assert nav_titles(at)["causal-mask"] == title  # not yet: one question left
    enter(at, "causal-mask", last.id, BOOK[("causal-mask", last.id)])
    check(at, "causal-mask", last.id)
    assert nav_titles(at)["causal-mask"] == f"{title} ✓"
    at.switch_page(BY_ID["dropout"].file)
    at.run()
    titles = nav_titles(at)
    assert titles["causal-mask"] == f"{title} ✓"  # and it stays
    assert titles["dropout"] == BY_ID["dropout"].title
    assert not any(t.endswith("✓") for path, t in titles.items() if path != "causal-mask")


def test_the_share_link_does_not_change_when_answers_are_given():
    at = open_page("causal-mask")
    link = at.query_params["s"]
    _answer_all(at, "causal-mask")
    assert all(entry(at, "causal-mask", q.id)["done"] for q in QUESTIONS["causal-mask"])
    assert at.query_params["s"] == link
    # the link's controls are the page's settings only, never an answer
    assert set(at.session_state["controls"]["causal-mask"]) <= {"seed", "d_out", "qkv_bias", "causal"}


def test_after_a_failover_the_link_restores_the_page_but_not_the_answers():
    """A reconnect to another replica is a new session opened from the link: progress is not in it."""
    at = open_page("causal-mask")
    _answer_all(at, "causal-mask")
    assert nav_titles(at)["causal-mask"].endswith("✓")
    again = AppTest.from_file(APP, default_timeout=120)
    again.query_params["s"] = at.query_params["s"]
    again.run()
    again.switch_page(BY_ID["causal-mask"].file)
    again.run()
    assert not again.exception
    assert not nav_titles(again)["causal-mask"].endswith("✓")
    assert not any(entry(again, "causal-mask", q.id).get("done") for q in QUESTIONS["causal-mask"])


# ----- the registry over many settings: every mistake has its words, every prompt fills in -----------------------


def _typed(kind: str, value: Any) -> Any:
    return f"{value:.6f}" if kind == NUMBER else format_shape(value) if kind == SHAPE else value


def test_every_mistake_is_diagnosed_with_its_own_words_and_every_prompt_fills_in():
    heard: set[tuple[str, str, str]] = set()
    for page_id, live in _lives():
        words = page_text(page_id).questions
        for q in QUESTIONS[page_id]:
            text, answer = words[q.id], q.answer(live)
            if isinstance(answer, Unavailable):
                assert answer.reason in q.unavailable and text(f"unavailable_{answer.reason}")
                heard.add((page_id, q.id, f"unavailable_{answer.reason}"))
                continue
            assert "{" not in text("prompt", **answer.fields)
            if q.kind in (TASK, MAPPING):
                verdict = judge(q, answer, TRANSPOSE_ALL if q.kind == MAPPING else None, None)
                if q.kind == MAPPING:
                    _mapping_verdicts(q, answer, heard, page_id, text)
            else:
                verdict = judge(q, answer, _typed(q.kind, answer.value), text.tolerance)
                assert verdict.correct, (page_id, q.id, answer.value)
                for mistake, values in answer.mistakes.items():
                    for value in values if q.kind == CHOICE and isinstance(values, tuple) else (values,):
                        said = judge(q, answer, _typed(q.kind, value), text.tolerance)
                        if said.correct or said.feedback != mistake:  # the same as the answer or an earlier mistake
                            same = answer.mistakes[said.feedback] if not said.correct else answer.value
                            assert same == (pytest.approx(value, abs=0.006) if q.kind == NUMBER else value)
                            continue
                        heard.add((page_id, q.id, said.feedback))
            _words_fill_in(text, answer, verdict, heard, page_id, q.id)
    declared = {(p, q.id, m) for p, qs in QUESTIONS.items() for q in qs for m in q.mistakes if m != "correct"}
    declared |= {(p, q.id, f"unavailable_{r}") for p, qs in QUESTIONS.items() for q in qs for r in q.unavailable
                 if r != "pattern"}  # a mask that is neither causal nor off cannot come from the package
    assert declared - heard == set(), "mistakes no setting above produces"


def _mapping_verdicts(q, answer, heard, page_id, text) -> None:
    for ways in ({**TRANSPOSE_ALL, "W_key": "as_is"}, {**TRANSPOSE_ALL, "W_query": "view"},
                 {"W_query": None, "W_key": "transpose", "W_value": "transpose"}):
        said = judge(q, answer, ways, None)
        if isinstance(said, Unparsed):
            assert said.reason == "blank"
            continue
        _words_fill_in(text, answer, said, heard, page_id, q.id)


def _words_fill_in(text, answer, verdict, heard, page_id: str, qid: str) -> None:
    assert isinstance(verdict, Verdict)
    key = f"feedback_{verdict.feedback}"
    if text.has(key):
        message = text(key, **{**answer.fields, **verdict.fields, "answer": "x"})
        assert message and "{" not in message
        heard.add((page_id, qid, verdict.feedback))


def _default_lives(inputs: torch.Tensor) -> list[tuple[str, Live]]:
    """Every section's result at its default settings, for any input matrix."""
    n, labels = inputs.shape[0], tuple(f"t{i}" for i in range(inputs.shape[0]))
    last, config = n - 1, AttentionConfig(inputs.shape[1], 2, n, num_heads=2)
    weights = causal_attention_step_by_step(inputs)["masked_weights"]
    results = [
        ("long-sequences", rnn_bottleneck(inputs), dict(attention=simple_self_attention(inputs), hidden=4, scale=0.6)),
        ("dependencies", additive_attention(inputs), dict(query=last)),
        ("one-query", simple_attention_for_query(inputs, min(1, last)), dict(query=min(1, last))),
        ("all-queries", simple_self_attention(inputs), {}),
        ("trainable-steps", self_attention_step_by_step(inputs, query_index=min(1, last)), dict(query=min(1, last))),
        ("self-attention-classes", self_attention_classes(inputs), {}),
        ("causal-mask", causal_attention_step_by_step(inputs), {}),
        ("dropout", dropout_demo(weights, 0.5), dict(p=0.5, training=True)),
        ("causal-class", causal_class_demo(inputs, AttentionConfig(inputs.shape[1], 2, n)), {}),
        ("stacking-heads", stacking_heads(inputs, AttentionConfig(inputs.shape[1], 4, n, num_heads=2)),
         dict(heads=2, d_out=2, qkv_bias=False)),
        ("weight-splits", weight_splits(inputs, config), dict(heads=2, d_out=2, qkv_bias=False)),
    ]
    return [(page_id, Live(result, labels, inputs, given)) for page_id, result, given in results]


@pytest.mark.parametrize("tokens,dim,seed", [(1, 1, 0), (2, 5, 1), (9, 2, 2), (6, 3, 3)])
def test_every_answer_follows_any_input_matrix(tokens, dim, seed):
    inputs = random_matrix(tokens, dim, seed=seed).tensor()
    for page_id, live in _default_lives(inputs):
        words = page_text(page_id).questions
        for q in QUESTIONS[page_id]:
            answer = q.answer(live)
            if isinstance(answer, Unavailable):
                assert answer.reason in q.unavailable
                continue
            assert "{" not in words[q.id]("prompt", **answer.fields)
            if q.kind not in (TASK, MAPPING):
                assert judge(q, answer, _typed(q.kind, answer.value), words[q.id].tolerance).correct, (page_id, q.id)
            if q.kind in (CHOICE, PREDICT) and not q.options:
                assert len(answer.options) == tokens and answer.value in answer.options


def test_many_tokens_are_chosen_from_a_select_box():
    matrix = random_matrix(10, 3, seed=4)
    at = open_page("all-queries", matrix=matrix)
    key = "check:all-queries:predict_top"
    assert key not in [r.key for r in at.radio]
    best = str(int(simple_self_attention(matrix.tensor())["weights"][2].argmax()))
    at.selectbox(key=key).set_value(best)
    check(at, "all-queries", "predict_top")
    assert any(s.startswith("Correct") for s in successes(at))


@pytest.mark.parametrize("lang, shown", [("id", "0,9544"), ("vi", "0,9544"), ("ko", "0.9544")])
def test_a_number_shown_back_follows_the_readers_convention(lang, shown):
    """Indonesian and Vietnamese write a decimal comma: the answer revealed after a wrong try says
    0,9544 there (a shape or a printed tensor never changes), Korean keeps the point."""
    at = open_at("one-query", state={fold_key("check:one-query"): True}, params={"lang": lang})
    enter(at, "one-query", "score", "0,5" if lang != "ko" else "0.5")
    check(at, "one-query", "score")
    at.button(key="check:one-query:score:show").click().run()
    assert any(shown in i.value for i in at.info), [i.value for i in at.info]


def test_the_progress_a_browser_sends_back_is_checked_like_anything_a_client_sends():
    from ui.check.progress import parse
    from ui.check.questions import QUESTIONS

    page_id, questions = next(iter(QUESTIONS.items()))
    qid = questions[0].id
    good = {"saved": {"s": "tok", "done": {page_id: [qid]}}}
    assert parse(good, "tok") == {page_id: {qid}}
    assert parse(good, "another session") is None  # counted for another server session
    assert parse({"saved": {"s": "tok", "done": {page_id: ["no-such-question"], "no-such-page": [qid]}}}, "tok") is None
    assert parse({"saved": {"s": "tok", "done": {page_id: [qid, 3, None]}}}, "tok") == {page_id: {qid}}
    assert parse({"saved": {"s": "tok", "done": {page_id: [qid] * 1000}}}, "tok") is None  # over the count
    assert parse({"saved": {"s": "tok", "done": [page_id]}}, "tok") is None
    assert parse("nonsense", "tok") is None and parse(None, "tok") is None


def test_a_right_number_within_the_tolerance_is_confirmed_with_the_exact_value():
    from ui.check.questions import NUMBER, Answer, Question, judge

    question = Question("q", NUMBER, lambda live: Answer(0.9929))
    verdict = judge(question, Answer(0.9929), "0.99", tolerance=0.005)
    assert verdict.correct and verdict.fields["given"] == "0.9929"  # not "0.9900", as if that were the value
    wrong = judge(question, Answer(0.9929), "0.9", tolerance=0.005)
    assert not wrong.correct and wrong.fields["given"] == "0.9000"  # a wrong answer is said as given


def test_a_question_loses_its_mark_while_its_latest_check_on_these_inputs_is_wrong():
    """m4: a ✓ beside "Not yet" read as a contradiction; the page's progress (answered right once) stays."""
    at = open_page("one-query")
    enter(at, "one-query", "score", "0.9544")
    check(at, "one-query", "score")
    assert any(m.value.startswith("**1.** ✓") for m in at.markdown)
    enter(at, "one-query", "score", "0.5")  # now a wrong answer, checked on the same inputs
    check(at, "one-query", "score")
    assert not any(m.value.startswith("**1.** ✓") for m in at.markdown)
    assert any(m.value.startswith("**1.** ") for m in at.markdown)
    assert entry(at, "one-query", "score")["done"]  # answered right once: the page's progress keeps it
    enter(at, "one-query", "score", "0.9544")
    check(at, "one-query", "score")
    assert any(m.value.startswith("**1.** ✓") for m in at.markdown)
