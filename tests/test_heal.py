"""The watchdog's asks for a full run, kept as state (ui/lecture/watchdog.py, ui/lecture/heal.js): a value the
browser sends with every request, checked like anything a client sends, and taken once per ask."""

from __future__ import annotations

import pytest
import streamlit as st

from ui.lecture import state as walk_state
from ui.lecture import watchdog
from ui.state import Key


def _sent(n, s="tok"):
    return {"heal": {"n": n, "s": s}}


def test_a_well_formed_count_is_read():
    assert watchdog.parse(_sent(3), "tok") == 3


@pytest.mark.parametrize("value", [None, "heal", 7, {}, {"heal": None}, {"heal": [1, "tok"]}, _sent(0), _sent(-2),
                                   _sent(True), _sent(1.0), _sent("1"), _sent(2**31), {"press": {"n": 1, "s": "tok"}}])
def test_a_malformed_count_is_refused(value):
    assert watchdog.parse(value, "tok") is None


def test_asks_counted_for_another_session_are_not_taken():
    """A browser reconnected to a restarted server (or another replica) sends its old count again: not this
    session's asks."""
    assert watchdog.parse(_sent(5, "old"), "tok") is None


@pytest.fixture
def session(monkeypatch):
    """A session's state as a plain dict (this module's functions read and write only through ``st.session_state``)."""
    state = {}
    monkeypatch.setattr(st, "session_state", type("State", (dict,), {"setdefault": dict.setdefault})(state))
    return st.session_state


def test_each_ask_is_taken_once_whichever_run_sees_it(session):
    token = walk_state.window_token()
    assert not watchdog.asked()  # nothing sent yet
    session[Key.HEAL] = _sent(1, token)
    assert watchdog.asked()  # the beat that sees it reruns the app
    assert not watchdog.asked()  # the run it starts (or a later beat) takes nothing more
    session[Key.HEAL] = _sent(3, token)  # two more asks, merged into one value
    assert watchdog.asked() and not watchdog.asked()
    session[Key.HEAL] = _sent(2, token)  # an older value arriving late
    assert not watchdog.asked()
