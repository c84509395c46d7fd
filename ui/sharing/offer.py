"""The "Open as a notebook" links: a page's state, or the whole walkthrough, as a Jupyter notebook.

A notebook is a plain GET of one of the app's own routes (ui/shell/downloads.py), its state in the address as a
shared link carries it: the route builds the file when the browser asks for it. Nothing of it lives in the session,
so no rerun can take it away before the browser fetches it. (A Streamlit download button's file lives only as long
as the run that drew it: a window that reruns on every move of the lecture had its download cancelled whenever a
move came between the click and the fetch.) A link also keeps the keyboard focus where it
was, and any replica can answer it. A state the notebook cannot hold (a matrix too large to write out) gets a line
saying why, where the link would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from urllib.parse import urlencode

import streamlit as st

from .. import state
from ..inputs.matrix import InputMatrix, book_matrix
from ..settings import limits
from ..words.content import app_text
from ..words.i18n import LANGUAGES, explain
from . import state as sharing_state
from .codec import LinkError, decode_state, encode_state
from .notebook import NotebookError, NotebookSpec, book_pages, check, notebook_bytes

__all__ = ["MIME", "NotebookRequestError", "ROUTE", "download_link", "href", "language_of", "matrix_of",
           "notebook_button", "notebook_file"]

MIME = "application/x-ipynb+json"
ROUTE = "/download"  # the app's own routes (ui/shell/downloads.py)
MAX_STEP = 80  # a step's name in an address: "batched_product.product" is 23


class NotebookRequestError(ValueError):
    """A download's address that does not name a notebook the app can build; its message says why, in English
    (``explain`` puts it in the reader's words)."""

    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


def href(path: str, **params: object) -> str:
    """The address of one of the app's downloads, under the server's base path."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"{'/' + base if base else ''}{ROUTE}/{path}?{query}"


def download_link(label: str, address: str, file_name: str, help_text: str, icon: str) -> None:
    """A link that downloads ``address`` as ``file_name``, drawn as a small button (ui/shell/access.css). A browser
    says nothing of a download it starts: page.js says ``data-said`` when the link is followed."""
    said = app_text("download_said", file=file_name)
    st.html(f'<a class="download-link" href="{escape(address)}" download="{escape(file_name)}" '
            f'title="{escape(help_text)}" data-said="{escape(said)}">'
            f'<span class="download-icon" aria-hidden="true">{escape(icon)}</span>{escape(label)}</a>')


def notebook_button(spec: NotebookSpec) -> None:
    """A page's "Open as a notebook"; its state is remembered as the session's notebook state."""
    lang = state.language()
    try:
        check(spec)
    except NotebookError as exc:
        st.caption(app_text("notebook_refused", error=explain(exc, lang)))
        return
    sharing_state.set_notebook_spec(spec)
    matrix = InputMatrix(spec.tokens, spec.rows)
    text, _ = encode_state(matrix, {spec.page: dict(spec.controls)})
    download_link(app_text("notebook_button"), href("notebook", page=spec.page, s=text, step=spec.step, lang=lang),
                  f"{spec.page}.ipynb", app_text("notebook_help"), "code")


def language_of(params: Mapping[str, str]) -> str:
    lang = params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def matrix_of(text: str | None) -> InputMatrix:
    """The matrix a download's address carries (as a shared link carries it, checked the same way); the book's
    matrix where it carries none."""
    if text is None:
        return book_matrix()
    lim = limits()
    try:
        shared = decode_state(text, pages=set(book_pages()), max_tokens=lim.max_tokens, max_dim=lim.max_dim)
    except LinkError as exc:
        raise NotebookRequestError(exc) from None
    return shared.matrix if shared.matrix is not None else book_matrix()


def notebook_file(params: Mapping[str, str]) -> tuple[str, bytes]:
    """A page's notebook from its download address: (file name, the file); NotebookRequestError for an address
    that names none (checked like a shared link: the page, the matrix, the controls, the app's limits)."""
    page, text, step = params.get("page", ""), params.get("s"), params.get("step")
    if page not in book_pages():
        raise NotebookRequestError(NotebookError("there is no notebook for the page {page!r}.", page=page[:40]))
    if text is None:
        raise NotebookRequestError(LinkError("the link's state is empty."))
    if step is not None and len(step) > MAX_STEP:
        raise NotebookRequestError(NotebookError("the step on screen is not one of the page's steps."))
    lim = limits()
    try:
        shared = decode_state(text, pages={page}, max_tokens=lim.max_tokens, max_dim=lim.max_dim)
        matrix = shared.matrix if shared.matrix is not None else book_matrix()
        spec = NotebookSpec.of(page, matrix, shared.controls.get(page, {}), step)
        check(spec)
    except (LinkError, NotebookError) as exc:
        raise NotebookRequestError(exc) from None
    return f"{page}.ipynb", notebook_bytes(spec, language_of(params))
