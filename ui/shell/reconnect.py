"""After a replica dies, the reconnected browser runs the page again on the replica it lands on.

Streamlit's frontend reconnects a dropped websocket by itself. After the reconnect it asks
for a new run only in a few cases: the script was running, or the app has a fragment that
reruns on a timer (whose timer the server must register again). Behind a load balancer the
reconnect of a learner whose replica died lands on another replica, in a new, empty session.
Without a run there, the screen keeps showing the dead session's page, and the learner's
next click becomes the new session's first run: the state comes back from the link, but the
click itself is dropped (its widget snaps back).

``rerun_after_reconnect()``, called once per run by app.py, declares a fragment that reruns
every few hours and draws nothing. Its only effect is the supported one: a reconnected browser
asks at once for a full run, so the new session adopts ``?s=`` from the address bar
(ui.sharing.link.load_link_once) and the page is live again before the learner touches it. Its timer
costs one empty fragment run per session every ``INTERVAL``.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

__all__ = ["INTERVAL", "rerun_after_reconnect"]

INTERVAL = timedelta(hours=6)


@st.fragment(run_every=INTERVAL)
def rerun_after_reconnect() -> None:
    """A timed fragment that draws nothing (see the module's docstring)."""
