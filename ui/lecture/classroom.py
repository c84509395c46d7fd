"""The class: students' own devices in the lecture's room, following the lecturer and free to explore.

A student opens any page with ``?room=<id>`` (the projection shows that link and its QR code). The
window joins the room as a student: it takes the room's deck at once (a late joiner lands on the
current step) and then follows it (ui/lecture/window.py), in its own language and with the full page:
sidebar, controls, explanation. Students never write to the room: they hold no secret.

A student who changes anything (a control, a matrix cell, the step, the page) steps away from the
lecture: the state is then theirs to explore, and a small line says so, with **Rejoin**. Rejoining
keeps their exploration one click away (**Back to my exploration**), so nothing they did is lost.

``?room=new`` on any page opens a room instead, driven by that window (the lecturer's): its address
then holds ``room=<id>``, which is also the class's link. The lecturer's secret stays in the session.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from html import escape
from urllib.parse import urlsplit

import segno
import streamlit as st

from ..state import Key
from ..words.content import app_text
from . import answers, spotlight, window
from . import state as walk_state
from .records import WALK_PAGE, BackToExploration, Rejoin, Student
from .walkthrough import WalkthroughError, load_bundled, parse

__all__ = ["AWAY_PARAM", "COUNT_SECONDS", "NEW_ROOM", "ROOM_PARAM", "class_count", "join_link", "join_panel",
           "status_bar", "write_address"]

ROOM_PARAM = "room"  # ?room=<id>: join the room as a student; ?room=new: open one
AWAY_PARAM = "away"  # ?away=1 beside ?room=: this student was exploring (a reconnected window stays so)
NEW_ROOM = "new"
PUBLIC_URL = "ATTENTION_PUBLIC_URL"  # the address students reach the app at, when the lecturer's differs
COUNT_SECONDS = 2  # the projection's count of the class (its line, the join panel) is read again this often


def status_bar(page_id: str) -> None:
    """A student's line above the page: following or exploring, and the one button that switches (drawing only:
    the mode was decided before, ui/lecture/protocol.py)."""
    member = window.current()
    if not isinstance(member, Student):
        return
    with st.container(key=Key.CLASS_BAR, horizontal=True, vertical_alignment="center", gap="small"):
        if member.following:
            st.markdown(_following_line(), unsafe_allow_html=True, width="content")
            if member.own is not None:
                st.button(app_text("class_back"), key=Key.CLASS_BACK, on_click=_back_to_exploration,
                          icon=":material/explore:", type="tertiary", help=app_text("class_back_help"))
        else:
            st.markdown(f":orange-badge[:material/explore: {app_text('class_exploring')}]", width="content")
            if member.lecture_at is not None:  # where Rejoin leads
                st.markdown(app_text("class_lecture_at", k=member.lecture_at + 1), width="content")
            st.button(app_text("class_rejoin"), key=Key.CLASS_REJOIN, on_click=_rejoin, args=(page_id,),
                      icon=":material/podium:", type="primary", help=app_text("class_rejoin_help"))
            if page_id != WALK_PAGE:  # what they found, sent to the lecturer (ui/lecture/spotlight.py)
                spotlight.send_panel(page_id)
    spotlight.said()
    answers.student_panel()  # a question the lecturer put to the class


def _following_line() -> str:
    """"Following the lecture" ("Catching up" instead, while the watchdog finds this window behind: watchdog.js)
    and "Step k of n" as the projection says it, in one element: a following student's every update sends it, and
    each element is a message (benchmarks/PROFILE-ROOM.md). The step is in ``data-step`` for the watchdog."""
    parts = [f'<span class="{Key.CLASS_FOLLOWING}">:green-badge[:material/podium: {app_text("class_following")}]'
             "</span>",
             f'<span class="{Key.CLASS_CATCHING_UP}">:gray-badge[:material/sync: {app_text("class_catching_up")}]'
             "</span>"]
    if steps := _steps():
        k = walk_state.walk_position() + 1
        parts.append(f'<span class="{Key.CLASS_STEP}" data-step="{k}">{app_text("step_of", k=k, n=steps)}</span>')
    return " ".join(parts)


def _steps() -> int:
    """How many steps the room's walkthrough has (the lecturer's own, or the bundled one)."""
    text = walk_state.custom_walkthrough()
    try:
        return len((parse(text) if text is not None else load_bundled()).steps)
    except WalkthroughError:
        return 0


def _rejoin(page_id: str) -> None:
    window.dispatch(Rejoin(page_id, window.snapshot()))  # the exploration, one click away


def _back_to_exploration() -> None:
    window.act(BackToExploration())


def write_address() -> None:
    """Keep ``room=<id>`` (and ``away=1`` while a student explores) in the address: a reload or a reconnect
    to another replica comes back to the room, in the same mode."""
    member = window.current()
    if member is None:
        return
    if st.query_params.get(ROOM_PARAM) != member.room:
        st.query_params[ROOM_PARAM] = member.room
    away = isinstance(member, Student) and not member.following
    if away and st.query_params.get(AWAY_PARAM) != "1":
        st.query_params[AWAY_PARAM] = "1"
    elif not away and AWAY_PARAM in st.query_params:
        del st.query_params[AWAY_PARAM]


# ----- the projection's join panel (J): the link and its QR code ------------------------------------

def join_link(room: str) -> str:
    """The address a student opens: this app's address (or ATTENTION_PUBLIC_URL) with ``?room=<id>``."""
    public = os.environ.get(PUBLIC_URL, "").strip().rstrip("/")
    if public:
        return f"{public}/?{ROOM_PARAM}={room}"
    url = urlsplit(st.context.url or "http://localhost:8501/")
    host = url.netloc
    if url.hostname in {"localhost", "127.0.0.1", "::1"}:  # the lecturer's laptop: the class needs its network address
        lan = _network_address()
        if lan is not None:
            host = f"{lan}:{url.port}" if url.port else lan
    base = url.path.rstrip("/").removesuffix(f"/{WALK_PAGE}")
    return f"{url.scheme}://{host}{base}/?{ROOM_PARAM}={room}"


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
    """The projection's slim line: how many students are in the room, by the class's icon (J). Read again every
    COUNT_SECONDS, as the join panel's count is: both say the same number (window.attendance)."""
    _count(panel=False)


@st.fragment(run_every=COUNT_SECONDS)
def _count(panel: bool) -> None:
    """The students present in this window's room now (a timed fragment: draw it last or alone in its box)."""
    count = window.attendance()
    st.markdown(f"#### :material/group: {app_text('join_count', n=count)}" if panel else str(count), width="content")
