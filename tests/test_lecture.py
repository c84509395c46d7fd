"""Lecture mode, step-through and the chapter walkthrough (AppTest and plain Python)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import open_page as open_at
from tests.apptest import printed_tensors
from tests.lecture_apptest import walk_app
from ui.chapter import PAGES
from ui.lecture.walkthrough import WalkthroughError, decode, encode, load_bundled, parse
from ui.words.content import page_text

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BY_ID = {p.page_id: p for p in PAGES}
STEPPED = [p.page_id for p in PAGES if page_text(p.page_id).steps]
SECTIONS = [p.page_id for p in PAGES if page_text(p.page_id).title[:1].isdigit()]


def open_page(page_id: str, **params: str) -> AppTest:
    at = open_at(page_id, params=params)
    assert not at.exception, at.exception
    return at


def healthy(at: AppTest) -> bool:
    """No exception, and not the app's last-resort message either (it hides a page's crash)."""
    return not at.exception and not any("went wrong" in e.value for e in at.error)


def button(at: AppTest, label: str):
    (found,) = [b for b in at.button if b.label == label]
    return found


def on_screen(at: AppTest) -> str:
    """The step on screen: its position, caption, printed tensors and charts."""
    parts = [m.value for m in at.markdown] + printed_tensors(at) + [c.value for c in at.code]
    parts += [str(el.proto) for el in at.get("vega_lite_chart")]  # spec and data
    return "\n".join(parts)


def test_every_section_page_has_a_step_through():
    assert set(SECTIONS) <= set(STEPPED), sorted(set(SECTIONS) - set(STEPPED))


@pytest.mark.parametrize("page_id", STEPPED)
def test_next_shows_another_step_and_back_brings_the_same_one_back(page_id):
    at = open_page(page_id, lecture="1")
    first = on_screen(at)
    assert "Step **1** of" in first
    button(at, "Next").click().run()
    assert healthy(at)
    second = on_screen(at)
    assert "Step **2** of" in second and second != first
    assert at.query_params["step"]  # the step on screen is in the shareable link
    button(at, "Back").click().run()
    assert on_screen(at) == first


def test_a_control_changed_mid_step_keeps_the_step_and_updates_it_in_place():
    at = open_page("all-queries", lecture="1")
    while "Step **" in on_screen(at) and at.query_params.get("step") != "weights":
        button(at, "Next").click().run()
    before = on_screen(at)
    assert at.get("vega_lite_chart"), "the weights step draws its heatmap"
    at.toggle(key="w:all-queries:causal").set_value(True).run()
    after = on_screen(at)
    assert at.query_params["step"] == "weights"
    assert after != before and "masked" in after  # the weights now hide the future, same step


def test_lecture_mode_comes_from_the_link_and_shows_the_one_line_idea():
    at = open_page("causal-mask", lecture="1")
    idea = page_text("causal-mask").idea
    assert any(m.value == f"**{idea}**" for m in at.markdown)
    assert at.query_params["lecture"] == "1"
    plain = open_page("causal-mask")
    assert not any(m.value == f"**{idea}**" for m in plain.markdown)
    assert "lecture" not in plain.query_params and "step" not in plain.query_params


def test_a_shared_step_link_opens_on_that_step():
    at = open_page("causal-mask", lecture="1")
    button(at, "Next").click().run()
    button(at, "Next").click().run()
    step = at.query_params["step"]
    again = AppTest.from_file(APP, default_timeout=120)
    again.query_params["lecture"] = "1"
    again.query_params["step"] = step
    again.run()  # AppTest starts on the home page (a browser would start on the linked page)
    again.switch_page(BY_ID["causal-mask"].file).run()
    assert on_screen(again) == on_screen(at)


# ----- the walkthrough -------------------------------------------------------------------------


def test_the_bundled_walkthrough_walks_the_chapter():
    walk = load_bundled()
    assert 25 <= len(walk.steps) <= 40
    sections = {s.page for s in walk.steps}
    assert len(sections) >= 8
    order = [p.page_id for p in PAGES]
    positions = [order.index(s.page) for s in walk.steps]
    assert positions == sorted(positions), "the book's order"
    assert all(s.note for s in walk.steps)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[step]]\npage = "no-such-page"\nstep = "scores"', "no-such-page"),
        ('[[step]]\npage = "causal-mask"\nstep = "nope"', "has no step 'nope'"),
        ('[[step]]\npage = "causal-mask"\nstep = "scores"\ncontrols = { causal = [1, 2] }', "wrong kind"),
        ('[[step]]\npage = "causal-mask"\nstep = "scores"\ncolour = "red"', "unknown fields"),
        ("title = 'no steps'", r"no \[\[step\]\]"),
        ("this is not toml = = =", "not valid TOML"),
    ],
)
def test_a_bad_walkthrough_file_gets_a_clear_message(text, message):
    with pytest.raises(WalkthroughError, match=message):
        parse(text)


def test_a_walkthrough_travels_in_a_link():
    text = '[[step]]\npage = "causal-mask"\nstep = "scores"\nnote = "hi"'
    assert decode(encode(text)) == parse(text)
    with pytest.raises(WalkthroughError, match="damaged"):
        decode("%%%not-base64")


def test_the_walkthrough_moves_across_pages_with_next():
    at = walk_app()
    steps = load_bundled().steps
    seen = set()
    for k, step in enumerate(steps):
        seen.add(at.query_params["walk"])
        shown = [h.value for h in at.header]
        assert page_text(step.page).title in shown, (k + 1, step.page, shown)  # the step's own page runs
        assert step.note in " ".join(m.value for m in at.markdown)  # reading alone: the note is the guide
        if k < len(steps) - 1:
            button(at, "Next").click().run()
            assert healthy(at), at.query_params["walk"]
    assert len(seen) == len(steps)


def test_unknown_controls_and_refused_values_are_said_on_the_page():
    text = ('[[step]]\npage = "causal-mask"\nstep = "scores"\nnote = "x"\n'
            'controls = { colour = "red", d_out = -5 }')
    at = walk_app(text)
    warnings = " ".join(w.value for w in at.warning)
    assert "colour" in warnings and "d_out" in warnings
    assert not at.exception


def test_a_damaged_walkthrough_link_falls_back_to_the_chapter_with_a_message():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["wt"] = encode('[[step]]\npage = "nowhere"\nstep = "x"')
    at.run()
    at.switch_page(BY_ID["walkthrough"].file).run()
    assert not at.exception
    assert any("nowhere" in e.value for e in at.error)
    assert at.query_params["walk"] == "1"


@pytest.mark.parametrize("page_id", STEPPED)
def test_every_step_of_every_page_draws(page_id):
    at = open_page(page_id, lecture="1")
    total = int(on_screen(at).split("Step **1** of ")[1].split()[0])
    for _ in range(total - 1):
        button(at, "Next").click().run()
        assert healthy(at), at.query_params["step"]
