"""A page's own step-through redraws the step alone: → sends the step and its navigation, not the page's controls
drawn above it, and the address and the screen reader still follow the step (ui/script.py, rerun_alone)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.browser.harness import LISTEN_JS, PATIENT_MS, heard, wait_idle
from ui.announce import step_sentence
from ui.words.content import page_text


def _elements(frames: list[bytes]) -> list[str]:
    """The kinds of the elements the server sent in ``frames`` (its websocket messages)."""
    kinds = []
    for frame in frames:
        if isinstance(frame, str):
            continue
        message = ForwardMsg()
        message.ParseFromString(frame)
        if message.WhichOneof("type") == "delta" and message.delta.WhichOneof("type") == "new_element":
            kinds.append(message.delta.new_element.WhichOneof("type"))
    return kinds


def _step_in_address(page) -> str | None:
    return parse_qs(urlparse(page.url).query).get("step", [None])[0]


def test_a_step_redraws_the_step_alone_and_the_address_and_the_screen_reader_follow(page, app_server):
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(f"{app_server.url}/one-query?lecture=1")
    page.wait_for_selector('[data-testid="stMain"] .step-heading', timeout=PATIENT_MS)
    wait_idle(page)
    page.evaluate(LISTEN_JS)
    steps = page_text("one-query").steps
    assert _step_in_address(page) in (None, steps[0].name)  # the first step: named once the learner has moved

    frames.clear()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")  # the keys go to the page
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(n) => new URL(location.href).searchParams.get('step') === n", arg=steps[1].name,
                           timeout=PATIENT_MS)
    wait_idle(page)

    sent = _elements(frames)
    assert "code" in sent and "button" in sent, sent  # the step's lines of code, and its ← →
    # The page's controls above the stage (step-through, the query token, the normalisation) were not sent again.
    assert not {"checkbox", "selectbox", "radio"} & set(sent), sent
    total = int(re.search(r"Step 2 of (\d+)", page.inner_text('[data-testid="stMain"]')).group(1))
    assert heard(page) == [step_sentence(1, total, steps[1].caption)]
    assert page.locator(".step-heading").inner_text() == steps[1].caption

    # And back: the step before, said once.
    frames.clear()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("(n) => new URL(location.href).searchParams.get('step') === n", arg=steps[0].name,
                           timeout=PATIENT_MS)
    wait_idle(page)
    assert heard(page) == [step_sentence(0, total, steps[0].caption)]
