"""The "Open as a notebook" buttons: a page's state, or the whole walkthrough, as a Jupyter notebook.

The notebook is built only when the button is pressed (a deferred download), from plain data taken when the page
drew the button. A state the notebook cannot hold (a matrix too large to write out) gets a line saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from .. import state
from ..inputs.matrix import InputMatrix
from ..state import Key
from ..words.content import app_text
from ..words.i18n import explain
from . import state as sharing_state
from .notebook import NotebookError, NotebookSpec, check, check_size, notebook_bytes, walkthrough_bytes

__all__ = ["notebook_button", "walkthrough_button"]

MIME = "application/x-ipynb+json"


def notebook_button(spec: NotebookSpec, slot: object = "") -> None:
    """A page's "Open as a notebook"; its state is remembered as the session's notebook state."""
    lang = state.language()
    try:
        check(spec)
    except NotebookError as exc:
        st.caption(app_text("notebook_refused", error=explain(exc, lang)))
        return
    sharing_state.set_notebook_spec(spec)
    st.download_button(app_text("notebook_button"), data=lambda: notebook_bytes(spec, lang),
                       file_name=f"{spec.page}.ipynb", mime=MIME, key=f"{Key.NOTEBOOK_PREFIX}{spec.page}:{slot}",
                       on_click="ignore", icon=":material/code:", help=app_text("notebook_help"))


def walkthrough_button(matrix: InputMatrix, steps: Sequence[Any], title: str, note: Callable[[str], str],
                       current: int) -> None:
    """The whole walkthrough as one notebook, at the walkthrough's settings and with this matrix; the step on
    screen (``current``, from 0) is marked."""
    lang = state.language()
    try:
        check_size(matrix.num_tokens, matrix.dim)
    except NotebookError as exc:
        st.caption(app_text("notebook_refused", error=explain(exc, lang)))
        return
    st.download_button(app_text("walk_notebook_button"),
                       data=lambda: walkthrough_bytes(matrix, steps, lang, title=title, note=note, current=current),
                       file_name="walkthrough.ipynb", mime=MIME, key=f"{Key.NOTEBOOK_PREFIX}walkthrough",
                       on_click="ignore", icon=":material/code:", help=app_text("walk_notebook_help"))
