"""A run reads the session's language once (ui/state.py ``begin_run``): later reads in that run take its copy,
setting it keeps the copy true, the next full run reads it again, and code outside a run reads it every time."""

from __future__ import annotations

import threading

import streamlit as st

from ui import state
from ui.check import panel
from ui.check import state as check_state
from ui.state import Key


def in_a_thread(work) -> None:
    """``work`` in a thread of its own, as Streamlit runs a script; its exception is raised here."""
    failed = []
    thread = threading.Thread(target=lambda: _catch(work, failed))
    thread.start()
    thread.join(10)
    if failed:
        raise failed[0]


def _catch(work, failed) -> None:
    try:
        work()
    except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
        failed.append(exc)


def test_a_run_reads_the_language_once_and_the_next_run_reads_it_again():
    def run() -> None:
        st.session_state[Key.LANG] = "id"
        state.begin_run()
        assert state.language() == "id"
        st.session_state[Key.LANG] = "vi"  # not through set_language: this run keeps what it read
        assert state.language() == "id"
        state.set_language("ko")
        assert state.language() == "ko"
        st.session_state[Key.LANG] = "vi"
        state.begin_run()  # the next full run
        assert state.language() == "vi"

    in_a_thread(run)


def test_outside_a_run_the_language_is_read_every_time():
    def plain() -> None:
        st.session_state[Key.LANG] = "id"
        assert state.language() == "id"
        st.session_state[Key.LANG] = "ko"
        assert state.language() == "ko"
        st.session_state[Key.LANG] = "xx"  # never trusted as it is
        assert state.language() == "en"

    in_a_thread(plain)
    st.session_state.pop(Key.LANG, None)


def test_the_completed_pages_are_read_at_once_and_agree_with_each_page():
    st.session_state[Key.CHECKS] = {}
    some = next(page for page, questions in panel.QUESTIONS.items() if questions)
    for question in panel.QUESTIONS[some]:
        check_state.record_check(some, question.id, "x", "sig", correct=True)
    assert panel.completed_pages() == {some} and panel.page_complete(some)
    assert all(panel.page_complete(p) == (p in panel.completed_pages()) for p in panel.QUESTIONS)
    check_state.record_check(some, "another", "x", "sig", correct=False)
    assert panel.completed_pages() == {some}
    st.session_state.pop(Key.CHECKS, None)
