"""What a page shows above its content: its title, its explanation and formula (one line in lecture mode), and the
message a callback queued for it.

Apart from the controller (controller.py): app.py draws the header outside the page's fragment, and
:func:`ui.page.start_page` draws only the queued message.
"""

from __future__ import annotations

import streamlit as st

from .. import announce, draw, state
from ..sharing import link
from ..sharing import state as link_state
from ..state import Key
from ..words.content import app_text, page_text

__all__ = ["draw_explanation", "draw_flash", "draw_header"]


def draw_header(page_id: str, brief: bool = False) -> None:
    """Title, explanation and formula from the page's content file (``brief``: the one-line idea first, as in
    lecture mode, for a student who explores the lecture's walkthrough, whose explanation speaks to a lecturer).

    app.py draws it outside the page's fragment: it changes only with the page, the language and
    lecture mode (each a whole-app rerun), so a page control does not make the browser rebuild it
    (the formula alone is a couple of hundred KaTeX nodes). In lecture mode the explanation is the
    page's one-line idea, the full text one click away. A message about the link or the room comes first, above
    the title: under the explanation it was below the fold of a phone (a bad room link looked like a join).
    """
    draw_flash()
    text = page_text(page_id)
    st.title(text.title)
    if (brief or state.lecture_mode()) and text.idea:
        st.markdown(f"**{text.idea}**")
        with st.expander(app_text("full_explanation")):
            draw_explanation(page_id)
    else:
        draw_explanation(page_id)


def draw_flash(opened: bool = True) -> None:
    """The page's queued message (``state.flash(..., where="page")``), if any, once; with ``opened``, that a shared
    link was opened, while its state is unchanged (on every full run: one place per run draws it)."""
    flashed = state.take_flash("page")
    if flashed:
        with st.container(key=Key.PAGE_NOTICE):
            getattr(st, flashed[0])(flashed[1])
        announce.notice(flashed[1])
    if opened and link.link_opened():  # "the shared link was opened": a reload of one's own page hides it (page.js)
        with st.container(key=Key.LINK_OPENED):
            st.success(app_text("link_opened"))
        announce.notice(app_text("link_opened"), once=f"link:{link_state.opened_at()}")


def draw_explanation(page_id: str) -> None:
    """The page's explanation and formula, from its content file."""
    text = page_text(page_id)
    st.markdown(text.intro)
    if text.formula:
        draw.show_formula(text.formula)
