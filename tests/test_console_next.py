"""The presenter console's "Next": the next step's words, and its picture in small when its numbers are known
(ui/lecture/console.py, ui/draw/thumbnail.py)."""

from __future__ import annotations

import numpy as np

from tests.lecture_apptest import open_console, step_on, token_of, walk_app
from ui.draw.thumbnail import thumbnail_svg


def pictures(at) -> list[str]:
    return [h.proto.body for h in at.get("html") if h.proto.body.startswith('<div class="next-picture">')]


def test_a_thumbnail_is_a_few_shapes_on_the_heatmaps_scales():
    weights = np.full((6, 6), 1 / 6)
    svg = thumbnail_svg(weights, True, "next")
    assert svg.startswith("<svg") and svg.count("<rect") == 36 and 'aria-label="next"' in svg
    assert thumbnail_svg(np.zeros((2, 6, 6)), False, "x").count("<rect") == 36  # the first batch element
    assert thumbnail_svg(np.array([0.2, -0.5, 0.9]), False, "x").count("<rect") == 3  # bars
    assert thumbnail_svg(np.array(1.5), False, "x") is None  # a number has no picture
    assert thumbnail_svg(np.ones((200, 100)), True, "x").count("<rect") <= 12 * 12  # averaged in blocks


def test_the_console_shows_the_next_step_in_small_when_its_page_is_on_screen():
    projection = walk_app(lecture="1", walk="5")  # one-query: weights_sum, then weights_softmax on the same page
    token = token_of(projection)
    console = open_console(token)
    assert step_on(console) == "5"
    console.run()  # its page has run once: the next step's numbers are known
    (picture,) = pictures(console)
    assert "The next step in small:" in picture and picture.count("<rect") == 6  # six weights, as bars
    console.button(key="step_next:walk").click().run()
    console.button(key="step_next:walk").click().run()  # step 7; the next is on another page
    assert step_on(console) == "7" and not pictures(console)
