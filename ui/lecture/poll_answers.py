"""A class poll's answers as the lecturer's windows show them: their spread beside the right answer and the known
mistakes, each with how many made it (ui/lecture/poll.py counts them). Said to a screen reader once, as revealed."""

from __future__ import annotations

import streamlit as st

from .. import announce
from ..check.tally import Tally
from ..draw import show_chart
from ..draw.charts import answers_chart
from ..words.content import QuestionText, app_text, page_text
from .deck import Poll

__all__ = ["draw"]


def draw(poll: Poll, counted: Tally, *, lecture: bool) -> None:
    """The answers' spread beside the right answer and the known mistakes (side by side on the projection, so
    that all of it fits a 1280x720 screen; one under the other on the console)."""
    chart, words = st.columns([3, 2], gap="large") if lecture else (st.container(), st.container())
    if counted.total:
        with chart:
            show_chart(answers_chart(counted.bars, other_label=app_text("poll_other"), answer_title=app_text(
                "poll_axis_answer"), count_title=app_text("poll_axis_count"), legend_title=app_text("poll_legend"),
                kind_words=_kind_words(), lecture=lecture), width="stretch")
    with words:
        right = app_text("poll_right", answer=counted.answer)
        share = app_text("poll_right_count", n=counted.right, total=counted.total)
        if poll.revealed:  # the console sees the spread as it comes in: what is said is the reveal
            announce.note("poll", app_text("say_poll_revealed", right=right, share=share))
        st.markdown(f"#### {right}\n\n{share}" if lecture else f"{right} · {share}")
        if counted.mistakes:
            lines = [app_text("poll_mistake", n=n, answer=shown,
                              explanation=_explanation(poll, mistake, shown, counted))
                     for mistake, n, shown in counted.mistakes]
            st.markdown(f"**{app_text('poll_mistakes')}**\n\n" + "\n".join(f"- {line}" for line in lines))


def _explanation(poll: Poll, mistake: str, shown: str, counted: Tally) -> str:
    """What a known mistake was: the words Check yourself gives a learner who made it, without its opening
    "Not yet:" (said to one learner, not to a class)."""
    text = _words(poll)(f"feedback_{mistake}", **{**dict(poll.fields), "given": shown, "answer": counted.answer})
    opening = app_text("poll_feedback_opening").strip()
    return text[len(opening):].lstrip() if opening and text.startswith(opening) else text


def _kind_words() -> dict[str, str]:
    return {"right": app_text("poll_kind_right"), "mistake": app_text("poll_kind_mistake"),
            "other": app_text("poll_kind_other")}


def _words(poll: Poll) -> QuestionText:
    return page_text(poll.page).questions[poll.question]
