"""Check yourself in the session: the learner's typed answers, what was checked, and progress.

Kept under Key.CHECKS, apart from the page controls: answers never go into a link.
Only this module touches these keys (ui/keys.py lists them).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import streamlit as st

from ..state import Key

__all__ = ["answer_input", "answer_key", "check_entry", "done_by_page", "done_questions", "live", "mark_done",
           "progress_token", "record_check", "saved_progress", "take_saved_progress", "reveal_answer", "set_live"]


def _check_store(page_id: str, question_id: str) -> dict[str, Any]:
    return st.session_state.setdefault(Key.CHECKS, {}).setdefault(page_id, {}).setdefault(question_id, {})


def answer_key(page_id: str, question_id: str, part: str = "") -> str:
    """The widget key of a question's answer input (``part`` for questions with several inputs)."""
    return f"{Key.CHECK_WIDGET_PREFIX}{page_id}:{question_id}" + (f":{part}" if part else "")


def answer_input(page_id: str, question_id: str, widget: Callable[..., Any], label: str, *, part: str = "",
                 valid: Callable[[Any], bool] | None = None, **kwargs: Any) -> Any:
    """Draw an answer widget whose value survives page switches (re-seeded from the session, like a control).

    ``valid`` drops a kept value the widget can no longer show (a token choice after the matrix shrank).
    """
    typed = _check_store(page_id, question_id).setdefault("typed", {})
    key = answer_key(page_id, question_id, part)
    stored = typed.get(part)
    if stored is not None and valid is not None and not valid(stored):
        typed.pop(part, None)
        stored = None
    if stored is None:
        st.session_state.pop(key, None)
    elif key not in st.session_state or st.session_state[key] != stored:
        st.session_state[key] = stored

    def _save() -> None:
        typed[part] = st.session_state.get(key)

    return widget(label, key=key, on_change=_save, **kwargs)


def check_entry(page_id: str, question_id: str) -> dict[str, Any]:
    """A question's record: ``given`` (the last answer checked), ``signature`` (what the answer depended on
    then), ``correct`` (whether that check was right), ``done`` (answered correctly at least once), ``shown`` (the
    learner asked to see the answer), ``presses`` (how many times Check was pressed: each verdict is said once)."""
    return dict(_check_store(page_id, question_id))


def record_check(page_id: str, question_id: str, given: Any, signature: str, correct: bool) -> None:
    """on_click of Check: keep the answer checked and under which inputs; once correct, the question is done."""
    entry = _check_store(page_id, question_id)
    entry.update(given=given, signature=signature, checked=True, shown=False, correct=bool(correct),
                 presses=entry.get("presses", 0) + 1)
    entry["done"] = bool(entry.get("done")) or bool(correct)


def mark_done(page_id: str, question_id: str) -> None:
    """A question answered correctly in an earlier session of this browser (ui/check/progress.py)."""
    _check_store(page_id, question_id)["done"] = True


def progress_token() -> str:
    """This session's token for the progress the browser keeps (ui/check/progress.py)."""
    return st.session_state.setdefault(Key.PROGRESS_TOKEN, secrets.token_hex(8))


def saved_progress() -> object:
    """What the browser sent of its kept progress (the component's state), unchecked."""
    return st.session_state.get(Key.PROGRESS)


def take_saved_progress() -> bool:
    """True once per session: the browser's kept progress is applied once."""
    if st.session_state.get(Key.PROGRESS_TAKEN):
        return False
    st.session_state[Key.PROGRESS_TAKEN] = True
    return True


def reveal_answer(page_id: str, question_id: str) -> None:
    _check_store(page_id, question_id)["shown"] = True


def done_questions(page_id: str) -> set[str]:
    """The page's questions answered correctly at least once in this session."""
    return done_by_page().get(page_id, set())


def done_by_page() -> dict[str, set[str]]:
    """Every page's questions answered correctly at least once in this session, in one read of the session's
    state (the navigation's ✓ asks about all 15 pages in every run)."""
    return {page_id: {qid for qid, entry in page.items() if entry.get("done")}
            for page_id, page in st.session_state.get(Key.CHECKS, {}).items()}


def set_live(page_id: str, live: Any) -> None:
    """What the page on screen computed in this run (a questions.Live): a class poll is judged on it."""
    st.session_state[Key.LIVE] = (page_id, live)


def live(page_id: str) -> Any:
    """The Live the page ``page_id`` last computed in this session, or None."""
    found = st.session_state.get(Key.LIVE)
    return found[1] if found is not None and found[0] == page_id else None
