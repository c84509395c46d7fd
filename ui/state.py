"""Session state: the one shared input matrix and each page's controls.

Streamlit forgets a widget's value when its page is not shown. The
canonical values therefore live in ``st.session_state`` under our own keys
(``matrix`` and ``controls``), and widgets are re-seeded from them on every
run, so nothing resets when the learner switches pages. Each page has its own
controls (3.4 starts from seed 123, 3.5 from seed 789, as in the book).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from .matrix import InputError, InputMatrix, book_matrix, from_frame, from_rows
from .settings import limits

__all__ = [
    "get_matrix",
    "set_matrix",
    "control",
    "page_controls",
    "current_page",
    "set_current_page",
    "editor_key",
    "apply_editor_change",
    "adopt_matrix",
    "flash",
    "take_flash",
    "fits",
]

MATRIX = "matrix"
CONTROLS = "controls"
EDITOR_VERSION = "editor_version"
PAGE = "current_page"


def get_matrix() -> InputMatrix:
    if MATRIX not in st.session_state:
        st.session_state[MATRIX] = book_matrix()
    return st.session_state[MATRIX]


def set_matrix(matrix: InputMatrix) -> None:
    st.session_state[MATRIX] = matrix
    # A new key makes the data editor start again from the new matrix.
    st.session_state[EDITOR_VERSION] = st.session_state.get(EDITOR_VERSION, 0) + 1


def editor_key() -> str:
    return f"matrix_editor_{st.session_state.get(EDITOR_VERSION, 0)}"


def flash(kind: str, message: str, where: str = "matrix") -> None:
    """Queue a message to show at a place on the next run (callbacks cannot draw)."""
    st.session_state.setdefault("_flash", {})[where] = (kind, message)


def take_flash(where: str) -> tuple[str, str] | None:
    return st.session_state.get("_flash", {}).pop(where, None)


def apply_editor_change(key: str) -> None:
    """on_change of the data editor: apply the edit if valid, else explain and keep the old matrix."""
    edits = st.session_state.get(key, {})
    df = get_matrix().frame()
    try:
        for row, changes in edits.get("edited_rows", {}).items():
            for col, value in changes.items():
                if col not in df.columns:
                    continue
                df[col] = df[col].astype(object)
                df.at[int(row), col] = value
        deleted = sorted(int(i) for i in edits.get("deleted_rows", []))
        if deleted:
            df = df.drop(index=deleted).reset_index(drop=True)
        for added in edits.get("added_rows", []):
            new = {c: added.get(c, 0.0 if c != "token" else None) for c in df.columns}
            if new["token"] in (None, ""):
                new["token"] = f"t{len(df) + 1}"
            df = df.astype(object)
            df.loc[len(df)] = [new[c] for c in df.columns]
        lim = limits()
        matrix = from_frame(df, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        flash("error", f"That edit was not applied: {exc} The matrix keeps its last valid values.")
        set_matrix(get_matrix())  # reset the editor to the last good matrix
        return
    set_matrix(matrix)


def adopt_matrix(tokens: list[str], rows: list[list[float]], source: str) -> None:
    """on_click: make rows computed on one page (e.g. text embeddings) the shared input matrix."""
    lim = limits()
    try:
        matrix = from_rows(tokens, [[round(float(v), 4) for v in row] for row in rows],
                           max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        flash("error", f"{source} could not become the input: {exc}")
        return
    set_matrix(matrix)
    flash("success", f"Now the input of every page: {source} ({matrix.num_tokens} tokens × {matrix.dim} dimensions).")


def current_page() -> str | None:
    return st.session_state.get(PAGE)


def set_current_page(page_id: str) -> None:
    st.session_state[PAGE] = page_id


def page_controls(page_id: str) -> dict[str, Any]:
    return st.session_state.setdefault(CONTROLS, {}).setdefault(page_id, {})


def fits(value: Any, default: Any, kwargs: dict[str, Any]) -> bool:
    """Would the widget accept ``value``? (Stored and linked values may be stale or hostile.)"""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int | float) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if isinstance(default, int) and "options" not in kwargs and not isinstance(value, int):
            return False
        low, high = kwargs.get("min_value"), kwargs.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            return False
    if isinstance(default, str) and not isinstance(value, str):
        return False
    if isinstance(value, str) and "max_chars" in kwargs and len(value) > kwargs["max_chars"]:
        return False
    if "options" in kwargs and value not in list(kwargs["options"]):
        return False
    return True


def control(
    page_id: str,
    name: str,
    default: Any,
    widget: Callable[..., Any],
    label: str,
    *,
    valid: Callable[[Any], bool] | None = None,
    **kwargs: Any,
) -> Any:
    """Draw one widget whose value survives page switches.

    ``widget`` is a Streamlit widget function (``st.slider``...). The value
    is stored per page; ``valid`` rejects a stored value that no longer fits
    (e.g. a head count after d_out changed), falling back to ``default``.
    """
    store = page_controls(page_id)
    value = store.get(name, default)
    if (valid is not None and not valid(value)) or not fits(value, default, kwargs):
        value = default
    key = f"w:{page_id}:{name}"
    if st.session_state.get(key, value) != value or key not in st.session_state:
        st.session_state[key] = value

    def _save() -> None:
        store[name] = st.session_state[key]

    result = widget(label, key=key, on_change=_save, **kwargs)
    store[name] = result
    return result
