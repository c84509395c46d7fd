"""Check yourself's progress survives a reload: the browser keeps which questions were answered (``progress.js``).

A reload starts a new server session, and budget Android phones reload background tabs often: a learner who had
answered 15 questions saw every ✓ go. Answers never go into a link (a
shared link is someone else's page), so the browser keeps them: a small component writes the questions done to
``localStorage`` and, in a new session, sends back those the session lacks, once. What a browser sends is checked
like anything a client sends: only pages and questions the app has, within their counts, for this session's token.
What comes back is the ✓, not the typed answers: the inputs may have changed since.
"""

from __future__ import annotations

from pathlib import Path

from ..draw import script_component
from ..state import Key
from . import state as check_state
from .questions import QUESTIONS

__all__ = ["mount", "parse", "restore"]


def _ignore() -> None:
    """The saved progress is taken before the page is drawn (:func:`restore`), not in a callback."""


def mount() -> None:
    """The component that keeps this session's progress in the browser (drawn by app.py, out of sight)."""
    done = {page: sorted(qids) for page, qids in check_state.done_by_page().items() if qids}
    component = script_component("attention_progress", Path(__file__).with_name("progress.js"))
    component(key=Key.PROGRESS, data={"done": done, "s": check_state.progress_token()}, on_saved_change=_ignore,
              height=0)


def restore() -> None:
    """Mark done what the browser kept from an earlier session of this learner (before the navigation's ✓)."""
    saved = parse(check_state.saved_progress(), check_state.progress_token())
    if not saved or not check_state.take_saved_progress():
        return
    for page_id, qids in saved.items():
        for qid in qids:
            check_state.mark_done(page_id, qid)


def parse(value: object, token: str) -> dict[str, set[str]] | None:
    """The browser's saved progress, or None: only known pages and questions count, for this session's token."""
    saved = value.get("saved") if hasattr(value, "get") else None
    if not isinstance(saved, dict) or saved.get("s") != token or not isinstance(saved.get("done"), dict):
        return None
    done = saved["done"]
    if len(done) > len(QUESTIONS) * 2:
        return None
    found: dict[str, set[str]] = {}
    for page_id, qids in done.items():
        known = {q.id for q in QUESTIONS.get(page_id, ())} if isinstance(page_id, str) else set()
        if not known or not isinstance(qids, list) or len(qids) > len(known) * 2:
            continue
        found[page_id] = {q for q in qids if isinstance(q, str) and q in known}
    return {page: qids for page, qids in found.items() if qids} or None
