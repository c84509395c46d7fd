"""The shared input matrix panel, drawn by app.py around every page."""

from __future__ import annotations

import streamlit as st

from . import state
from .content import app_text
from .matrix import PRESETS, InputError, InputMatrix, book_matrix, from_csv_text, near_duplicate_matrix, random_matrix
from .settings import Limits, limits
from .state import Key
from .style import COLUMN_PX, TOKEN_PX

__all__ = ["input_panel"]


def input_panel() -> None:
    """The sidebar: the matrix editor, its width, presets, and sharing."""
    lim = limits()
    matrix = state.get_matrix()
    with st.sidebar:
        _lecture_toggle()
        st.subheader("Input embeddings")
        st.caption(
            f"{matrix.num_tokens} tokens × {matrix.dim} dimensions, shared by every page. "
            "Edit a cell, rename a token, add or delete rows."
        )
        message = state.take_flash("matrix")
        if message:
            getattr(st, message[0])(message[1])
        _matrix_editor(matrix, lim)
        state.set_value(Key.MATRIX_WIDTH, matrix.dim)
        st.number_input(
            "Embedding width", min_value=1, max_value=lim.max_dim, key=Key.MATRIX_WIDTH, on_change=_change_width,
            help="New dimensions start at 0; removing dimensions drops the last columns.",
        )
        _presets(lim)
        _share_and_files(matrix, lim)
        st.caption(
            f"{'Hosted limits' if lim.hosted else 'Limits'}: {lim.max_tokens} tokens, {lim.max_dim} dims, "
            f"{lim.max_heads} heads, batch {lim.max_batch} (settings: ATTENTION_MAX_TOKENS, …)."
        )


def _lecture_toggle() -> None:
    state.set_value(Key.LECTURE_TOGGLE, state.lecture_mode())
    st.toggle(app_text("lecture_mode"), key=Key.LECTURE_TOGGLE, help=app_text("lecture_mode_help"),
              on_change=lambda: state.set_lecture_mode(bool(state.value(Key.LECTURE_TOGGLE))))


def _matrix_editor(matrix: InputMatrix, lim: Limits) -> None:
    if matrix.num_tokens * (matrix.dim + 1) > lim.max_editable_cells:
        st.info(
            f"{matrix.num_tokens}×{matrix.dim} is too large to edit cell by cell "
            f"(limit {lim.max_editable_cells} cells). Use a preset, or upload a CSV."
        )
        return
    key, base = state.editor_key(), state.editor_base()
    # Text cells (see InputMatrix.editor_frame): every digit the matrix holds, never rounded, and
    # anything typed or pasted reaches the validation, which names the cell at fault.
    number = {f"d{j + 1}": st.column_config.TextColumn(f"d{j + 1}", width=COLUMN_PX) for j in range(base.dim)}
    st.data_editor(
        base.editor_frame(), key=key, num_rows="dynamic", hide_index=True, width="stretch",
        on_change=state.apply_editor_change, args=(key,),
        column_config={"token": st.column_config.TextColumn("token", max_chars=40, required=True, width=TOKEN_PX),
                       **number},
    )


def _presets(lim: Limits) -> None:
    with st.expander("Presets and reset"):
        st.selectbox("Preset", list(PRESETS), format_func=PRESETS.get, key=Key.PRESET)
        if state.value(Key.PRESET) == "random":
            st.number_input("Tokens", 1, lim.max_tokens, 6, key=Key.RAND_TOKENS)
            st.number_input("Dimensions", 1, lim.max_dim, 3, key=Key.RAND_DIM)
            st.number_input("Random seed", 0, 2**31 - 1, 0, key=Key.RAND_SEED)
        c1, c2 = st.columns(2)
        c1.button("Load preset", on_click=_apply_preset, width="stretch")
        c2.button("Reset", on_click=_reset, width="stretch", key="reset_matrix")


def _share_and_files(matrix: InputMatrix, lim: Limits) -> None:
    with st.expander("Share, download, upload"):
        st.caption(
            "The address bar always holds a link to exactly this view: page, matrix and controls. "
            "Copy it to share what you see."
        )
        if state.share_note():
            st.caption(state.share_note())
        st.download_button(
            "Download matrix (CSV)", data=lambda: matrix.frame().to_csv(index=False), file_name="inputs.csv",
            mime="text/csv", on_click="ignore", width="stretch", key="download_matrix",
        )
        st.file_uploader(
            f"Upload a matrix (CSV, header “token,d1,d2,…”, up to {lim.max_upload_bytes // 1000} kB)",
            type=["csv"], key=state.upload_key(), on_change=_upload,
        )


# ----- callbacks ----------------------------------------------------------------------------


def _apply_preset() -> None:
    choice = state.value(Key.PRESET, "book")
    try:
        if choice == "book":
            state.set_matrix(book_matrix())
        elif choice == "near_duplicate":
            state.set_matrix(near_duplicate_matrix())
        else:
            state.set_matrix(_random_preset(limits()))
    except InputError as exc:
        state.flash("error", str(exc))
        return
    state.flash("success", f"Loaded: {PRESETS[choice]}.")


def _random_preset(lim: Limits) -> InputMatrix:
    n, d = int(state.value(Key.RAND_TOKENS, 6)), int(state.value(Key.RAND_DIM, 3))
    if not (1 <= n <= lim.max_tokens and 1 <= d <= lim.max_dim):
        raise InputError(f"random matrices are limited to {lim.max_tokens} tokens × {lim.max_dim} dims.")
    return random_matrix(n, d, int(state.value(Key.RAND_SEED, 0)))


def _change_width() -> None:
    width = int(state.value(Key.MATRIX_WIDTH))
    lim = limits()
    if not 1 <= width <= lim.max_dim:
        state.flash("error", f"The embedding width must be between 1 and {lim.max_dim}.")
        return
    state.set_matrix(state.get_matrix().with_dim(width))


def _reset() -> None:
    state.set_matrix(book_matrix())
    state.set_value(Key.PRESET, "book")
    state.flash("success", "Reset to the chapter's six tokens.")


def _upload() -> None:
    file = state.value(state.upload_key())
    if file is None:
        return
    lim = limits()
    if file.size > lim.max_upload_bytes:
        state.flash("error", f"The file is {file.size:,} bytes; the limit is {lim.max_upload_bytes:,}.")
        return
    try:
        text = file.getvalue().decode("utf-8-sig")
    except UnicodeDecodeError:
        state.flash("error", "The file is not UTF-8 text; save it as a CSV file and try again.")
        return
    try:
        matrix = from_csv_text(text, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        state.flash("error", f"The upload was not used: {exc}")
        return
    state.set_matrix(matrix)
    state.flash("success", f"Loaded {matrix.num_tokens} tokens × {matrix.dim} dimensions from {file.name}.")
