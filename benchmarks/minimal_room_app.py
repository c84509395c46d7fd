"""The floor for a class that follows a lecturer: the same wire protocol as the app, with nothing of the app in it.

What any Streamlit app must do to follow a room with Streamlit's documented means (no push between sessions):
- a student's device has a timed fragment (every 0.5 s, as the app's ``ATTENTION_CLASS_HEARTBEAT_MS``) that reads
  the room's version and, when it moved, reruns the app;
- the full run draws the student's line ("Step **k** of 33", in a ``class-bar`` box) and the step: a 6x6 heatmap
  of weights (benchmarks/minimal_app.py's chart) and the printed tensor;
- the lecturer's window (``?lecture=1&room=new``) has a "Step **k** of 33" line in a ``projection-bar`` box and a
  PageDown button that moves the room.
The rooms are a Redis counter when ``ATTENTION_ROOMS`` names a Redis server (every replica sees every room), else
a dictionary in the process. benchmarks/bench_room.py (``--floor``) runs its class against this app: the same
students, the same measure, so its follow times are what this architecture costs on the machine at hand.

With ``FLOOR_FRAME=1`` (bench_room ``--framed-floor``) a student's full run also sends what a following student's
full run of the app sends, element for element (counted on the wire: 40 messages, 24 KB), with none of the app's
logic: a navigation of 15 pages in 6 groups, the style, a hidden heartbeat box with the watchdog's script and its
heal component, the line, the sidebar's language box, and the step's chart, tensor, formula, caption and
code fold. The gap between the app and this floor is the app's own work; the gap between the two floors is what
Streamlit costs for what a follower's page shows.
"""

import functools
import os
import secrets
import threading
import time

import numpy as np
import streamlit as st

STEPS = 33
BOOK = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                 [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
TOKENS = ["Your", "journey", "starts", "with", "one", "step"]


class Rooms:
    """Each room's step: Redis when the environment names one, else this process's dictionary."""

    def __init__(self, url: str | None):
        self.lock, self.steps = threading.Lock(), {}
        self.redis = None
        if url and url.startswith("redis"):
            import redis

            self.redis = redis.Redis.from_url(url)

    def get(self, room: str) -> int | None:
        if self.redis is not None:
            found = self.redis.get(f"floor:{room}")
            return int(found) if found is not None else None
        with self.lock:
            return self.steps.get(room)

    def set(self, room: str, step: int) -> None:
        if self.redis is not None:
            self.redis.set(f"floor:{room}", step)
            return
        with self.lock:
            self.steps[room] = step


@st.cache_resource
def rooms() -> Rooms:
    return Rooms(os.environ.get("ATTENTION_ROOMS"))


def draw_step(step: int) -> None:
    """The step: the softmax of X Xᵀ scaled by the step number, as a heatmap with its values, and printed."""
    scores = (1 + step / 10) * BOOK @ BOOK.T
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    cells = [{"row": TOKENS[i], "col": TOKENS[j], "value": float(weights[i, j]), "label": f"{weights[i, j]:.4f}"}
             for i in range(6) for j in range(6)]
    st.vega_lite_chart(spec={
        "datasets": {"cells": cells}, "data": {"name": "cells"}, "width": {"step": 50}, "height": {"step": 28},
        "encoding": {"x": {"field": "col", "type": "nominal", "sort": None},
                     "y": {"field": "row", "type": "nominal", "sort": None}},
        "layer": [{"mark": "rect", "encoding": {"color": {"field": "value", "type": "quantitative"}}},
                  {"mark": "text", "encoding": {"text": {"field": "label", "type": "nominal"}}}],
    }, width="content")
    st.code("tensor(" + np.array2string(weights, precision=4) + ")", language=None)


FRAME = os.environ.get("FLOOR_FRAME") == "1"
HEAL_JS = "export default function ({ setStateValue }) { window.ask = () => setStateValue('heal', 1); }"


@functools.cache
def _heal():
    return st.components.v2.component("floor_heal", js=HEAL_JS)

FILLER = "x" * 6000  # the app's style sheet and watchdog script are sent with every full run (6.1 and 4.4 KB)


def framed_student(room: str) -> None:
    """A following student's full run of the app, element for element, with none of its logic."""
    seen = rooms().get(room)
    with st.container(key="heartbeat"):
        st.html(f"<style>.st-key-heartbeat{{display:none}}</style><span data-x='{FILLER[:4300]}'></span>")
        _heal()(key="heal", data={"s": "floor"}, on_heal_change=lambda: None, height=0)  # the watchdog's heal
        heartbeat(room, seen)
    with st.container(key="class-bar"):
        st.markdown((f"Following the lecture · Step **{seen}** of {STEPS}" if seen else "No such room")
                    + f" · Room {room}")
    side_panel()
    st.html(f"<style>/* {FILLER} */</style>")
    st.html("<span></span>")
    st.header("Walkthrough")
    st.markdown("The whole chapter, step by step.")
    if seen:
        framed_step(seen)


@st.fragment(run_every=3600.0)
def side_panel() -> None:
    with st.sidebar:
        st.selectbox("Language", ["English", "Bahasa Indonesia", "Tiếng Việt", "한국어"], key="lang")


@st.fragment
def framed_step(step: int) -> None:
    with st.container(), st.container(), st.container():
        st.markdown(f"**3.3.{step % 3 + 1}** · step {step}")
        st.button("Back", key="back")
        st.button("Next", key="next")
        st.empty()
    with st.container(), st.container():
        with st.container(), st.container():
            st.markdown("**Attention weights**")
            draw_step(step)
            st.html("<span>" + "w" * 600 + "</span>")
            st.html("<span>" + "w" * 300 + "</span>")
            st.markdown("$$\\omega_{ij} = x_i \\cdot x_j$$")
            st.markdown("Each row sums to one.")
    with st.expander("The code"):
        pass


def framed_pages() -> dict[str, list]:
    """15 pages in 6 groups, as the app's chapter (each an empty function: only the navigation is sent)."""
    sizes = {"Start": 1, "3.3": 3, "3.4": 3, "3.5": 3, "3.6": 3, "More": 2}
    pages, n = {}, 0
    for group, size in sizes.items():
        pages[group] = [st.Page(lambda: None, title=f"{group} page {i + 1}", url_path=f"page{n + i}",
                                default=n + i == 0) for i in range(size)]
        n += size
    return pages


def lecturer(room: str) -> None:
    if room == "new":
        room = secrets.token_hex(4)
        rooms().set(room, 1)
        st.query_params["room"] = room
    step = rooms().get(room) or 1

    def move() -> None:
        rooms().set(room, min(step + 1, STEPS))

    with st.container(key="projection-bar", horizontal=True):
        st.markdown(f"Step **{step}** of {STEPS}")
        st.button("Next", key="next", shortcut="PageDown", on_click=move)
    draw_step(step)


@st.fragment(run_every=float(os.environ.get("ATTENTION_CLASS_HEARTBEAT_MS", "500")) / 1000)
def heartbeat(room: str, seen: int | None) -> None:
    if FRAME:  # the app's beat marker
        st.html(f'<span data-beat="{time.monotonic_ns()}" data-behind="0"></span>')
    if rooms().get(room) != seen:
        st.rerun(scope="app")


def student(room: str) -> None:
    seen = rooms().get(room)
    heartbeat(room, seen)
    with st.container(key="class-bar"):
        st.markdown(f"Step **{seen}** of {STEPS}" if seen else "No such room")
    if seen:
        draw_step(seen)


room_id = st.query_params.get("room", "")
if FRAME:
    st.set_page_config(page_title="Attention, live", layout="wide")
    st.navigation(framed_pages(), expanded=True)
if st.query_params.get("lecture") == "1":
    lecturer(room_id or "new")
elif room_id:
    (framed_student if FRAME else student)(room_id)
else:
    st.markdown("Open `?lecture=1` to lead a room, `?room=<id>` to follow one.")
