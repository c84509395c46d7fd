"""The class: students' own devices in the lecture's room, following the lecturer on the light page and free to
explore in the app.

A student opens the room's link, ``/follow/<id>`` (the projection shows it and its QR code): the light page
(ui/follow) follows the lecture. Its "Explore this step" opens the app at that step's state with ``?room=<id>&away=1``:
there the window is a student of the room who explores on their own (ui/lecture/lecture.py joins it), with a small
line that says so, **Rejoin the lecture** (a plain link back to the light page) and what they found sent to the
lecturer (ui/lecture/spotlight.py). Students never write to the room's deck: they hold no secret. The app's pages
opened with ``?room=<id>`` and no ``away`` are the light page's (the server sends them there: ui/shell/join.py).

``?room=new`` on any page opens a room instead, driven by that window (the lecturer's): its address
then holds ``room=<id>``. The lecturer's secret stays in the session.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import socket
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

import segno
import streamlit as st

from .. import state
from ..chapter import PAGES
from ..state import Key
from ..words.content import app_text
from . import spotlight, window
from .address import AWAY_PARAM, NEW_ROOM, ROOM_PARAM, events_path, follow_path
from .records import WALK_PAGE, Student

__all__ = ["AWAY_PARAM", "NEW_ROOM", "ROOM_PARAM", "class_count", "join_link", "join_panel",
           "status_bar", "write_address"]

PUBLIC_URL = "ATTENTION_PUBLIC_URL"  # the address students reach the app at, when the lecturer's differs
_PAGE_IDS = frozenset(p.page_id for p in PAGES)
_POLL_JS = Path(__file__).with_name("class_poll.js")


def status_bar(page_id: str) -> None:
    """A student's line above the page: they explore on their own, **Rejoin the lecture** (the light page, in their
    language, in this tab), and (a page that computes) what they found, sent to the lecturer."""
    member = window.current()
    if not isinstance(member, Student):
        return
    with st.container(key=Key.CLASS_BAR, horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(f":orange-badge[:material/explore: {app_text('class_exploring')}]", width="content")
        href = escape(follow_address(member.room, state.language()))
        st.html(f'<a class="{Key.CLASS_REJOIN}" href="{href}">{escape(app_text("class_rejoin"))}</a>',
                width="content")
        if page_id != WALK_PAGE:  # what they found, sent to the lecturer (ui/lecture/spotlight.py)
            spotlight.send_panel(page_id)
    _class_poll(member.room)
    spotlight.said()


def _class_poll(room: str) -> None:
    """The class's question, shown under the line and said, from the room's stream as the light page hears it: no
    run of this session waits for it. Answered on the lecture page, where the form and the verdict are."""
    lang = state.language()
    base = _base(urlsplit(st.context.url or "/").path)
    words = {"open": app_text("class_poll_open", prompt="{prompt}"), "answer": app_text("class_poll_answer"),
             "revealed": app_text("class_poll_revealed")}
    _poll_component()(key=Key.CLASS_POLL, data={"events": f"{base}{events_path(room)}?lang={lang}",
                                                "rejoin": follow_address(room, lang), "words": words})


@functools.cache
def _poll_component():
    css = (".class-poll { margin: 0.25rem 0 0.5rem; padding: 0.5rem 0.75rem; border-left: 4px solid #e07b00;"
           " background: rgba(224, 123, 0, 0.08); border-radius: 0.25rem; } .class-poll a { margin-left: 0.5rem; }")
    return st.components.v2.component("attention_class_poll", js=_POLL_JS.read_text(encoding="utf-8"), css=css)


def follow_address(room: str, lang: str) -> str:
    """The light page of ``room`` in ``lang``, as a path from this app's root (which may sit under a base path)."""
    return f"{_base(urlsplit(st.context.url or '/').path)}{follow_path(room)}?lang={lang}"


def _base(path: str) -> str:
    """The app's base path, from a page's path: the page's own name dropped ("/attention/one-query": "/attention")."""
    path = path.rstrip("/")
    head, _, last = path.rpartition("/")
    return head if last in _PAGE_IDS else path


def write_address() -> None:
    """Keep ``room=<id>`` (and ``away=1`` for a student, who explores) in the address: a reload or a reconnect
    to another replica comes back to the room, in the same mode."""
    member = window.current()
    if member is None:
        return
    if st.query_params.get(ROOM_PARAM) != member.room:
        st.query_params[ROOM_PARAM] = member.room
    if isinstance(member, Student) and st.query_params.get(AWAY_PARAM) != "1":
        st.query_params[AWAY_PARAM] = "1"


# ----- the projection's join panel (J): the link and its QR code ------------------------------------

def join_link(room: str) -> str:
    """The address a student opens: the room's light page, ``/follow/<id>``, at this app's address (or
    ATTENTION_PUBLIC_URL)."""
    follow = follow_path(room)
    public = os.environ.get(PUBLIC_URL, "").strip().rstrip("/")
    if public:
        return f"{public}{follow}"
    url = urlsplit(st.context.url or "http://localhost:8501/")
    host = url.netloc
    if url.hostname in {"localhost", "127.0.0.1", "::1"}:  # the lecturer's laptop: the class needs its network address
        lan = _network_address()
        if lan is not None:
            host = f"{lan}:{url.port}" if url.port else lan
    return f"{url.scheme}://{host}{_base(url.path)}{follow}"


def _network_address() -> str | None:
    """This machine's address on its local network (no packet is sent: a UDP socket only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def join_panel() -> None:
    """On the projection, in place of the step: the class's link, as text and as a QR code, and who joined."""
    member = window.current()
    if member is None:
        return
    link = join_link(member.room)
    qr = segno.make(link, error="m").svg_inline(scale=10, border=2, dark="#000", light="#fff")
    with st.container(key=Key.JOIN_PANEL, horizontal=True, vertical_alignment="center", gap="large"):
        st.image(qr, width=460, caption=None)
        with st.container():
            st.markdown(f"## {app_text('join_heading')}")
            st.html(f'<p class="join-link">{escape(link)}</p>')
            st.caption(app_text("join_hint"))
            _count(panel=True)  # last in its box: a timed fragment


def class_count() -> None:
    """The projection's slim line: how many students are in the room, by the class's icon (J). Read as the join
    panel's count is, in each full run: both say the same number (window.attendance)."""
    _count(panel=False)


def _count(panel: bool) -> None:
    """The students present in this window's room now (its listener reruns the window when the count changes)."""
    count = window.attendance()
    st.markdown(f"#### :material/group: {app_text('join_count', n=count)}" if panel else str(count), width="content")
