"""Downloads arrive while the lecture moves, in Chromium: a following student's walkthrough notebook and the
console's "Lesson record (CSV)", five times each, while the projection moves every 2 s. Each is a plain GET of one of
the app's own routes (ui/shell/downloads.py), so a rerun of a window between the click and the fetch cannot cancel it
(a Streamlit download's file lived only as long as the run that drew it: 3 of 4 were cancelled in a lecture). 10 of
10 must arrive, whole.

The student follows on the light page (GET /follow/<room>), which has no download of its own: its notebook is the
walkthrough's route at the lecture's state and step, as its "Explore this step" link names them (``s``, ``walk``,
``wt``), fetched from the student's browser (its cookies, its origin) while the projection moves on.
"""

from __future__ import annotations

import csv
import time
from contextlib import ExitStack
from urllib.parse import parse_qs, urlencode, urlsplit

import nbformat

from tests.browser.lecture import open_console, open_projection, open_student, wait_light, wait_step
from ui.lecture.lesson import COLUMNS
from ui.words.content import app_text

MOVE_SECONDS = 2.0


def fetched(page, label: str, timeout_ms: float = 60_000) -> str:
    """Follow the download link named ``label``; the downloaded file's text."""
    link = page.get_by_role("link", name=label)
    link.first.wait_for(timeout=timeout_ms)
    with page.expect_download(timeout=timeout_ms) as caught:
        link.first.click()
    failure = caught.value.failure()
    assert failure is None, f"{label}: the download failed ({failure})"
    return open(caught.value.path(), encoding="utf-8").read()  # noqa: SIM115 - Playwright's own file


def followers_notebook(student) -> tuple[int, str]:
    """The walkthrough's notebook at the state and step the light page's "Explore this step" names, fetched by the
    student's browser: (the step it marks, the file's text)."""
    explore = student.locator("#explore")
    explore.wait_for(state="visible", timeout=60_000)
    query = parse_qs(urlsplit(explore.get_attribute("href")).query)
    step = int(query["walk"][0])
    params = {"m": query.get("s", [None])[0], "wt": query.get("wt", [None])[0], "at": step, "lang": "en"}
    address = student.url.split("/follow/")[0] + "/download/walkthrough?" + urlencode(
        {k: v for k, v in params.items() if v is not None})
    response = student.context.request.get(address, timeout=60_000)
    assert response.ok, f"the notebook at step {step}: {response.status} {response.text()[:300]}"
    assert "attachment" in response.headers.get("content-disposition", "")
    return step, response.text()


def test_a_followers_notebook_and_the_lesson_record_arrive_while_the_lecture_moves(browser, app_server):
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=1, new_room=True)
        console = open_console(context, projection)
        student = open_student(stack, browser, app_server.url, room)
        arrived = []
        for k in range(2, 7):
            started = time.monotonic()
            projection.bring_to_front()
            projection.keyboard.press("PageDown")  # the class's windows rerun while the downloads are under way
            at, text = followers_notebook(student)
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
            on_screen = [n for n, c in enumerate(nb.cells) if "On your screen" in "".join(c.source)]
            assert len(on_screen) == 1 and f"### Step {at} of" in "".join(nb.cells[on_screen[0] - 1].source)
            arrived.append("notebook")
            record = list(csv.reader(fetched(console, app_text("lesson_record")).splitlines()))
            assert record[0] == list(COLUMNS)
            arrived.append("record")
            wait_step(projection, k)
            wait_light(student, k)
            time.sleep(max(0.0, MOVE_SECONDS - (time.monotonic() - started)))
        assert arrived.count("notebook") == 5 and arrived.count("record") == 5
