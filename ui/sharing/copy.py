"""A "Copy link" button: the address bar's link (the whole view) to the clipboard, in one tap.

On a phone the address bar is hard to reach. The button reads the address when it is pressed,
so it copies the view as it is then (the page's own controls update the address without redrawing
the sidebar). Where the browser refuses the clipboard (an insecure origin, a denied permission),
the link appears in a field, selected, ready for the system's own copy.
"""

from __future__ import annotations

import json
from html import escape

import streamlit as st

from ..words.content import app_text

__all__ = ["copy_link_button"]

_SCRIPT = """
document.querySelectorAll('.copy-link:not([data-ready])').forEach((box) => {
  box.dataset.ready = '1';
  const status = box.querySelector('[role=status]');
  const field = box.querySelector('input');
  box.querySelector('button').addEventListener('click', async () => {
    const url = window.location.href;
    try {
      await navigator.clipboard.writeText(url);
      field.hidden = true;
      status.textContent = WORDS.copied;
    } catch (refused) {
      field.hidden = false;
      field.value = url;
      field.focus();
      field.select();
      status.textContent = WORDS.select;
    }
  });
});
"""


def copy_link_button() -> None:
    """The button, its status line (read out by screen readers) and the fallback field."""
    words = {"copied": app_text("link_copied"), "select": app_text("link_select")}
    st.html(
        '<div class="copy-link">'
        f'<button type="button" class="copy-link-button">{escape(app_text("copy_link"))}</button>'
        '<span class="copy-link-status" role="status" aria-live="polite"></span>'
        f'<input class="copy-link-field" type="text" readonly hidden aria-label="{escape(app_text("link_field"))}">'
        f"</div><script>(() => {{ const WORDS = {json.dumps(words)};{_SCRIPT}}})();</script>",
        unsafe_allow_javascript=True,
    )
