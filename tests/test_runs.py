"""How many full runs of the app a lecture's interactions cost: one each. A window sees its room before the page is
drawn (ui/lecture/protocol.py), so nothing has to be drawn twice.

A full run is counted where app.py asks the lecture before its page (``lecture.before_page``: once per run
of app.py); AppTest carries out a ``st.rerun`` inside the same ``run()`` call, so a second run shows here.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.lecture_apptest import lecture, student, texts
from ui.inputs.matrix import InputMatrix, book_matrix
from ui.lecture import lecture as lecture_module
from ui.state import Key
from ui.words.content import app_text


@pytest.fixture
def runs(monkeypatch):
    """A counter of full runs (of any AppTest session of this test), reset by ``runs.clear()``."""
    seen: list[str] = []
    original = lecture_module.before_page

    def counted(page_id: str):
        seen.append(page_id)
        return original(page_id)

    monkeypatch.setattr(lecture_module, "before_page", counted)
    return seen


def _next(at) -> None:
    (button,) = [b for b in at.button if (b.key or "").startswith("step_next:")]
    button.click().run()
    assert not at.exception, at.exception


def _edited() -> InputMatrix:
    m = book_matrix()
    values = np.array(m.values)
    values[1, 0] = 0.9
    return InputMatrix(m.tokens, values)


def test_an_exploring_students_cell_edit_takes_one_full_run(runs):
    projection, room = lecture(walk="9")
    pupil = student(room)
    assert app_text("class_exploring") in texts(pupil)
    runs.clear()
    pupil.session_state[Key.MATRIX] = _edited()  # what the data editor's callback does before the run
    pupil.run()
    assert not pupil.exception
    assert app_text("class_exploring") in texts(pupil)
    assert len(runs) == 1, runs


def test_the_lecturers_pagedown_takes_one_run_on_the_projection(runs):
    projection, _ = lecture(walk="9")
    runs.clear()
    _next(projection)
    assert projection.query_params["walk"] == "10"
    assert len(runs) == 1, runs
