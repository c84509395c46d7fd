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
"""

import os
import secrets
import threading

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
if st.query_params.get("lecture") == "1":
    lecturer(room_id or "new")
elif room_id:
    student(room_id)
else:
    st.markdown("Open `?lecture=1` to lead a room, `?room=<id>` to follow one.")
