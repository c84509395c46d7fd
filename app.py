"""Attention, live: Chapter 3 of *Build a Large Language Model From Scratch*.

The entry point is a frame around every page: it declares the pages with
st.navigation, grouped by the chapter's headings, restores a shared link's state
once per session, draws the shared input-matrix panel in the sidebar, runs the page as a
fragment (its own controls rerun it alone: ui/shell/frame.py), and keeps the URL up to date so
the address bar is always a shareable link.
"""

import streamlit as st

from ui.chapter import PAGES, PageInfo, group_title
from ui.check.panel import nav_title, page_complete
from ui.inputs.sidebar import input_panel
from ui.inputs.state import get_matrix
from ui.lecture.classroom import class_view, join_once, pending_page, status_bar
from ui.lecture.classroom import write_address as write_room
from ui.lecture.sync import begin_full_run, end_full_run, following, join_console, poll
from ui.lecture.walk import view as walk_view
from ui.page import draw_header
from ui.sharing.copy import copy_link_button
from ui.sharing.link import choose_language_once, lecture_requested, load_link_once, write_link
from ui.sharing.state import share_note
from ui.shell.frame import run_page
from ui.shell.process import prepare_process
from ui.shell.reconnect import rerun_after_reconnect
from ui.shell.style import apply_style
from ui.state import flash, language, lecture_mode, set_current_page
from ui.words.content import app_text

prepare_process()  # once per process: one PyTorch thread per run, and a frozen import heap (ui/shell/process.py)
choose_language_once()  # ?lang=, else the browser's locale; then the sidebar's selector decides
# A lecture starts with the sidebar collapsed: the main area gets the whole projector.
st.set_page_config(page_title=app_text("page_title"), page_icon="🔦", layout="wide",
                   initial_sidebar_state="collapsed" if lecture_requested() else "auto")

page_of: dict[str, PageInfo] = {}  # a page's URL path -> the page
page_by_id: dict[str, st.Page] = {}
pages: dict[str, list] = {}
for i, info in enumerate(PAGES):
    page = st.Page(info.file, title=nav_title(info.page_id, info.title), default=i == 0,  # ✓ once checked
                   **({} if i == 0 else {"url_path": info.page_id}))
    page_of[page.url_path], page_by_id[info.page_id] = info, page
    pages.setdefault(group_title(info.group), []).append(page)
current = st.navigation(pages, expanded=True)  # every page listed: no "View more" (Streamlit's own English)
shown = page_of.get(current.url_path, PAGES[0])
set_current_page(shown.page_id)
load_link_once()
if join_console() is False:  # ?console=<token> makes this window the projection's presenter console
    flash("warning", app_text("console_expired"), where="page")
join_once(shown.page_id)  # ?room=<id> joins a lecture's room as a student; ?room=new opens one
if (target := pending_page()) not in (None, shown.page_id):  # joined or rejoined: the lecture's page
    st.switch_page(page_by_id[target], query_params=st.query_params.to_dict())
rerun_after_reconnect()  # a browser that reconnects to another replica runs the page there at once
apply_style(get_matrix().dim, lecture=lecture_mode(), lang=language(),
            view="class" if class_view() else walk_view() if shown.page_id == "walkthrough" else None)
input_panel(link_note=share_note(), link_tools=copy_link_button)


def frame_view() -> tuple:
    """What the frame shows that a page could change: if a page run changes it, the whole app reruns."""
    return (get_matrix(), language(), lecture_mode(), tuple(page_complete(p.page_id) for p in PAGES),
            following(), class_view())  # polling the room starts; a student's line follows their mode


# The header (title, explanation, formula) is drawn here, outside the page's fragment, and the page
# runs as a fragment: its own controls rerun it alone (ui/shell/frame.py). The walkthrough's projection
# and presenter console draw their own. A student in a lecture's room sees a line above it all.
status_bar(shown.page_id)
if shown.page_id != "walkthrough" or walk_view() == "plain":
    draw_header(shown.page_id)


def write_address() -> None:
    write_link()
    write_room()


begin_full_run()
poll(shown.page_id)  # a window in a lecture's room follows it; before the page, so a cut-short run keeps it
run_page(shown.file, frame_view(), frame_view,
         on_failure=lambda: st.error(app_text("page_failed")), after=write_address)
end_full_run()
