"""Lecture mode at a projector's 1280x720, driven with the keys a presentation clicker sends."""

from __future__ import annotations

import os
import statistics

import pytest

from tests.browser.harness import PATIENT_MS, ROOT, sized_page, wait_idle

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
SIZES_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] p, [data-testid="stMain"] li'))
    .filter(e => e.offsetParent !== null && e.textContent.trim())
    .map(e => parseFloat(getComputedStyle(e).fontSize))"""
STEP_JS = """() => { const m = document.querySelector('[data-testid="stMain"]');
    const t = Array.from(m.querySelectorAll('p')).find(p => /^Step \\d+ of \\d+$/.test(p.textContent.trim()));
    return t ? t.textContent.trim() : null; }"""


CHANGED_JS = """(before) => { const m = document.querySelector('[data-testid="stMain"]');
    return m && m.innerText !== before; }"""


@pytest.fixture
def projector(browser):
    with sized_page(browser, 1280, 720) as page:
        yield page


def shown(page) -> str:
    """What the step shows: its position, caption, printed tensor and drawn chart labels.

    The labels are sorted: a chart updated in place may keep its legend's labels in another DOM order."""
    return page.evaluate("""() => { const m = document.querySelector('[data-testid="stMain"]');
        const text = Array.from(m.querySelectorAll('p, code')).map(e => e.textContent).join('|');
        const charts = Array.from(m.querySelectorAll('.vega-embed svg text')).map(t => t.textContent).sort()
            .join(',');
        return text + '#' + charts; }""")


def press(page, key: str, before: str) -> None:
    page.keyboard.press(key)
    page.wait_for_function(CHANGED_JS, arg=before, timeout=PATIENT_MS)
    wait_idle(page)


def test_lecture_mode_is_large_full_width_and_steps_with_the_arrow_keys(projector, app_server):
    page = projector
    page.goto(app_server.url + "/causal-mask?lecture=1")
    page.wait_for_selector("h1")
    wait_idle(page)
    assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
    sizes = page.evaluate(SIZES_JS)
    assert statistics.median(sizes) >= 20, sizes
    main = page.locator('[data-testid="stMain"]').bounding_box()
    assert main["width"] >= 1200  # the sidebar is out of the way
    first = shown(page)
    page.wait_for_timeout(300)
    SHOTS.mkdir(parents=True, exist_ok=True)
    text = page.inner_text('[data-testid="stMain"]')
    press(page, "ArrowRight", text)
    second = shown(page)
    assert second != first and page.evaluate(STEP_JS) == "Step 2 of 9"
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "lecture-causal-mask-keys.png"))
    press(page, "ArrowLeft", page.inner_text('[data-testid="stMain"]'))
    assert shown(page) == first  # exactly the previous step again
    assert "step=queries" in page.url and "lecture=1" in page.url


def test_the_plain_walkthrough_steps_with_the_arrow_keys_and_next(page, app_server):
    """Outside a lecture the walkthrough's page runs as a fragment: its clicker's keys and Next still move it."""
    page.goto(f"{app_server.url}/walkthrough?walk=4")
    page.get_by_role("button", name="Next").wait_for(timeout=60_000)
    wait_idle(page)
    at = "() => new URL(location.href).searchParams.get('walk')"
    for press, want in (("ArrowRight", "5"), ("PageDown", "6"), ("ArrowLeft", "5")):
        page.keyboard.press(press)
        page.wait_for_function(f"(w) => ({at})() === w", arg=want, timeout=60_000)
        wait_idle(page)
    page.get_by_role("button", name="Next").click()
    page.wait_for_function(f"(w) => ({at})() === w", arg="6", timeout=60_000)
