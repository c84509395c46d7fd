"""The shared input matrix panel, drawn by app.py around every page."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import streamlit as st

from .. import state
from ..draw import folded, narrow_screen
from ..settings import Limits, limits
from ..state import Key
from ..words.content import app_text
from ..words.i18n import LANGUAGES, decimal_comma, explain
from . import state as matrix_state
from .matrix import PRESETS, InputError, InputMatrix, book_matrix, from_csv_text, near_duplicate_matrix, random_matrix

__all__ = ["COLUMN_PX", "ROW_MARKERS_PX", "TOKEN_PX", "inline_matrix", "input_panel", "sidebar_px"]

# The data editor's geometry: the sidebar grows with the matrix (ui/shell/style.py applies the width).
TOKEN_PX, COLUMN_PX = 64, 54  # the editor's token column and each dimension ("0.4419" fits unclipped)
ROW_MARKERS_PX, PADDING_PX = 34, 64  # the editor's row-marker column; the sidebar's own padding
# room for a classic (non-overlay) scrollbar: browsers that draw one inside the grid take it from the columns
SCROLLBAR_PX = 24
DEFAULT_PX, MAX_DIMS_SHOWN = 336, 8  # Streamlit's default sidebar; wider than 8 dims scrolls sideways


def sidebar_px(dim: int) -> int:
    """The sidebar width that shows a token column and ``dim`` dimensions (at most 8) whole."""
    needed = PADDING_PX + SCROLLBAR_PX + ROW_MARKERS_PX + TOKEN_PX + COLUMN_PX * min(dim, MAX_DIMS_SHOWN)
    return max(DEFAULT_PX, needed)


def input_panel(link_note: str = "", link_tools: Callable[[], None] | None = None, inline: bool = False) -> None:
    """The sidebar: the matrix editor, its width, presets, and sharing.

    ``link_note`` says what the link left out; ``link_tools`` draws the sharing part's own controls
    (the copy-link button) at the top of the share panel: app.py hands them in, as sharing sits
    above the inputs. ``inline``: a phone, where the sidebar covers the page: the editor is on the page instead
    (:func:`inline_matrix`).
    """
    lim = limits()
    matrix = matrix_state.get_matrix()
    with st.sidebar:
        _language_selector()
        _lecture_toggle()
        # Drawn as a heading, not one: the sidebar comes before the page in the document, and a screen reader's
        # list of headings must start with the page's H1 (the sidebar is a landmark of its own to jump to).
        st.html(f'<p class="sidebar-heading">{escape(app_text("inputs_heading"))}</p>')
        st.caption(app_text("inputs_caption", n=matrix.num_tokens, d=matrix.dim))
        if not inline:
            _editor_and_width(matrix, lim)
        _presets(lim)
        _share_and_files(matrix, lim, link_note, link_tools)
        sizes = {"tokens": lim.max_tokens, "dims": lim.max_dim, "heads": lim.max_heads, "batch": lim.max_batch}
        st.caption(app_text("limits_hosted", **sizes) if lim.hosted else app_text("limits", **sizes))


def inline_matrix() -> None:
    """A phone's matrix editor, on the page above what it changes: folded, drawn only once opened.

    On a phone the sidebar is a drawer over the page, under 15 chapter links: an edit made there is hidden behind
    it. Here the result is under the editor, and a first visit loads no
    data grid until the learner opens it (benchmarks/FIRST-LOAD.md)."""
    matrix = matrix_state.get_matrix()
    with folded(app_text("inline_matrix_fold", n=matrix.num_tokens, d=matrix.dim), "inline_matrix") as shown:
        if shown:
            st.caption(app_text("inputs_caption", n=matrix.num_tokens, d=matrix.dim))
            _editor_and_width(matrix, limits())
    if not shown:  # an edit refused, a preset loaded from the drawer: said where the learner is looking
        _flash()


def _flash() -> None:
    message = state.take_flash("matrix")
    if message:
        getattr(st, message[0])(message[1])


def _editor_and_width(matrix: InputMatrix, lim: Limits) -> None:
    """The grid, then what became of the last edit: a message below the grid never moves the cell the learner's
    finger is on (above it, an error pushed the grid 170 px down and the next tap hit the message: m10)."""
    _matrix_editor(matrix, lim)
    _flash()
    state.mirrored(st.number_input, app_text("embedding_width"), Key.MATRIX_WIDTH, matrix.dim, _change_width,
                   min_value=1, max_value=lim.max_dim, help=app_text("embedding_width_help"))


def _language_selector() -> None:
    """The language the app speaks; ``?lang=`` in the address bar follows it (ui/sharing/link.py).

    On a phone, the same choice as a group of radio buttons: a select box's code (its menu, filter and list) is
    about 40 kB sent in 8 requests beyond what the page's other widgets fetch, a radio group's 4.7 kB in one, and a
    phone fetched and drew it on a first visit before the page's first chart, though the drawer it sits in is closed
    then (benchmarks/FIRST-LOAD.md). The four languages, each in its own name, fit the drawer in view: one tap each,
    and a screen reader hears a group of four choices.
    """
    state.mirrored(st.radio if narrow_screen() else st.selectbox, app_text("language"), Key.LANG_SELECT,
                   state.language(), lambda lang: state.set_language(str(lang)), options=list(LANGUAGES),
                   format_func=LANGUAGES.__getitem__)


def _preset_name(preset: str) -> str:
    return app_text(f"preset_{preset}")


def _lecture_toggle() -> None:
    state.mirrored(st.toggle, app_text("lecture_mode"), Key.LECTURE_TOGGLE, state.lecture_mode(),
                   lambda on: state.set_lecture_mode(bool(on)), help=app_text("lecture_mode_help"))


def _matrix_editor(matrix: InputMatrix, lim: Limits) -> None:
    if matrix.num_tokens * (matrix.dim + 1) > lim.max_editable_cells:
        st.info(app_text("too_large_to_edit", n=matrix.num_tokens, d=matrix.dim, limit=lim.max_editable_cells))
        return
    key, base = matrix_state.editor_key(), matrix_state.editor_base()
    # Text cells (see InputMatrix.editor_frame): every digit the matrix holds, never rounded, and
    # anything typed or pasted reaches the validation, which names the cell at fault.
    number = {f"d{j + 1}": st.column_config.TextColumn(f"d{j + 1}", width=COLUMN_PX) for j in range(base.dim)}
    st.data_editor(
        base.editor_frame(decimal_comma(state.language())), key=key, num_rows="dynamic", hide_index=True,
        width="stretch",
        on_change=matrix_state.apply_editor_change, args=(key,),
        column_config={"token": st.column_config.TextColumn("token", max_chars=40, required=True, width=TOKEN_PX),
                       **number},
    )


def _presets(lim: Limits) -> None:
    # Folded: drawn only while open, since every cell edit reruns the sidebar too.
    with folded(app_text("presets_heading"), "presets") as shown:
        if not shown:
            return
        # options named now, in this run's language (a format function runs again after the run in tests)
        names = {preset: _preset_name(preset) for preset in PRESETS}
        st.selectbox(app_text("preset"), list(PRESETS), format_func=names.__getitem__, key=Key.PRESET)
        if state.value(Key.PRESET) == "random":
            st.number_input(app_text("random_tokens"), 1, lim.max_tokens, 6, key=Key.RAND_TOKENS)
            st.number_input(app_text("random_dims"), 1, lim.max_dim, 3, key=Key.RAND_DIM)
            st.number_input(app_text("random_seed"), 0, 2**31 - 1, 0, key=Key.RAND_SEED)
        c1, c2 = st.columns(2)
        c1.button(app_text("load_preset"), on_click=_apply_preset, width="stretch", key=Key.LOAD_PRESET)
        c2.button(app_text("reset"), on_click=_reset, width="stretch", key=Key.RESET_MATRIX)


def _share_and_files(matrix: InputMatrix, lim: Limits, link_note: str, link_tools: Callable[[], None] | None) -> None:
    with folded(app_text("share_heading"), "share") as shown:
        if not shown:
            return
        st.caption(app_text("share_caption"))
        if link_tools is not None:
            link_tools()
        if link_note:
            st.caption(link_note)
        st.download_button(
            app_text("download_matrix"), data=lambda: matrix.frame().to_csv(index=False), file_name="inputs.csv",
            mime="text/csv", on_click="ignore", width="stretch", key=Key.DOWNLOAD_MATRIX,
        )
        st.file_uploader(
            app_text("upload_matrix", kb=lim.max_upload_bytes // 1000), type=["csv"], key=matrix_state.upload_key(),
            on_change=_upload,
        )


# ----- callbacks ----------------------------------------------------------------------------


def _apply_preset() -> None:
    choice = state.value(Key.PRESET, "book")
    try:
        if choice == "book":
            matrix_state.set_matrix(book_matrix())
        elif choice == "near_duplicate":
            matrix_state.set_matrix(near_duplicate_matrix())
        else:
            matrix_state.set_matrix(_random_preset(limits()))
    except InputError as exc:
        state.flash("error", explain(exc, state.language()))
        return
    state.flash("success", app_text("preset_loaded", preset=_preset_name(choice)))


def _random_preset(lim: Limits) -> InputMatrix:
    n, d = int(state.value(Key.RAND_TOKENS, 6)), int(state.value(Key.RAND_DIM, 3))
    if not (1 <= n <= lim.max_tokens and 1 <= d <= lim.max_dim):
        raise InputError("random matrices are limited to {tokens} tokens × {dims} dims.", tokens=lim.max_tokens,
                         dims=lim.max_dim)
    return random_matrix(n, d, int(state.value(Key.RAND_SEED, 0)))


def _change_width(width: int) -> None:
    width = int(width)
    lim = limits()
    if not 1 <= width <= lim.max_dim:
        state.flash("error", app_text("width_out_of_range", limit=lim.max_dim))
        return
    matrix_state.set_matrix(matrix_state.get_matrix().with_dim(width))


def _reset() -> None:
    matrix_state.set_matrix(book_matrix())
    state.set_value(Key.PRESET, "book")
    state.flash("success", app_text("reset_done"))


def _upload() -> None:
    file = state.value(matrix_state.upload_key())
    if file is None:
        return
    lim = limits()
    if file.size > lim.max_upload_bytes:
        state.flash("error", app_text("upload_too_large", size=f"{file.size:,}", limit=f"{lim.max_upload_bytes:,}"))
        return
    try:
        text = file.getvalue().decode("utf-8-sig")
    except UnicodeDecodeError:
        state.flash("error", app_text("upload_not_utf8"))
        return
    try:
        matrix = from_csv_text(text, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except InputError as exc:
        state.flash("error", app_text("upload_refused", error=explain(exc, state.language())))
        return
    matrix_state.set_matrix(matrix)
    state.flash("success", app_text("upload_loaded", n=matrix.num_tokens, d=matrix.dim, file=file.name))
