"""The class: students' own devices in the lecture's room, following the lecturer and free to explore.

A student opens any page with ``?room=<id>`` (the projection shows that link and its QR code). The
window joins the room as a student: it takes the room's deck at once (a late joiner lands on the
current step) and then follows it (ui/lecture/sync.py), in its own language and with the full page:
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
import secrets
import socket
import time
from html import escape
from urllib.parse import urlsplit

import segno
import streamlit as st

from .. import state
from ..state import Key
from ..words.content import app_text
from . import poll, sync
from . import state as walk_state
from .rooms import RoomError, RoomsFull, RoomsUnavailable, is_room_id
from .walkthrough import WalkthroughError, load_bundled, parse

__all__ = ["AWAY_PARAM", "NEW_ROOM", "ROOM_PARAM", "WALK_PAGE", "class_view", "join_link", "join_once", "join_panel",
           "pending_page", "refusal", "status_bar", "write_address"]

ROOM_PARAM = "room"  # ?room=<id>: join the room as a student; ?room=new: open one
AWAY_PARAM = "away"  # ?away=1 beside ?room=: this student was exploring (a reconnected window stays so)
NEW_ROOM = "new"
WALK_PAGE = "walkthrough"
PUBLIC_URL = "ATTENTION_PUBLIC_URL"  # the address students reach the app at, when the lecturer's differs


def join_once(page_id: str) -> None:
    """While this window is in no room and its address names one: open it (``new``) or join it."""
    raw = st.query_params.get(ROOM_PARAM)
    if raw is None or walk_state.membership() is not None:
        return
    if raw == NEW_ROOM:
        _open_room(page_id)
        return
    problem = _join(raw[:64], page_id)
    if problem is not None:
        state.flash(*problem, where="page")
        for name in (ROOM_PARAM, AWAY_PARAM):  # the normal app, without the broken link
            if name in st.query_params:
                del st.query_params[name]


def _open_room(page_id: str) -> None:
    try:
        member = sync.host()
    except RoomError as exc:
        state.flash("warning", refusal(exc), where="page")
        del st.query_params[ROOM_PARAM]
        return
    member.goto = WALK_PAGE if page_id != WALK_PAGE else None


def refusal(exc: RoomError) -> str:
    """Why no room could be opened, in the learner's words: a full server, or a store out of reach."""
    return app_text("room_server_full") if isinstance(exc, RoomsFull) else app_text("room_store_down")


def _join(room: str, page_id: str) -> tuple[str, str] | None:
    """Join ``room`` as a student; None, or (kind, message) saying why not."""
    if not is_room_id(room):
        return "warning", app_text("room_malformed")
    student = secrets.token_urlsafe(9)  # anonymous: a random id per window, for the attendance and its cap
    try:
        if sync.rooms().version(room) is None:
            return "warning", app_text("room_unknown", room=room)
        if not sync.rooms().attend(room, student):
            return "warning", app_text("room_class_full")
    except RoomsUnavailable:
        return "warning", app_text("room_store_down")
    except RoomError:
        return "warning", app_text("room_unknown", room=room)
    away = st.query_params.get(AWAY_PARAM) == "1"  # a reconnected window that was exploring stays so
    member = walk_state.Membership(room, "", "student", following=not away, student=student, heard=time.time(),
                                   goto=None if away or page_id == WALK_PAGE else WALK_PAGE)
    walk_state.set_membership(member)
    if not away:
        sync.follow(force=True)  # a late joiner takes the lecture as it stands
        state.flash("info", app_text("room_joined"), where="page")
    member.steps = _steps()
    return None


def _steps() -> int:
    """How many steps the room's walkthrough has (the lecturer's own, or the bundled one)."""
    text = walk_state.custom_walkthrough()
    try:
        return len((parse(text) if text is not None else load_bundled()).steps)
    except WalkthroughError:
        return 0


def pending_page() -> str | None:
    """The page this window must go to now (joined, rejoined, or back to its exploration), once."""
    member = walk_state.membership()
    if member is None or member.goto is None:
        return None
    target, member.goto = member.goto, None
    return target


def class_view() -> tuple:
    """What the student's line shows (in app.py's frame view: a page run that changes it reruns the app)."""
    member = walk_state.membership()
    if member is None or member.role != "student":
        return ()
    return member.following, member.own is not None, walk_state.walk_position(), member.steps


def status_bar(page_id: str) -> None:
    """A student's line above the page: following or exploring, and the one button that switches."""
    member = walk_state.membership()
    if member is None or member.role != "student":
        return
    if member.following and page_id != WALK_PAGE:  # the student went to another page: their own now
        member.following = False
    with st.container(key=Key.CLASS_BAR, horizontal=True, vertical_alignment="center", gap="small"):
        if member.following:
            st.markdown(f":green-badge[:material/podium: {app_text('class_following')}]", width="content")
            if member.steps:  # as the projection says it
                st.markdown(app_text("step_of", k=walk_state.walk_position() + 1, n=member.steps), width="content")
            if member.own is not None:
                st.button(app_text("class_back"), key=Key.CLASS_BACK, on_click=_back_to_exploration,
                          icon=":material/explore:", type="tertiary", help=app_text("class_back_help"))
        else:
            st.markdown(f":orange-badge[:material/explore: {app_text('class_exploring')}]", width="content")
            st.button(app_text("class_rejoin"), key=Key.CLASS_REJOIN, on_click=_rejoin, icon=":material/podium:",
                      type="primary", help=app_text("class_rejoin_help"))
    poll.student_panel()  # a question the lecturer put to the class


def _rejoin() -> None:
    member = walk_state.membership()
    member.own = (state.current_page() or WALK_PAGE, sync.snapshot())  # the exploration, one click away
    member.following, member.seen = True, 0
    member.goto = WALK_PAGE
    sync.follow(force=True)


def _back_to_exploration() -> None:
    member = walk_state.membership()
    page_id, deck = member.own
    member.own, member.following, member.goto = None, False, page_id
    sync.restore(deck)


def write_address() -> None:
    """Keep ``room=<id>`` (and ``away=1`` while a student explores) in the address: a reload or a reconnect
    to another replica comes back to the room, in the same mode."""
    member = walk_state.membership()
    if member is None:
        return
    if st.query_params.get(ROOM_PARAM) != member.room:
        st.query_params[ROOM_PARAM] = member.room
    away = member.role == "student" and not member.following
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
    member = walk_state.membership()
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
            _attendance(member.room)


@st.fragment(run_every=2)
def _attendance(room: str) -> None:
    try:
        count = sync.rooms().attendance(room)
    except RoomError:
        return
    st.markdown(f"#### :material/group: {app_text('join_count', n=count)}")
