"""A lecturer's window's timed fragments ask for one more full run only when they may have cut a full run's clean-up:
a fragment's own run, started within SETTLE_SECONDS of a full run that changed what the window shows, once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ui.lecture import settle


@pytest.fixture
def run(monkeypatch):
    """The session's state, and whether the run now is a fragment's own (``run.fragment = True``)."""
    session: dict = {}
    now = SimpleNamespace(fragment=False, clock=100.0)
    monkeypatch.setattr(settle.st, "session_state", session)
    monkeypatch.setattr(settle, "get_script_run_ctx",
                        lambda: SimpleNamespace(fragment_ids_this_run=["beat"] if now.fragment else []))
    monkeypatch.setattr(settle.time, "monotonic", lambda: now.clock)
    return now


def test_a_fragment_just_after_a_full_run_that_changed_the_page_reruns_the_app_once(run):
    settle.drew((18, None, ""))
    settle.drew((18, 2, ""))  # a spotlight came on
    run.fragment, run.clock = True, run.clock + 0.1
    assert settle._unsettled()
    assert not settle._unsettled()  # once: the rerun it asks for is the clean-up


def test_nothing_is_asked_when_the_page_did_not_change_a_full_run_is_on_or_the_fragment_came_late(run):
    settle.drew((18, None, ""))
    settle.drew((18, None, ""))  # the same step drawn again: no element of another page can be left
    run.fragment, run.clock = True, run.clock + 0.1
    assert not settle._unsettled()

    run.fragment = False
    settle.drew((19, None, ""))
    assert not settle._unsettled()  # a full run's own call of the fragment: it cleans up by itself

    run.fragment, run.clock = True, run.clock + settle.SETTLE_SECONDS + 0.1
    assert not settle._unsettled()  # the full run's clean-up was done before this run started
    run.clock += 0.01
    assert not settle._unsettled()


def test_a_window_that_drew_no_lecture_page_is_never_asked(run):
    run.fragment = True
    assert not settle._unsettled()


def test_the_timed_fragment_reruns_the_app_before_its_own_body(run, monkeypatch):
    calls: list[str] = []

    class Rerun(Exception):
        pass

    def rerun(scope: str) -> None:
        calls.append(f"rerun {scope}")
        raise Rerun

    monkeypatch.setattr(settle.st, "rerun", rerun)
    monkeypatch.setattr(settle.st, "fragment", lambda run_every: (lambda func: func))
    body = settle.timed(2.0)(lambda: calls.append("body"))
    settle.drew((1, None, ""))
    settle.drew((2, None, ""))
    run.fragment, run.clock = True, run.clock + 0.05
    with pytest.raises(Rerun):
        body()
    body()
    assert calls == ["rerun app", "body"]
