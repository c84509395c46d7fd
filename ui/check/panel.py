"""Check yourself: the panel at the end of every section page, and the ✓ in the navigation.

A page calls ``page.check_yourself(result, **settings)`` once, after its main content. For
each of the page's questions (:mod:`ui.check.questions`) the panel computes the answer from the
live result, draws the prompt, an input and a **Check** button, and the feedback.

Progress and stale answers. The learner's answers live in the session only
(:func:`ui.check_state.record_check`), never in ``controls()``, so a shared link carries none. A
question is *done* once it was answered correctly at least once; a page whose questions are
all done gets a ✓ in the navigation, and keeps it. The feedback, though, is worked out again
on every run: the checked answer is judged against the answer computed now, and if what the
answer depends on changed since the learner pressed Check (the matrix, a control), the panel
says so and asks for a new check instead of showing an old "Correct".
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from .. import announce, draw, state
from ..words.content import PageText, QuestionText, app_text
from ..words.i18n import decimal_comma, in_convention
from . import state as check_state
from .answers import Unparsed
from .questions import (
    CHOICE,
    MAPPING,
    NUMBER,
    PREDICT,
    QUESTIONS,
    ROLES,
    SHAPE,
    TASK,
    Answer,
    Live,
    Question,
    Unavailable,
    Verdict,
    answer_for,
    completed,
    judge,
    shown_answer,
    signature,
)

__all__ = ["check_yourself", "completed_pages", "feedback", "nav_title", "page_complete"]

RADIO_UP_TO = 8  # more choices than this: a select box instead of a row of radio buttons


def page_complete(page_id: str) -> bool:
    """Every question of the page answered correctly at least once in this session."""
    return completed(page_id, frozenset(check_state.done_questions(page_id)))


def completed_pages() -> frozenset[str]:
    """The pages whose questions were all answered correctly at least once in this session (one read)."""
    done = check_state.done_by_page()
    return frozenset(page_id for page_id in QUESTIONS if completed(page_id, done.get(page_id, set())))


def nav_title(page_id: str, title: str, complete: frozenset[str] | None = None) -> str:
    """The page's title in the navigation: with a ✓ once its checks are done (``complete``: the pages that are)."""
    done = page_id in complete if complete is not None else page_complete(page_id)
    return app_text("nav_done", title=title) if done else title


def check_yourself(page_id: str, words: PageText, live: Live) -> None:
    """The page's Check yourself panel (nothing for a page without questions; a walkthrough step has none)."""
    questions = QUESTIONS.get(page_id, ())
    if not questions:
        return
    # Folded until the learner opens it (then it stays open while they work on the page): a closed
    # panel costs nothing when a control changes, and its widgets are a third of a page's elements.
    # Open from the start where a prediction hides part of the page's result until it is made.
    predicts = any(q.kind == PREDICT for q in questions)
    with draw.folded(app_text("check_yourself_fold", n=len(questions)), f"check:{page_id}",
                     expanded=predicts, heading=True) as shown:
        if not shown:
            return
        st.caption(app_text("check_yourself_intro", n=len(questions), done=len(check_state.done_questions(page_id))))
        for number, question in enumerate(questions, 1):
            try:
                _question(page_id, number, question, words.questions[question.id], live)
            except Exception:  # one broken question must not take the page (or its other questions) down
                logging.getLogger("attention_app").exception("question %s of %s failed", question.id, page_id)
                st.error(app_text("question_failed", n=number))


def _question(page_id: str, number: int, question: Question, words: QuestionText, live: Live) -> None:
    answer = answer_for(question, live)  # from the live result, on every run
    entry = check_state.check_entry(page_id, question.id)
    sig = None if isinstance(answer, Unavailable) else signature(answer)
    # ✓ once answered right, unless the learner's latest check, on these very inputs, was wrong: a ✓ beside
    # "Not yet: 3 is too large" read as a contradiction
    wrong_now = entry.get("checked") and entry.get("signature") == sig and entry.get("correct") is False
    done = question.id in check_state.done_questions(page_id) and not wrong_now
    mark = app_text("question_number_done", n=number) if done else app_text("question_number", n=number)
    if isinstance(answer, Unavailable):
        st.markdown(f"{mark} {words(f'unavailable_{answer.reason}')}")
        return
    st.markdown(f"{mark} {words('prompt', **answer.fields)}")
    keys = _input(page_id, question, words, answer, number)
    if question.kind == NUMBER:
        st.caption(app_text("check_tolerance_exact") if not words.tolerance
                   else app_text("check_tolerance", tolerance=f"{words.tolerance:g}"))
    # each question's field and button named by its number: tabbing through them says which question it is
    st.button(app_text("check_n", n=number), key=check_state.answer_key(page_id, question.id, "check"),
              on_click=_on_check,
              args=(page_id, question, words, answer, sig, keys))
    if question.kind == PREDICT and entry.get("checked"):
        left, right = draw.side_by_side(f"reveal-{question.id}", [2, 3])
        with left:
            _feedback(page_id, question, words, answer, entry, sig)
        with right:  # the hidden result, drawn only once a guess was committed
            trace, step = answer.reveal
            draw.show_matrix(trace, step, live.labels, live.labels,
                             title=words("reveal_title", **answer.fields))
    elif question.kind == PREDICT:
        st.caption(app_text("predict_hidden"))
    else:
        _feedback(page_id, question, words, answer, entry, sig)


def feedback(question: Question, words: QuestionText, answer: Answer, given: Any, *,
             plain: bool = False) -> tuple[Verdict, str, str] | Unparsed:
    """What Check yourself says of ``given`` against the live ``answer``, in the learner's language: the verdict,
    its words (a known mistake explained) and the right answer as shown; Unparsed if ``given`` cannot be read.
    ``plain``: ``given`` is in the one plain form a class poll sends (ui/check/tally.py), not as typed."""
    comma = decimal_comma(state.language())  # 0,9544 in Indonesian and Vietnamese
    verdict = judge(question, answer, given, words.tolerance, _option_words(question, words),
                    decimal_comma=comma and not plain)
    if isinstance(verdict, Unparsed):
        return verdict
    shown = in_convention(shown_answer(question, answer, _option_words(question, words)), comma)
    fields = {name: in_convention(value, comma) for name, value in {**answer.fields, **verdict.fields}.items()}
    fields["answer"] = shown
    key = f"feedback_{verdict.feedback}"
    message = words(key, **fields) if words.has(key) else app_text(f"check_{verdict.feedback}", **fields)
    return verdict, message, shown


def _option_words(question: Question, words: QuestionText) -> dict[str, str]:
    return {o: words(f"option_{o}") for o in question.options}


def _input(page_id: str, question: Question, words: QuestionText, answer: Answer, number: int) -> dict[str, str]:
    """Draw the question's input(s), named by the question's number; returns their widget keys by part."""
    label = app_text("answer_to", n=number)
    if question.kind in (NUMBER, SHAPE):
        check_state.answer_input(page_id, question.id, st.text_input, label, label_visibility="collapsed",
                           placeholder=app_text(f"placeholder_{question.kind}"))
        if question.kind == NUMBER:  # a phone's number keyboard (a shape's brackets need the full one)
            state.decimal_fields().add(check_state.answer_key(page_id, question.id))
        return {"": check_state.answer_key(page_id, question.id)}
    if question.kind in (CHOICE, PREDICT):
        names = {**answer.labels, **_option_words(question, words)}
        options = list(answer.options)
        many = len(options) > RADIO_UP_TO
        widget = st.selectbox if many else st.radio
        extra = {"placeholder": app_text("choose")} if many else {"horizontal": True}
        check_state.answer_input(page_id, question.id, widget, label, options=options, index=None,
                           format_func=lambda o: names.get(o, o), valid=lambda v: v in options,
                           label_visibility="collapsed", **extra)
        return {"": check_state.answer_key(page_id, question.id)}
    if question.kind == MAPPING:
        ways = list(question.options)
        for role, column in zip(ROLES, st.columns(len(ROLES)), strict=True):
            with column:
                check_state.answer_input(page_id, question.id, st.selectbox, f"`{role}`", part=role, options=ways,
                                   index=None, format_func=lambda w: words(f"option_{w}"),
                                   placeholder=app_text("choose"), valid=lambda v: v in ways)
        return {role: check_state.answer_key(page_id, question.id, role) for role in ROLES}
    return {}  # TASK: the page's own controls are the answer


def _given(question: Question, keys: dict[str, str]) -> Any:
    """What the learner entered, read from the widgets when Check is pressed."""
    if question.kind == TASK:
        return None
    if question.kind == MAPPING:
        return {part: state.value(key) for part, key in keys.items()}
    return state.value(keys[""])


def _on_check(page_id: str, question: Question, words: QuestionText, answer: Answer, sig: str,
              keys: dict[str, str]) -> None:
    """on_click of Check: judge the answer against the one the learner saw, and keep the outcome."""
    given = _given(question, keys)
    verdict = judge(question, answer, given, words.tolerance, _option_words(question, words),
                    decimal_comma=decimal_comma(state.language()))
    check_state.record_check(page_id, question.id, given, sig, isinstance(verdict, Verdict) and verdict.correct)


def _feedback(page_id: str, question: Question, words: QuestionText, answer: Answer, entry: dict[str, Any],
              sig: str) -> None:
    """The feedback on the last check, judged again against the answer computed now."""
    if not entry.get("checked"):
        return
    if entry.get("signature") != sig:
        st.info(app_text("check_stale"), icon=":material/update:")
        return
    said = feedback(question, words, answer, entry.get("given"))
    # said once per press of Check: the same verdict shown again (the inputs changed and came back) is not said again
    kind = f"check:{question.id}#{entry.get('presses', 1)}"
    if isinstance(said, Unparsed):
        announce.note(kind, app_text(f"answer_{said.reason}", **said.fields))
        st.warning(app_text(f"answer_{said.reason}", **said.fields))
        return
    verdict, message, shown = said
    announce.note(kind, message)
    if verdict.correct:
        st.success(message, icon=":material/check_circle:")
        return
    st.warning(message)
    if entry.get("shown"):
        st.info(app_text("check_the_answer", answer=shown))
    else:
        st.button(app_text("show_answer"), key=check_state.answer_key(page_id, question.id, "show"),
                  on_click=check_state.reveal_answer, args=(page_id, question.id))
