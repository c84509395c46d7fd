"""The lecture's downloads: the walkthrough as one notebook (every window's), and the lesson's record (a lecturer's).

Each is a link to one of the app's own routes (ui/shell/downloads.py), built when the browser asks for it, so no rerun
of the window can cancel it, as reruns cancelled a Streamlit download whose file lived only as long as the run
that drew it. The walkthrough's address carries the window's
matrix, its walkthrough file when it is not the bundled one, the step on screen and the language; each is checked
like a shared link when it comes back. The record's address names only the room: the route reads the lecturer's
secret from the seat cookie their browser keeps (ui/lecture/seat.py), never from an address.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from ..inputs.matrix import InputMatrix
from ..sharing import offer
from ..sharing.codec import encode_state
from ..sharing.notebook import NotebookError, check_size, walkthrough_bytes
from ..words.content import app_text
from ..words.i18n import WALK_CONTEXT, explain, translate
from .lesson import lesson_csv
from .rooms import RoomError, is_room_id, is_secret
from .seat import COOKIE_PREFIX
from .store import rooms
from .walkthrough import MAX_BYTES, WalkthroughError, decode, load_bundled

__all__ = ["RecordRefused", "record_file", "record_link", "walkthrough_file", "walkthrough_link"]

_MAX_STEPS_PARAM = 4  # "at": the step on screen, from 1; a walkthrough holds far fewer than 10,000 steps


class RecordRefused(Exception):
    """The lesson record's address, or the browser's seat, does not open a room this browser drives."""


def walkthrough_link(matrix: InputMatrix, packed: str | None, current: int, lang: str) -> None:
    """The whole walkthrough as one notebook, at its settings and with this matrix; the step on screen (``current``,
    from 0) is marked. ``packed``: the walkthrough file as its link parameter (walkthrough.encode), None for the
    bundled one."""
    try:
        check_size(matrix.num_tokens, matrix.dim)
    except NotebookError as exc:
        st.caption(app_text("notebook_refused", error=explain(exc, lang)))
        return
    text, _ = encode_state(matrix, {})
    address = offer.href("walkthrough", m=text, wt=packed, at=current + 1, lang=lang)
    offer.download_link(app_text("walk_notebook_button"), address, "walkthrough.ipynb",
                        app_text("walk_notebook_help"), "code")


def walkthrough_file(params: Mapping[str, str]) -> tuple[str, bytes]:
    """The walkthrough's notebook from its address: (file name, the file); offer.NotebookRequestError for an address
    that names none (a damaged matrix or walkthrough, a matrix over the notebook's size, a step that is not one)."""
    lang = offer.language_of(params)
    matrix = offer.matrix_of(params.get("m"))
    try:
        check_size(matrix.num_tokens, matrix.dim)
        walk = load_bundled() if params.get("wt") is None else decode(_bounded(params["wt"]))
    except (NotebookError, WalkthroughError) as exc:
        raise offer.NotebookRequestError(exc) from None
    at = params.get("at", "")
    current = int(at) - 1 if at.isdigit() and len(at) <= _MAX_STEPS_PARAM else None
    if current is not None and not 0 <= current < len(walk.steps):
        current = None
    data = walkthrough_bytes(matrix, walk.steps, lang, title=translate(walk.title, lang, WALK_CONTEXT),
                             note=lambda note: translate(note, lang, WALK_CONTEXT), current=current)
    return "walkthrough.ipynb", data


def _bounded(value: str) -> str:
    """A walkthrough parameter no longer than the largest file packs to (decode checks the rest, as for a link)."""
    if len(value) > 2 * MAX_BYTES:
        raise WalkthroughError("the link's walkthrough is damaged: it cannot be read.")
    return value


def record_link(room: str) -> None:
    """The console's download of the lesson's record, built when the browser asks for it."""
    offer.download_link(app_text("lesson_record"), offer.href("lesson-record", room=room), "lesson-record.csv",
                        app_text("lesson_record_help"), "summarize")


def record_file(params: Mapping[str, str], cookies: Mapping[str, str]) -> tuple[str, bytes]:
    """The lesson's record of the room the address names, for a browser whose seat drives it: (file name, CSV).
    RecordRefused otherwise; the store out of reach raises RoomError."""
    room = params.get("room", "")
    secret = cookies.get(COOKIE_PREFIX + room) if is_room_id(room) else None
    if not is_secret(secret):
        raise RecordRefused
    try:
        entries = rooms().kept(room, secret)
    except RoomError as exc:
        if type(exc) is RoomError:  # not a driver of this room (or no such room)
            raise RecordRefused from None
        raise
    return "lesson-record.csv", lesson_csv(entries).encode("utf-8")
