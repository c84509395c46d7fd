"""The walkthrough's clicker as state (ui/steps/clicker.py): what a browser sends is checked, and each press
moves once, however often its value arrives and however the values of quick presses are merged."""

from __future__ import annotations

import pytest

from ui.steps.clicker import MAX_STEPS, Press, advance, parse

TOKEN = "this-session"


def _sent(seq, net, n=33, s=TOKEN):
    return {"press": {"seq": seq, "net": net, "n": n, "s": s}}


def test_a_well_formed_value_is_read():
    assert parse(_sent(3, 1), TOKEN) == Press(3, 1, 33)
    assert parse({"press": None}, TOKEN) is None and parse(None, TOKEN) is None  # no press yet


def test_presses_counted_for_another_session_are_not_taken():
    """A browser reconnected to a restarted server sends its last value again: the new session did not count it."""
    assert parse(_sent(3, 1, s="the-session-before"), TOKEN) is None
    assert parse(_sent(3, 1, s=None), TOKEN) is None


@pytest.mark.parametrize("value", [
    "press", {"press": "3"}, {"press": {"seq": 1, "net": 1}},  # not a press, or a part missing
    _sent(True, 1), _sent(1, True), _sent(1.0, 1), _sent("1", 1), _sent(1, 1, n=3.5),  # not whole numbers
    _sent(0, 0), _sent(-1, 0), _sent(2**40, 1),  # no press counted, or absurd counts
    _sent(2, 3), _sent(2, -3),  # a sum no two presses make
    _sent(1, 1, n=0), _sent(1, 1, n=MAX_STEPS + 1),  # an impossible walkthrough
])
def test_a_malformed_value_is_refused(value):
    assert parse(value, TOKEN) is None


def test_each_press_moves_once_however_often_its_value_arrives():
    taken, at = advance(Press(1, 1, 33), (0, 0), 4)
    assert (taken, at) == ((1, 1), 5)
    assert advance(Press(1, 1, 33), taken, at) == ((1, 1), 5)  # the same value with the next beat: no move
    assert advance(None, taken, at) == ((1, 1), 5)


def test_quick_presses_merged_into_one_value_all_count():
    # Forward, forward, forward, back: only the last value reached the server
    assert advance(Press(4, 2, 33), (0, 0), 10) == ((4, 2), 12)


def test_a_press_counts_from_where_the_lecture_is_and_stays_in_the_walkthrough():
    # Another window moved the lecture to step 20 meanwhile: the press goes on from there
    assert advance(Press(2, 2, 33), (1, 1), 20) == ((2, 2), 21)
    assert advance(Press(9, 9, 33), (0, 0), 30) == ((9, 9), 32)  # the last step, not beyond it
    assert advance(Press(5, -5, 33), (0, 0), 2) == ((5, -5), 0)  # the first
    # back after presses the end swallowed: one step back from the last
    assert advance(Press(10, 8, 33), (9, 9), 32) == ((10, 8), 31)
