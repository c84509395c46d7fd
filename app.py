"""Attention, live: Chapter 3 of *Build a Large Language Model From Scratch*.

The entry point is a frame around every page: it declares the pages with
st.navigation, grouped by the chapter's headings, restores a shared link's state
once per session, draws the shared input-matrix panel in the sidebar, runs the page as a
fragment (its own controls rerun it alone: ui/shell/frame.py), and keeps the URL up to date so
the address bar is always a shareable link. Beside it, the app's own routes, and the class's link
sent to the light page that follows a lecture (ui/shell/join.py).
"""

import streamlit as st
from starlette.middleware import Middleware

from ui import announce
from ui.chapter import PAGES, PageInfo, group_title
from ui.check import progress
from ui.check.panel import completed_pages, nav_title
from ui.check.state import done_by_page
from ui.draw import narrow_screen
from ui.follow import page as follow_page
from ui.inputs.sidebar import inline_matrix, input_panel
from ui.inputs.state import get_matrix
from ui.lecture import lecture
from ui.page import draw_header
from ui.sharing.copy import copy_link_button
from ui.sharing.link import choose_language_once, lecture_requested, load_link_once, write_link
from ui.sharing.state import share_note
from ui.shell import activity, downloads, push
from ui.shell.deep_link import DeepLinkBase
from ui.shell.frame import run_page, run_whole_page
from ui.shell.join import JoinRedirect
from ui.shell.process import prepare_process, slowed_run
from ui.shell.reconnect import rerun_after_reconnect
from ui.shell.style import apply_style
from ui.state import begin_run, language, lecture_mode, navigation_pages, set_current_page
from ui.words.content import app_text


def build_pages(titles: tuple[str, ...]) -> tuple[dict[str, list], dict[str, PageInfo], dict[str, st.Page]]:
    """The pages, titled ``titles``, by the chapter's headings, and each page by its URL path and by its id."""
    page_of: dict[str, PageInfo] = {}  # a page's URL path -> the page
    page_by_id: dict[str, st.Page] = {}
    pages: dict[str, list] = {}
    for i, (info, title) in enumerate(zip(PAGES, titles, strict=True)):
        page = st.Page(info.file, title=title, default=i == 0, **({} if i == 0 else {"url_path": info.page_id}))
        page_of[page.url_path], page_by_id[info.page_id] = info, page
        pages.setdefault(group_title(info.group), []).append(page)
    return pages, page_of, page_by_id


def frame_view() -> tuple:
    """What the frame shows that a page could change: if a page run changes it, the whole app reruns."""
    return (get_matrix(), language(), lecture_mode(), done_by_page(),  # every ✓, and what the browser keeps of it
            lecture.shown())  # a lecturer's listener starts; a student's line is drawn


def after_page(page_id: str) -> None:
    write_link()
    lecture.after_page(page_id)  # the lecture, after the page: what it changed goes to the room
    announce.draw(page_id)  # what changed, for a screen reader


def frame() -> None:
    """One run of the app: the frame around the page the address names."""
    begin_run()  # what this run reads of the session's state more than once, it reads once (ui/state.py)
    prepare_process()  # once per process: one PyTorch thread per run, and a frozen import heap (ui/shell/process.py)
    slowed_run()  # nothing, unless a benchmark asks for a slower page run to prove it sees one
    choose_language_once()  # ?lang=, else the browser's locale; then the sidebar's selector decides
    # A lecture starts with the sidebar collapsed: the main area gets the whole projector.
    st.set_page_config(page_title=app_text("page_title"), page_icon="🔦", layout="wide",
                       initial_sidebar_state="collapsed" if lecture_requested() else "auto")

    progress.restore()  # a reload's new session: the questions this browser had answered are done again
    complete = completed_pages()
    titles = tuple(nav_title(info.page_id, info.title, complete) for info in PAGES)  # ✓ once checked; in their words
    pages, page_of, page_by_id = navigation_pages((language(), *titles), lambda: build_pages(titles))  # once per titles
    current = st.navigation(pages, expanded=True)  # every page listed: no "View more" (Streamlit's own English)
    shown = page_of.get(current.url_path, PAGES[0])
    set_current_page(shown.page_id)
    st.set_page_config(page_title=app_text("page_title_of", page=shown.title))  # each page its own document title
    load_link_once()
    # The lecture, before the page: a room the address names is entered and seen before anything is drawn; a
    # lecturer's seat, or a student's line.
    if (target := lecture.before_page(shown.page_id)) is not None:  # a room just opened: the walkthrough first
        st.switch_page(page_by_id[target], query_params=st.query_params.to_dict())
    rerun_after_reconnect()  # a browser that reconnects to another replica runs the page there at once
    apply_style(get_matrix().dim, lecture=lecture_mode(), lang=language(), view=lecture.style(shown.page_id))
    plain = lecture.view(shown.page_id) in (None, "plain")  # not the walkthrough's projection or console
    # On a phone the sidebar is a drawer over the page: the matrix is edited on the page, above what it changes.
    inline = narrow_screen() and plain
    input_panel(link_note=share_note(), link_tools=copy_link_button, inline=inline)
    if plain:
        with st.sidebar:
            progress.mount()  # the browser keeps the ✓ through a reload (ui/check/progress.py)

    # The header (title, explanation, formula) is drawn here, outside the page's fragment, and the page
    # runs as a fragment: its own controls rerun it alone (ui/shell/frame.py). The walkthrough's projection
    # and presenter console draw their own.
    if plain:
        draw_header(shown.page_id, brief=lecture.exploring(shown.page_id))
    if inline:
        inline_matrix()

    # A lecturer's window runs its page in the app's own run: its commands are never clicks inside a fragment.
    run = run_whole_page if lecture.drives(shown.page_id) else run_page
    run(shown.file, frame_view(), frame_view, on_failure=lambda: st.error(app_text("page_failed")),
        after=lambda: after_page(shown.page_id))


if __name__ == "__main__":  # Streamlit runs this file as the app's script: once per run of a session
    frame()
else:  # `streamlit run app.py` imports it for the server: Streamlit, and the app's own routes beside it
    # the downloads; a room's event stream and its activity (for the lecturer's windows); a following student's light
    # page, where the class's link leads; and a deep link's page, which names its server for Streamlit's script to
    # find it at once (ui/shell/deep_link.py)
    app = st.App(__file__, routes=[*downloads.routes(), *push.routes(), *activity.routes(), *follow_page.routes()],
                 middleware=[Middleware(JoinRedirect), Middleware(DeepLinkBase)])
