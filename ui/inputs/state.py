"""The shared input matrix in the session: the matrix every page reads, and the data editor's base.

Only this module touches the matrix's session keys (ui/keys.py lists them).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..settings import limits
from ..state import Key, flash, language
from ..words.content import app_text
from ..words.i18n import explain
from .matrix import InputError, InputMatrix, book_matrix, clean_value, from_frame, from_rows

__all__ = ["adopt_matrix", "apply_editor_change", "editor_base", "editor_key", "get_matrix", "set_matrix", "upload_key"]


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
    return f"{Key.MATRIX_EDITOR_PREFIX}{st.session_state.get(Key.EDITOR_VERSION, 0)}"


def upload_key() -> str:
    return f"{Key.UPLOAD_PREFIX}{st.session_state.get(Key.EDITOR_VERSION, 0)}"


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
        cells = _cells_changed_now(edits)
        error = explain(exc, language())
        flash("error", app_text("edit_refused_many", error=error, cells=cells) if cells > 1
              else app_text("edit_refused", error=error))
        set_matrix(get_matrix())  # start the editor again from the last good matrix
        return
    set_matrix(matrix, remount=False)


def _cells_changed_now(edits: dict[str, Any]) -> int:
    """The cells this change asked for: the editor's state holds every edit since it was mounted, and those it
    took before (a 9999 kept in the matrix) are not part of what was just refused."""
    now = get_matrix().editor_frame()
    changed = 0
    for row, changes in edits.get("edited_rows", {}).items():
        for col, new in changes.items():
            r = int(row)
            held = now.at[r, col] if r < len(now) and col in now.columns else None
            changed += held is None or not _same(held, new)
    return changed


def _same(held: object, new: object) -> bool:
    try:
        return clean_value(new, 1, "d1") == clean_value(held, 1, "d1")
    except InputError:
        return str(new).strip() == str(held).strip()


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
