"""'Open as a notebook' in Chromium: what the button downloads is the notebook of what is on screen.

A page opened from a shared link (its matrix and settings), in Korean; the same page in step-through (the step on
screen is marked); the plain walkthrough; and a student of a lecture's room who explores the lecture's step from the
light page ("Explore this step": the full app, at the lecture's state). Each download is a valid notebook whose
cells carry the window's state; that such a notebook prints the app's values is tests/test_notebook.py's to show.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack

import nbformat

from tests.browser.harness import wait_idle
from tests.browser.lecture import explore, open_projection, open_student, wait_light
from ui.inputs.matrix import InputMatrix
from ui.lecture.walkthrough import load_bundled
from ui.sharing.codec import encode_state
from ui.words.content import app_text

MATRIX = InputMatrix(("le", "chat", "dort", "ici"), [[0.1, -0.5, 0.3], [1.2, 0.4, -0.7], [0.0, 0.9, 0.25],
                                                    [-1.5, 0.6, 0.8]])


def download(page, label: str) -> dict:
    """Follow the download link named ``label`` and read the notebook it downloads."""
    button = page.get_by_role("link", name=label)
    button.wait_for(timeout=60_000)
    with page.expect_download(timeout=60_000) as caught:
        button.click()
    text = open(caught.value.path(), encoding="utf-8").read()  # noqa: SIM115 - Playwright's own file
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    assert caught.value.suggested_filename.endswith(".ipynb")
    return json.loads(text)


def sources(nb: dict, kind: str) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]


def test_a_pages_notebook_carries_the_links_matrix_settings_and_language(browser, app_server):
    controls = {"seed": 5, "d_out": 3, "qkv_bias": True, "causal": False}
    link, _ = encode_state(MATRIX, {"causal-mask": controls})
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{app_server.url}/causal-mask?lang=ko&s={link}")
        wait_idle(page)
        nb = download(page, app_text("notebook_button", lang="ko"))
        code = sources(nb, "code")
        assert "tokens = ['le', 'chat', 'dort', 'ici']" in code[1] and "[1.2, 0.4, -0.7]" in code[1]
        assert all(f"{name} = {value!r}" in code[2] for name, value in controls.items()), code[2]
        assert not any("mask_simple" in c for c in code), "the mask is off: no masking cells"
        words = "\n".join(sources(nb, "markdown"))
        assert re.search("[가-힣]", words) and "import" not in words
        assert not any(re.search(r"^(import|from) (?!torch)", c, re.M) for c in code), "torch only"

        page.goto(f"{app_server.url}/causal-mask?lang=en")  # the book's state, stepped through to its 3rd step
        wait_idle(page)
        page.get_by_text("Step through").click()
        wait_idle(page)
        for _ in range(2):
            page.get_by_role("button", name=app_text("step_next")).click()
            wait_idle(page)
        marked = download(page, app_text("notebook_button"))
        on_screen = [k for k, c in enumerate(marked["cells"]) if "On your screen" in "".join(c["source"])]
        assert len(on_screen) == 1
        after = marked["cells"][on_screen[0] + 1]
        assert after["metadata"]["attention"]["prints"] == ["scores"]
    finally:
        context.close()


def test_the_walkthrough_and_an_exploring_student_offer_the_whole_lecture(browser, app_server):
    steps = len(load_bundled().steps)
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        stack.callback(context.close)
        plain = context.new_page()
        plain.goto(f"{app_server.url}/walkthrough?walk=5")
        wait_idle(plain)
        nb = download(plain, app_text("walk_notebook_button"))
        marks = [k for c in nb["cells"] if c["cell_type"] == "code" for k in c["metadata"].get("attention", {})
                 .get("walk_steps", [])]
        assert sorted(marks) == list(range(1, steps + 1))
        on_screen = [k for k, c in enumerate(nb["cells"]) if "On your screen" in "".join(c["source"])]
        assert len(on_screen) == 1 and "### Step 5 of" in "".join(nb["cells"][on_screen[0] - 1]["source"])

        projection, room = open_projection(context, app_server.url, walk_to=2, new_room=True)
        student = open_student(stack, browser, app_server.url, room, accept_downloads=True,
                               viewport={"width": 1280, "height": 900})
        wait_light(student, 2)
        explore(student, room)
        theirs = download(student, app_text("walk_notebook_button"))
        assert sources(theirs, "code") == sources(nb, "code")  # the lecture's matrix and settings
