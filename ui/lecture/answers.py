"""A class poll on a student's device: the question under their line, answered in their own language.

While they follow, the question is open under the line and the step is held back until the reveal (its
charts would give the answer away); while they explore, it is folded. A phone scrolled down the page is
brought back to the box once when the question opens, and once when it is revealed (never its focus).
Sending reruns only the answer box. After the reveal a following student sees their own answer judged as
Check yourself judges it (ui/check/panel.py ``feedback``), against the answer their page computed from the
lecture's deck, with a known mistake explained. What a student sent, and what was said about it, is this
feature's own state in the session.
"""

from __future__ import annotations

import streamlit as st

from .. import state
from ..check.answers import Unparsed
from ..check.panel import feedback
from ..check.questions import NUMBER, SHAPE, Answer
from ..check.tally import canonical
from ..state import Key
from ..words.content import app_text, page_text
from ..words.i18n import decimal_comma
from . import state as walk_state
from . import window
from .deck import Poll
from .poll import RADIO_UP_TO, asked, live_answer, option_names, prompt, question_of
from .records import Student
from .rooms import MAX_ANSWER, RoomError, RoomsUnavailable

__all__ = ["holds_step", "step_held", "student_panel"]

# A phone scrolled down to the chart: the question's box is brought into view once when it opens and once when it
# is revealed (the mark's data-poll changes), below the student's sticky line (ui/shell/class.css); focus stays.
_IN_VIEW_SCRIPT = """
setTimeout(() => {
  const mark = document.querySelector('.poll-in-view');
  const box = document.querySelector('.st-key-poll-student');
  if (!mark || !box || window.attentionPollInView === mark.dataset.poll) return;
  window.attentionPollInView = mark.dataset.poll;
  const bar = document.querySelector('.st-key-class-bar');
  const top = bar ? bar.getBoundingClientRect().bottom : 0, at = box.getBoundingClientRect();
  if (at.top < top || at.bottom > window.innerHeight) box.scrollIntoView({block: 'start'});
}, 150);
"""


def student_panel() -> None:
    """A student's question box, under their line: open while they follow, folded while they explore."""
    member = window.current()
    poll = asked()
    if not isinstance(member, Student) or poll is None:
        return
    if member.following:
        with st.container(key=Key.POLL_STUDENT, border=True):
            st.markdown(f"**:material/how_to_vote: {app_text('poll_asks')}**")
            _answer_form()
            st.html(f'<span hidden class="poll-in-view poll-drawn" data-poll="{poll.mark}"></span>'
                    f"<script>{_IN_VIEW_SCRIPT}</script>", unsafe_allow_javascript=True)
    else:
        with st.expander(app_text("poll_asks_exploring"), icon=":material/how_to_vote:"):
            _answer_form()


def holds_step() -> bool:
    """Whether a student's device holds the step back: they follow, and a question is open on it (the step's
    charts and printed tensors, and its note, show the answer). It comes back with the reveal."""
    member = window.current()
    poll = asked()
    return isinstance(member, Student) and member.following and poll is not None and not poll.revealed


def step_held() -> None:
    """In place of the step on a student's device while the question is open."""
    st.info(app_text("poll_step_held"), icon=":material/hourglass_top:")


@st.fragment
def _answer_form() -> None:
    """The prompt, the input and Send: a fragment, so that sending an answer reruns this box, not the page
    (sixty answers at once cost the server sixty small runs, not sixty pages)."""
    poll = asked()
    if poll is None:
        return
    st.markdown(prompt(poll))
    note = walk_state.poll_said("note")
    if note is not None and note[0] == poll.number:  # kept in the session: a heartbeat may rerun the app first
        getattr(st, note[1])(note[2])
    if poll.revealed:
        _verdict(poll)
        st.caption(app_text("poll_revealed"))
        return
    question = question_of(poll)
    key = f"{Key.POLL_ANSWER_PREFIX}{poll.number}"
    label = app_text("your_answer")
    if question.kind in (NUMBER, SHAPE):  # typed
        st.text_input(label, key=key, label_visibility="collapsed", max_chars=200,
                      placeholder=app_text(f"placeholder_{question.kind}"))
    else:
        names = option_names(poll, question)
        many = len(poll.options) > RADIO_UP_TO
        extra = {"placeholder": app_text("choose")} if many else {"horizontal": True}
        (st.selectbox if many else st.radio)(label, list(poll.options), index=None, key=key,
                                             format_func=lambda o: names.get(o, o), label_visibility="collapsed",
                                             **extra)
    st.button(app_text("poll_send"), key=Key.POLL_SEND, on_click=_send, args=(poll, key), icon=":material/send:")
    sent = walk_state.poll_said("sent")
    if sent is not None and sent[0] == poll.number:
        st.caption(app_text("poll_sent", answer=sent[1]))


def _send(poll: Poll, key: str) -> None:
    """on_click of Send: read the answer as Check yourself does, in the student's language, and send it."""
    walk_state.set_poll_said("note", None)
    text = canonical(question_of(poll), state.value(key), poll.options, decimal_comma=decimal_comma(state.language()))
    if isinstance(text, Unparsed):
        _note(poll, "warning", app_text(f"answer_{text.reason}", **text.fields))
    elif len(text) > MAX_ANSWER:  # a shape of very many axes: no question here has one
        _note(poll, "warning", app_text("answer_too_long", limit=MAX_ANSWER))
    else:
        _deliver(poll, key, text)


def _deliver(poll: Poll, key: str, text: str) -> None:
    member = window.current()
    try:
        taken = window.rooms().answer(member.room, member.student, poll.number, text)
    except RoomsUnavailable:
        _note(poll, "warning", app_text("poll_store_down"))
        return
    except RoomError:  # the room is gone (the lecture ended): the poll with it
        taken = False
    if not taken:
        _note(poll, "info", app_text("poll_closed"))
        return
    shown = option_names(poll, question_of(poll)).get(text, text) if poll.options else str(state.value(key)).strip()
    walk_state.set_poll_said("sent", (poll.number, shown, text))


def _verdict(poll: Poll) -> None:
    """After the reveal, on a following student's device: what they sent, judged as Check yourself judges it."""
    member = window.current()
    sent = walk_state.poll_said("sent")
    if not isinstance(member, Student) or not member.following or sent is None or sent[0] != poll.number:
        return
    question = question_of(poll)
    answer = live_answer(poll.page, question)  # the page on their screen ran on the lecture's deck
    said = feedback(question, page_text(poll.page).questions[poll.question], answer, sent[2], plain=True) \
        if isinstance(answer, Answer) else None
    if said is None or isinstance(said, Unparsed):
        return
    verdict, message, shown = said
    with st.container(key=Key.POLL_VERDICT):
        if verdict.correct:
            st.success(message, icon=":material/check_circle:")
        else:
            st.warning(message)
            st.markdown(app_text("check_the_answer", answer=shown))


def _note(poll: Poll, kind: str, message: str) -> None:
    """What is said about a student's last send, kept beside their question until they send again."""
    walk_state.set_poll_said("note", (poll.number, kind, message))
