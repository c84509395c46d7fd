"""The shared input matrix panel, drawn by app.py around every page."""

from __future__ import annotations

import streamlit as st

from .matrix import (
    PRESETS,
    InputError,
    book_matrix,
    from_csv_text,
    near_duplicate_matrix,
    random_matrix,
)
from .settings import limits
from .state import apply_editor_change, editor_key, flash, get_matrix, set_matrix, take_flash

__all__ = ["input_panel"]


def _apply_preset() -> None:
    ss = st.session_state
    lim = limits()
    choice = ss.get("preset", "book")
    try:
        if choice == "book":
            set_matrix(book_matrix())
        elif choice == "near_duplicate":
            set_matrix(near_duplicate_matrix())
        else:
            n, d = int(ss.get("rand_tokens", 6)), int(ss.get("rand_dim", 3))
            seed = int(ss.get("rand_seed", 0))
            if not (1 <= n <= lim.max_tokens and 1 <= d <= lim.max_dim):
                raise InputError(
                    f"random matrices are limited to {lim.max_tokens} tokens × {lim.max_dim} dims."
                )
            set_matrix(random_matrix(n, d, seed))
    except InputError as exc:
        flash("error", str(exc))
        return
    flash("success", f"Loaded: {PRESETS[choice]}.")


def _change_width() -> None:
    width = int(st.session_state["matrix_width"])
    lim = limits()
    if not 1 <= width <= lim.max_dim:
        flash("error", f"The embedding width must be between 1 and {lim.max_dim}.")
        return
    set_matrix(get_matrix().with_dim(width))


def _reset() -> None:
    set_matrix(book_matrix())
    st.session_state["preset"] = "book"
    flash("success", "Reset to the chapter's six tokens.")


def _upload() -> None:
    key = f"upload_{st.session_state.get('editor_version', 0)}"
    file = st.session_state.get(key)
    if file is None:
        return
    lim = limits()
    if file.size > lim.max_upload_bytes:
        flash("error", f"The file is {file.size:,} bytes; the limit is {lim.max_upload_bytes:,}.")
        return
    try:
        text = file.getvalue().decode("utf-8-sig")
    except UnicodeDecodeError:
        flash("error", "The file is not UTF-8 text; save it as a CSV file and try again.")
        return
    try:
        matrix = from_csv_text(text, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        flash("error", f"The upload was not used: {exc}")
        return
    set_matrix(matrix)
    flash("success", f"Loaded {matrix.num_tokens} tokens × {matrix.dim} dimensions from {file.name}.")


def input_panel() -> None:
    lim = limits()
    matrix = get_matrix()
    with st.sidebar:
        st.subheader("Input embeddings")
        st.caption(
            f"{matrix.num_tokens} tokens × {matrix.dim} dimensions, shared by every page. "
            "Edit a cell, rename a token, add or delete rows."
        )
        message = take_flash("matrix")
        if message:
            getattr(st, message[0])(message[1])

        cells = matrix.num_tokens * (matrix.dim + 1)
        if cells <= lim.max_editable_cells:
            key = editor_key()
            st.data_editor(
                matrix.frame(),
                key=key,
                num_rows="dynamic",
                hide_index=True,
                width="stretch",
                on_change=apply_editor_change,
                args=(key,),
                column_config={
                    "token": st.column_config.TextColumn("token", max_chars=40, required=True),
                    **{
                        f"d{j + 1}": st.column_config.NumberColumn(f"d{j + 1}", format="%.4f")
                        for j in range(matrix.dim)
                    },
                },
            )
        else:
            st.info(
                f"{matrix.num_tokens}×{matrix.dim} is too large to edit cell by cell "
                f"(limit {lim.max_editable_cells} cells). Use a preset, or upload a CSV."
            )

        st.session_state["matrix_width"] = matrix.dim
        st.number_input(
            "Embedding width", min_value=1, max_value=lim.max_dim,
            key="matrix_width", on_change=_change_width,
            help="New dimensions start at 0; removing dimensions drops the last columns.",
        )
        with st.expander("Presets and reset"):
            st.selectbox("Preset", list(PRESETS), format_func=PRESETS.get, key="preset")
            if st.session_state.get("preset") == "random":
                st.number_input("Tokens", 1, lim.max_tokens, 6, key="rand_tokens")
                st.number_input("Dimensions", 1, lim.max_dim, 3, key="rand_dim")
                st.number_input("Random seed", 0, 2**31 - 1, 0, key="rand_seed")
            c1, c2 = st.columns(2)
            c1.button("Load preset", on_click=_apply_preset, width="stretch")
            c2.button("Reset", on_click=_reset, width="stretch", key="reset_matrix")
        with st.expander("Share, download, upload"):
            st.caption(
                "The address bar always holds a link to exactly this view: page, matrix and controls. "
                "Copy it to share what you see."
            )
            note = st.session_state.get("_share_note")
            if note:
                st.caption(note)
            st.download_button(
                "Download matrix (CSV)", data=lambda: matrix.frame().to_csv(index=False), file_name="inputs.csv",
                mime="text/csv", on_click="ignore", width="stretch", key="download_matrix",
            )
            st.file_uploader(
                f"Upload a matrix (CSV, header “token,d1,d2,…”, up to {lim.max_upload_bytes // 1000} kB)",
                type=["csv"], key=f"upload_{st.session_state.get('editor_version', 0)}",
                on_change=_upload,
            )
        st.caption(
            f"{'Hosted limits' if lim.hosted else 'Limits'}: {lim.max_tokens} tokens, {lim.max_dim} dims, "
            f"{lim.max_heads} heads, batch {lim.max_batch} (settings: ATTENTION_MAX_TOKENS, …)."
        )
