"""Session state: the one home of every key the app keeps in ``st.session_state``.

Streamlit forgets a widget's value when its page is not shown. The canonical
values therefore live under the app's own keys (the matrix, and each page's
controls), and widgets are re-seeded from them on every run, so nothing resets
when the learner switches pages. No other module reads or writes
``st.session_state``: they call the functions here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from .content import app_text, follow_language
from .i18n import DEFAULT_LANG, LANGUAGES, explain
from .matrix import InputError, InputMatrix, book_matrix, from_frame, from_rows
from .settings import limits

__all__ = [
    "Key",
    "language",
    "set_language",
    "language_chosen",
    "adopt_matrix",
    "apply_editor_change",
    "control",
    "controls",
    "current_page",
    "editor_base",
    "editor_key",
    "first_run_of_session",
    "fits",
    "flash",
    "get_matrix",
    "last_good",
    "page_controls",
    "remember_good",
    "replace_controls",
    "set_current_page",
    "set_matrix",
    "set_share_note",
    "share_note",
    "take_flash",
    "upload_key",
    "lecture_mode",
    "walk_active",
    "set_walk_active",
    "walk_rejected",
    "walk_drawn",
    "first_run_of_walkthrough",
    "custom_walkthrough",
    "set_custom_walkthrough",
    "walk_position",
    "set_walk_position",
    "arrive_at_walk_step",
    "set_lecture_mode",
    "step_mode",
    "set_step_mode",
    "current_step",
    "set_current_step",
    "set_pending_step",
    "take_pending_step",
    "value",
    "set_value",
    "answer_input",
    "answer_key",
    "check_entry",
    "done_questions",
    "record_check",
    "reveal_answer",
]


class Key:
    """Every session-state key of the app (widget keys included)."""

    MATRIX = "matrix"
    CONTROLS = "controls"
    EDITOR_VERSION = "editor_version"
    EDITOR_BASE = "editor_base"
    PAGE = "current_page"
    FLASH = "_flash"
    SHARE_NOTE = "_share_note"
    LINK_LOADED = "_link_loaded"
    LAST_GOOD = "_last_good"
    LANG = "_lang"  # the language the app speaks (ui/i18n.py LANGUAGES)
    LANG_SELECT = "lang_select"  # the sidebar's language selector
    LECTURE = "lecture"  # lecture mode on or off (its sidebar toggle is LECTURE_TOGGLE)
    STEP_MODE = "_step_mode"  # page id -> bool: step through instead of the whole page
    STEP = "_step"  # page id -> the name of the step on screen
    PENDING_STEP = "_pending_step"  # a shared link's ?step=, for the first page that steps through
    # sidebar widgets
    PRESET = "preset"
    RAND_TOKENS = "rand_tokens"
    RAND_DIM = "rand_dim"
    RAND_SEED = "rand_seed"
    MATRIX_WIDTH = "matrix_width"
    LECTURE_TOGGLE = "lecture_toggle"
    # the chapter walkthrough
    WALK = "_walk"  # the active walkthrough step (while its page runs inside /walkthrough), else absent
    WALK_CONTROLS = "_walk_controls"  # page id -> the walkthrough's own control values
    WALK_POSITION = "_walk_position"  # index of the walkthrough's current step
    WALK_ARRIVED = "_walk_arrived"  # the step whose controls were last applied
    WALK_REJECTED = "_walk_rejected"  # control values the page refused during this run
    WALK_DRAWN = "_walk_drawn"  # the controls the page drew during this run
    WALK_FILE = "_walk_file"  # an uploaded walkthrough's text
    WALK_OPENED = "_walk_opened"  # the walkthrough page has read its ?walk= once
    # Check yourself: page id -> question id -> the learner's answer and progress (ui/check.py).
    # Never part of controls(), so a shared link carries no answers.
    CHECKS = "_checks"
    CHECK_WIDGET_PREFIX = "check:"  # answer widgets: check:<page>:<question>[:<part>]
    # Folded sections (ui/draw.py folded): fold:<what>, open or closed; their contents are drawn only while open.
    FOLD_PREFIX = "fold:"


def fold_key(what: str) -> str:
    """The widget key of a folded section (an expander that draws its contents only while open)."""
    return f"{Key.FOLD_PREFIX}{what}"


def value(key: str, default: Any = None) -> Any:
    """A widget's current value (sidebar widgets keyed with :class:`Key`)."""
    return st.session_state.get(key, default)


def set_value(key: str, new: Any) -> None:
    st.session_state[key] = new


def mirrored(widget: Callable[..., Any], label: str, key: str, current: Any, on_set: Callable[[Any], None],
             **kwargs: Any) -> Any:
    """A widget that shows a value kept elsewhere in the session and hands the learner's change back.

    The value's home is not the widget (the language, lecture mode, the matrix's width, a page's
    step mode): the widget is set from it on every run, and ``on_set(new)`` runs when it changes.
    """
    set_value(key, current)
    return widget(label, key=key, on_change=lambda: on_set(value(key)), **kwargs)


# ----- the shared input matrix ------------------------------------------------------------


def get_matrix() -> InputMatrix:
    if Key.MATRIX not in st.session_state:
        st.session_state[Key.MATRIX] = book_matrix()
    return st.session_state[Key.MATRIX]


def set_matrix(matrix: InputMatrix, *, remount: bool = True) -> None:
    """Make ``matrix`` the input of every page.

    ``remount`` starts the data editor (and the uploader) again from the new matrix, under a
    new key. An edit made in the editor itself does not remount it: the editor keeps its
    selection, so a learner can type a value, press Enter and go on to the next cell.
    """
    st.session_state[Key.MATRIX] = matrix
    if remount:
        st.session_state[Key.EDITOR_BASE] = matrix
        st.session_state[Key.EDITOR_VERSION] = st.session_state.get(Key.EDITOR_VERSION, 0) + 1


def editor_base() -> InputMatrix:
    """The matrix the mounted data editor started from; its edits are relative to this one."""
    if Key.EDITOR_BASE not in st.session_state:
        st.session_state[Key.EDITOR_BASE] = get_matrix()
    return st.session_state[Key.EDITOR_BASE]


def editor_key() -> str:
    return f"matrix_editor_{st.session_state.get(Key.EDITOR_VERSION, 0)}"


def upload_key() -> str:
    return f"upload_{st.session_state.get(Key.EDITOR_VERSION, 0)}"


def apply_editor_change(key: str) -> None:
    """on_change of the data editor: apply the edit if valid, else explain and keep the old matrix.

    The editor's state holds every edit since it was mounted, so the new matrix is its base
    with all of them. A paste of several cells arrives as one change: it is taken or refused
    as a whole.
    """
    edits = st.session_state.get(key, {})
    lim = limits()
    try:
        df = _edited_frame(editor_base(), edits)
        matrix = from_frame(df, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        cells = sum(len(row) for row in edits.get("edited_rows", {}).values())
        error = explain(exc, language())
        flash("error", app_text("edit_refused_many", error=error, cells=cells) if cells > 1
              else app_text("edit_refused", error=error))
        set_matrix(get_matrix())  # start the editor again from the last good matrix
        return
    set_matrix(matrix, remount=False)


def _edited_frame(matrix: InputMatrix, edits: dict[str, Any]):
    """The editor's table with its edited, deleted and added rows applied."""
    df = matrix.editor_frame()
    for row, changes in edits.get("edited_rows", {}).items():
        for col, new in changes.items():
            if col in df.columns:
                df.at[int(row), col] = new
    deleted = sorted(int(i) for i in edits.get("deleted_rows", []))
    if deleted:
        df = df.drop(index=deleted).reset_index(drop=True)
    for added in edits.get("added_rows", []):
        new_row = {c: added.get(c, "0" if c != "token" else None) for c in df.columns}
        if new_row["token"] in (None, ""):
            new_row["token"] = f"t{len(df) + 1}"
        df.loc[len(df)] = [new_row[c] for c in df.columns]
    return df


def adopt_matrix(tokens: list[str], rows: list[list[float]], source: str) -> None:
    """on_click: make rows computed on one page (e.g. text embeddings) the shared input matrix."""
    lim = limits()
    try:
        matrix = from_rows(tokens, [[round(float(v), 4) for v in row] for row in rows],
                           max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        flash("error", app_text("adopt_refused", source=source, error=explain(exc, language())))
        return
    set_matrix(matrix)
    flash("success", app_text("adopted", source=source, n=matrix.num_tokens, d=matrix.dim))


# ----- the language -------------------------------------------------------------------------


def language() -> str:
    """The session's language: what ``app_text`` and ``page_text`` speak when not told otherwise."""
    lang = st.session_state.get(Key.LANG, DEFAULT_LANG)
    return lang if lang in LANGUAGES else DEFAULT_LANG


def set_language(lang: str) -> None:
    st.session_state[Key.LANG] = lang if lang in LANGUAGES else DEFAULT_LANG


def language_chosen() -> bool:
    """Whether this session has settled its language (on its first run)."""
    return Key.LANG in st.session_state


follow_language(language)


# ----- messages queued by callbacks (which cannot draw) ------------------------------------


def flash(kind: str, message: str, where: str = "matrix") -> None:
    """Queue a message to show at a place on the next run."""
    st.session_state.setdefault(Key.FLASH, {})[where] = (kind, message)


def take_flash(where: str) -> tuple[str, str] | None:
    return st.session_state.get(Key.FLASH, {}).pop(where, None)


# ----- pages and their controls ------------------------------------------------------------


def current_page() -> str | None:
    return st.session_state.get(Key.PAGE)


def set_current_page(page_id: str) -> None:
    st.session_state[Key.PAGE] = page_id


def controls() -> dict[str, dict[str, Any]]:
    """Every page's control values (what a shared link carries)."""
    return st.session_state.setdefault(Key.CONTROLS, {})


def replace_controls(new: dict[str, dict[str, Any]]) -> None:
    st.session_state[Key.CONTROLS] = new


def page_controls(page_id: str) -> dict[str, Any]:
    """A page's control values: the walkthrough's own while it drives the page."""
    if walk_active():
        return st.session_state.setdefault(Key.WALK_CONTROLS, {}).setdefault(page_id, {})
    return controls().setdefault(page_id, {})


def fits(new: Any, default: Any, kwargs: dict[str, Any]) -> bool:
    """Would the widget accept ``new``? (Stored and linked values may be stale or hostile.)"""
    if isinstance(default, bool):
        return isinstance(new, bool)
    if isinstance(default, int | float):
        if isinstance(new, bool) or not isinstance(new, int | float):
            return False
        if isinstance(default, int) and "options" not in kwargs and not isinstance(new, int):
            return False
        low, high = kwargs.get("min_value"), kwargs.get("max_value")
        if (low is not None and new < low) or (high is not None and new > high):
            return False
    if isinstance(default, str) and not isinstance(new, str):
        return False
    if isinstance(new, str) and "max_chars" in kwargs and len(new) > kwargs["max_chars"]:
        return False
    return "options" not in kwargs or new in list(kwargs["options"])


def control(
    page_id: str, name: str, default: Any, widget: Callable[..., Any], label: str, *,
    valid: Callable[[Any], bool] | None = None, **kwargs: Any,
) -> Any:
    """Draw one widget whose value survives page switches.

    ``widget`` is a Streamlit widget function (``st.slider``...). The value is
    stored per page; ``valid`` rejects a stored value that no longer fits (e.g. a
    head count after d_out changed), falling back to ``default``.
    """
    store = page_controls(page_id)
    stored = store.get(name, default)
    if (valid is not None and not valid(stored)) or not fits(stored, default, kwargs):
        if walk_active() and name in store:
            st.session_state.setdefault(Key.WALK_REJECTED, []).append((name, stored))
        stored = default
    if walk_active():
        st.session_state.setdefault(Key.WALK_DRAWN, set()).add(name)
    key = f"{'walk' if walk_active() else 'w'}:{page_id}:{name}"
    if key not in st.session_state or st.session_state[key] != stored:
        st.session_state[key] = stored

    def _save() -> None:
        store[name] = st.session_state[key]

    result = widget(label, key=key, on_change=_save, **kwargs)
    store[name] = result
    return result


# ----- the last result that could be computed, per page -------------------------------------


def last_good(page_id: str, slot: int) -> Callable[[], Any] | None:
    return st.session_state.get(Key.LAST_GOOD, {}).get((page_id, slot))


def remember_good(page_id: str, slot: int, compute: Callable[[], Any]) -> None:
    st.session_state.setdefault(Key.LAST_GOOD, {})[(page_id, slot)] = compute


# ----- lecture mode and step-through ---------------------------------------------------------


def lecture_mode() -> bool:
    return bool(st.session_state.get(Key.LECTURE, False))


def set_lecture_mode(on: bool) -> None:
    st.session_state[Key.LECTURE] = bool(on)


def step_mode(page_id: str) -> bool:
    """Whether the page steps through its computation (the default in lecture mode; always in a walkthrough)."""
    return walk_active() is not None or bool(st.session_state.get(Key.STEP_MODE, {}).get(page_id, lecture_mode()))


def set_step_mode(page_id: str, on: bool) -> None:
    st.session_state.setdefault(Key.STEP_MODE, {})[page_id] = bool(on)


def current_step(page_id: str) -> str | None:
    return st.session_state.get(Key.STEP, {}).get(page_id)


# ----- the chapter walkthrough -----------------------------------------------------------------


def walk_active() -> Any:
    """The walkthrough step whose page is running now, or None."""
    return st.session_state.get(Key.WALK)


def set_walk_active(step: Any) -> None:
    if step is None:
        st.session_state.pop(Key.WALK, None)
    else:
        st.session_state[Key.WALK] = step
        st.session_state[Key.WALK_REJECTED] = []
        st.session_state[Key.WALK_DRAWN] = set()


def walk_rejected() -> list[tuple[str, Any]]:
    """The walkthrough's control values that the page refused in this run (name, value)."""
    return list(st.session_state.get(Key.WALK_REJECTED, []))


def walk_drawn() -> set[str]:
    """The controls the page drew in this run, while a walkthrough drove it."""
    return set(st.session_state.get(Key.WALK_DRAWN, set()))


def walk_position() -> int:
    return int(st.session_state.get(Key.WALK_POSITION, 0))


def set_walk_position(index: int) -> None:
    st.session_state[Key.WALK_POSITION] = index


def first_run_of_walkthrough() -> bool:
    """True the first time the walkthrough page runs in a session (it then reads ?walk=)."""
    if st.session_state.get(Key.WALK_OPENED):
        return False
    st.session_state[Key.WALK_OPENED] = True
    return True


def custom_walkthrough() -> str | None:
    return st.session_state.get(Key.WALK_FILE)


def set_custom_walkthrough(text: str | None) -> None:
    st.session_state[Key.WALK_FILE] = text


def arrive_at_walk_step(index: int, page_id: str, values: dict[str, Any]) -> None:
    """Apply a walkthrough step's controls once, on arrival; later changes by the lecturer stay."""
    if st.session_state.get(Key.WALK_ARRIVED) == index:
        return
    st.session_state[Key.WALK_ARRIVED] = index
    st.session_state.setdefault(Key.WALK_CONTROLS, {}).setdefault(page_id, {}).update(values)


def set_current_step(page_id: str, name: str) -> None:
    st.session_state.setdefault(Key.STEP, {})[page_id] = name


def set_pending_step(name: str) -> None:
    st.session_state[Key.PENDING_STEP] = name


def take_pending_step(page_id: str) -> None:
    """A shared link's step becomes the step of the first page that steps through."""
    name = st.session_state.pop(Key.PENDING_STEP, None)
    if name is not None and current_step(page_id) is None:
        set_current_step(page_id, name)


# ----- the shareable link -------------------------------------------------------------------


def first_run_of_session() -> bool:
    """True once per session: the run that should adopt a shared link's state."""
    if st.session_state.get(Key.LINK_LOADED):
        return False
    st.session_state[Key.LINK_LOADED] = True
    return True


def share_note() -> str:
    return st.session_state.get(Key.SHARE_NOTE, "")


def set_share_note(note: str) -> None:
    st.session_state[Key.SHARE_NOTE] = note


# ----- Check yourself: the learner's answers and progress ------------------------------------
# Kept in the session only, under Key.CHECKS, apart from controls(): answers never go into a link.


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
    then), ``done`` (answered correctly at least once), ``shown`` (the learner asked to see the answer)."""
    return dict(_check_store(page_id, question_id))


def record_check(page_id: str, question_id: str, given: Any, signature: str, correct: bool) -> None:
    """on_click of Check: keep the answer checked and under which inputs; once correct, the question is done."""
    entry = _check_store(page_id, question_id)
    entry.update(given=given, signature=signature, checked=True, shown=False)
    entry["done"] = bool(entry.get("done")) or bool(correct)


def reveal_answer(page_id: str, question_id: str) -> None:
    _check_store(page_id, question_id)["shown"] = True


def done_questions(page_id: str) -> set[str]:
    """The page's questions answered correctly at least once in this session."""
    page = st.session_state.get(Key.CHECKS, {}).get(page_id, {})
    return {qid for qid, entry in page.items() if entry.get("done")}
