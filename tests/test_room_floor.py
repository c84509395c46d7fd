"""The framed floor (benchmarks/minimal_room_app.py with FLOOR_FRAME=1) draws what a following student's run of the
app draws, element for element: bench_room_streamlit's ``--framed-floor`` row is Streamlit's cost for that page only
while the two stay alike. A following student's page that grows (or shrinks) must take the framed floor with it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.lecture_apptest import lecture, poll, student

FLOOR = str(Path(__file__).resolve().parents[1] / "benchmarks" / "minimal_room_app.py")


def _nodes(node) -> int:
    """The blocks and elements under ``node``: each one is a message of the run that draws it."""
    children = getattr(node, "children", {}) or {}
    return sum(1 + _nodes(child) for child in children.values())


def _floor_student(monkeypatch) -> AppTest:
    monkeypatch.setenv("FLOOR_FRAME", "1")
    projection = AppTest.from_file(FLOOR, default_timeout=60)
    projection.query_params["lecture"] = "1"
    projection.query_params["room"] = "new"
    projection.run()
    room = projection.query_params["room"]
    at = AppTest.from_file(FLOOR, default_timeout=60)
    at.query_params["room"] = room
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_framed_floor_draws_as_many_elements_as_a_following_students_run(monkeypatch):
    _, room = lecture()
    pupil = student(room, page="walkthrough")
    poll(pupil)
    floor = _floor_student(monkeypatch)
    app_nodes, floor_nodes = _nodes(pupil._tree), _nodes(floor._tree)
    assert floor.markdown and "Step **1** of 33" in floor.markdown[0].value  # it follows its room
    assert abs(app_nodes - floor_nodes) <= 2, (app_nodes, floor_nodes)  # the heartbeat box: 1 apart
