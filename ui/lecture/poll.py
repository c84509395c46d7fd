"""Class polls: a Check yourself question put to the room, answered on the students' devices, counted on
the presenter console, revealed on the projection.

- **Asking** (the console, :func:`console_panel`): any question of the step's page that has one answer to give (a
  number, a choice, a shape). The deck then carries a :class:`~ui.lecture.deck.Poll`; the room numbers it.
- **Answering** (a student's light page, ui/follow/answer.py): the prompt in the student's language, read as
  Check yourself reads it; what is kept is the answer in one plain form (ui/check/tally.py ``canonical``).
- **Watching and revealing**: the console counts the answers as they come in; the projection shows
  the question and a count only (:func:`projection_panel`, in place of the step), until the lecturer
  reveals: then the spread, the right answer and each known mistake with how many made it.

Every count is made by the lecturer's windows, against the answer worked out from the page's live result in this
very run (ui/check/state.py ``live``): a matrix or a control changed while the poll is open changes the right answer,
and the count follows. What the poll does is said to a screen reader in those windows too (:func:`say_asked`).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import streamlit as st

from .. import announce, state
from ..check import state as check_state
from ..check.questions import QUESTIONS, Answer, Question, Unavailable
from ..check.tally import POLL_KINDS, Tally, tally
from ..state import Key
from ..words.content import QuestionText, app_text, page_text
from ..words.plain import plain_text
from . import lesson, poll_answers, window
from . import state as walk_state
from .deck import Poll, Right
from .records import Lecturer, SetPoll
from .rooms import MAX_POLLS, RoomError, RoomsUnavailable

__all__ = ["RADIO_UP_TO", "asked", "console_panel", "live_answer", "option_names", "pollable", "projection_panel",
           "prompt", "question_of", "say_asked"]

RADIO_UP_TO = 8  # as Check yourself: more choices than this get a select box
_log = logging.getLogger("attention_app")


def pollable(page_id: str) -> tuple[Question, ...]:
    """The page's questions a class can answer on its devices (tasks and mappings are done on the page)."""
    return tuple(q for q in QUESTIONS.get(page_id, ()) if q.kind in POLL_KINDS)


def asked() -> Poll | None:
    """The question a lecturer's window put to the class on the step it shows, if any (a student answers on the
    light page)."""
    member = window.current()
    if not isinstance(member, Lecturer) or member.poll is None:
        return None
    return member.poll if member.poll.position == walk_state.walk_position() else None


def say_asked() -> None:
    """What a lecturer's window says of the class's question, once (ui/announce): asked, or closed. The reveal is
    said with its counts (ui/lecture/poll_answers.py)."""
    member = window.current()
    if isinstance(member, Lecturer) and (member.poll is None or not member.poll.revealed and asked() is not None):
        announce.note("poll", app_text("say_poll_closed") if member.poll is None
                      else app_text("say_poll_open", prompt=prompt(member.poll)))


def _words(poll: Poll, lang: str | None = None) -> QuestionText:
    return page_text(poll.page, lang).questions[poll.question]


def question_of(poll: Poll) -> Question:
    return {q.id: q for q in pollable(poll.page)}[poll.question]


def prompt(poll: Poll) -> str:
    return _words(poll)("prompt", **dict(poll.fields))


def option_names(poll: Poll, question: Question) -> dict[str, str]:
    words = _words(poll)
    return {**dict(poll.labels), **{o: words(f"option_{o}") for o in question.options}}


# ----- the console: ask, watch, reveal, close ----------------------------------------------------------


def console_panel(page_id: str, index: int) -> None:
    """The console's poll box, drawn after the step's page ran (its live result judges the answers)."""
    with st.container(key=Key.POLL_CONSOLE, border=True):
        st.markdown(f"**:material/how_to_vote: {app_text('poll_heading')}**")
        if flashed := state.take_flash("poll"):
            getattr(st, flashed[0])(flashed[1])
        poll = asked()
        if poll is None:
            return _ask(page_id, index)
        st.markdown(prompt(poll))
        with st.container(horizontal=True, gap="small"):
            if not poll.revealed:
                st.button(app_text("poll_reveal"), key=Key.POLL_REVEAL, on_click=_reveal, type="primary",
                          icon=":material/visibility:", help=app_text("poll_reveal_help"))
            st.button(app_text("poll_close"), key=Key.POLL_CLOSE, on_click=_close, icon=":material/close:",
                      help=app_text("poll_close_help"))
            st.button(app_text("poll_delete"), key=Key.POLL_DELETE, on_click=_close, args=(True,),
                      icon=":material/delete:", type="tertiary")
        _watch(poll)


def _ask(page_id: str, index: int) -> None:
    questions = pollable(page_id)
    if not questions:
        st.caption(app_text("poll_none"))
        return
    words = page_text(page_id).questions
    prompts = {q.id: words[q.id]("prompt", **_fields_now(page_id, q)) for q in questions}
    # A select box shows its options as they are: each prompt's plain text; the one chosen, in full, under it.
    names = {q: f"{n}. {plain_text(text)}" for n, (q, text) in enumerate(prompts.items(), 1)}
    chosen = st.selectbox(app_text("poll_question"), list(names), format_func=names.get, key=Key.POLL_QUESTION)
    if chosen in prompts:
        st.markdown(prompts[chosen])
    st.button(app_text("poll_ask"), key=Key.POLL_ASK, on_click=_open, args=(page_id, chosen, index),
              icon=":material/how_to_vote:", type="primary", help=app_text("poll_ask_help"))


def live_answer(page_id: str, question: Question) -> Answer | Unavailable | None:
    """The question's answer under the page's live result of this run; None if the page computed none."""
    live = check_state.live(page_id)
    if live is None:
        return None
    try:
        return question.answer(live)
    except Exception:  # one broken question must not take the console down
        _log.exception("question %s of %s failed", question.id, page_id)
        return None


def _fields_now(page_id: str, question: Question) -> dict:
    answer = live_answer(page_id, question)
    return dict(answer.fields) if isinstance(answer, Answer) else {}


def _open(page_id: str, question_id: str, index: int) -> None:
    """on_click of Ask: a new poll in the room, and in the deck (the class hears of it on its next poll)."""
    member = window.current()
    question = {q.id: q for q in pollable(page_id)}.get(question_id)
    answer = live_answer(page_id, question) if question is not None and isinstance(member, Lecturer) else None
    if not isinstance(answer, Answer):
        state.flash("warning", _cannot_count(answer), where="poll")
        return
    try:
        number = window.rooms().open_poll(member.room, member.secret)
    except RoomsUnavailable:
        state.flash("warning", app_text("poll_store_down"), where="poll")
        return
    except RoomError:  # the room's cap on polls (or the room is gone)
        state.flash("warning", app_text("poll_too_many", limit=MAX_POLLS), where="poll")
        return
    window.dispatch(SetPoll(Poll(number, index, page_id, question_id, False, _plain_fields(answer),
                                 tuple(answer.options), tuple((k, str(v)) for k, v in answer.labels.items()))))


def _cannot_count(answer: Unavailable | None) -> str:
    return app_text("poll_unavailable") if answer is not None else app_text("poll_no_live")


def _plain_fields(answer: Answer) -> tuple:
    """The prompt's values as a deck carries them: numbers stay numbers, anything else becomes its text."""
    return tuple((k, v if isinstance(v, int | float) and not isinstance(v, bool) else str(v))
                 for k, v in answer.fields.items())


def _reveal() -> None:
    member = window.current()
    if not isinstance(member, Lecturer) or member.poll is None:
        return
    _stop(member)
    counted = _tally(member.poll)  # the answers the room stopped taking: the counts the class is shown
    if isinstance(counted, Tally):
        lesson.keep_polled(member, member.poll, prompt(member.poll), counted)
    right = Right.of(question_of(member.poll), live_answer(member.poll.page, question_of(member.poll)))
    window.dispatch(SetPoll(replace(member.poll, revealed=True, right=right)))  # light pages judge with it


def _close(delete: bool = False) -> None:
    member = window.current()
    if not isinstance(member, Lecturer) or member.poll is None:
        return
    _stop(member, delete)
    window.dispatch(SetPoll(None))


def _stop(member: Lecturer, delete: bool = False) -> None:
    try:
        window.rooms().stop_poll(member.room, member.secret, clear=delete)
    except RoomError as exc:  # the deck still says revealed or closed: students' answers are refused by it
        _log.warning("a poll could not be stopped: %s", exc)


def _count(poll: Poll) -> Tally | None:
    """The answers so far, judged on this run's live result; None when they cannot be (said on screen)."""
    counted = _tally(poll)
    if not isinstance(counted, Tally):
        st.caption(counted)
        return None
    return counted


def _tally(poll: Poll) -> Tally | str:
    """The answers so far, judged on the live result of this window's last run; or why they cannot be."""
    member = window.current()
    question = question_of(poll)
    answer = live_answer(poll.page, question)
    if not isinstance(answer, Answer):
        return _cannot_count(answer)
    try:
        given = window.rooms().answers(member.room, poll.number)
    except RoomsUnavailable:
        return app_text("poll_store_down")
    walk_state.draw_activity("answers", len(given))  # its listener reruns the window when more come in
    return tally(question, answer, given.values(), _words(poll).tolerance, option_names(poll, question))


def _watch(poll: Poll) -> None:
    """The console: how many answered, and their spread with the right answer marked, as they come in (each new
    answer reruns the window: ui/lecture/listen.js)."""
    counted = _count(poll)
    if counted is None:
        return
    st.markdown(app_text("poll_answered", n=counted.total, of=window.attendance()))
    poll_answers.draw(poll, counted, lecture=False)


# ----- the projection -----------------------------------------------------------------------------------


def projection_panel() -> None:
    """On the projection, in place of the step: the question and a count; once revealed, the answers."""
    poll = asked()
    if poll is None:
        return
    with st.container(key=Key.POLL_STAGE):
        st.markdown(f"### :material/how_to_vote: {prompt(poll)}")
        if poll.revealed:
            counted = _count(poll)
            if counted is not None:
                poll_answers.draw(poll, counted, lecture=True)
        else:
            _projected_count(poll)


def _projected_count(poll: Poll) -> None:
    """Only how many answered: nothing of the answers shows before the reveal."""
    member = window.current()
    try:
        n = len(window.rooms().answers(member.room, poll.number))
    except RoomsUnavailable:
        return
    walk_state.draw_activity("answers", n)
    st.markdown(f"### {app_text('poll_answers', n=n)}")
