"""The matrix editor works like a spreadsheet: type down a column, paste a block, see it whole."""

from __future__ import annotations

import numpy as np
import torch

from attention import simple_self_attention
from tests.browser.harness import PATIENT_MS, ROOT, code_texts, wait_idle, wait_text
from ui.inputs.matrix import book_matrix
from ui.inputs.sidebar import COLUMN_PX, ROW_MARKERS_PX, TOKEN_PX

SHOTS = ROOT / "artifacts" / "screenshots"


def open_all_queries(page, server) -> None:
    page.goto(server.url + "/all-queries")
    page.wait_for_selector("h1")
    wait_idle(page)


def grid(page):
    return page.locator('[data-testid="stSidebar"] [data-testid="stDataFrame"]').first


def click_cell(page, row: int, col: int) -> None:
    """Click a body cell: row 0..n-1, col 0 = token, 1 = d1, ... (the header row is 35 px high)."""
    grid(page).scroll_into_view_if_needed()
    box = grid(page).locator("canvas").first.bounding_box()
    x = ROW_MARKERS_PX + (TOKEN_PX / 2 if col == 0 else TOKEN_PX + COLUMN_PX * (col - 0.5))
    page.mouse.click(box["x"] + x, box["y"] + 35 + 35 * row + 17)
    page.wait_for_timeout(100)


def expected_context(values: np.ndarray) -> str:
    return repr(simple_self_attention(torch.tensor(values, dtype=torch.float32))["context"])


def test_typing_down_a_column_with_enter_needs_no_clicks_between_cells(page, app_server):
    open_all_queries(page, app_server)
    click_cell(page, 0, 1)  # "Your", d1
    values = np.array(book_matrix().values, dtype=np.float32)
    for row, typed in enumerate(("0.11", "0.22", "0.33")):
        page.wait_for_timeout(300)  # a person's pause between two cells
        page.keyboard.type(typed[0])  # typing into a selected cell opens its editor with that key
        page.wait_for_timeout(150)  # the rest goes into the opened editor
        page.keyboard.type(typed[1:])
        page.wait_for_timeout(150)  # let the grid take the typed value before Enter commits it
        page.keyboard.press("Enter")  # commit, and the selection moves down one row
        values[row, 0] = float(typed)
        try:
            wait_text(page, expected_context(values)[:40], timeout_ms=PATIENT_MS)
        except Exception:
            page.screenshot(path=str(ROOT / "artifacts" / f"typing-failed-{row}.png"))
            raise
        wait_idle(page)
    assert expected_context(values) in code_texts(page)


def paste(page, tsv: str) -> None:
    """Put tab-separated text on the clipboard and press Ctrl+V, as a spreadsheet copy would."""
    page.evaluate("(text) => navigator.clipboard.writeText(text)", tsv)
    page.keyboard.press("Control+V")


def clipboard_page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1400},
                                  permissions=["clipboard-read", "clipboard-write"])
    return context, context.new_page()


def test_pasting_a_6x3_block_replaces_the_whole_matrix(browser, app_server):
    context, page = clipboard_page(browser)
    try:
        open_all_queries(page, app_server)
        block = np.round(np.arange(18, dtype=np.float32).reshape(6, 3) / 20 + 0.05, 2)
        click_cell(page, 0, 1)  # "Your", d1: the block's top-left corner
        paste(page, "\n".join("\t".join(f"{v:g}" for v in row) for row in block))
        wait_text(page, expected_context(block)[:40], timeout_ms=PATIENT_MS)
        wait_idle(page)
        assert expected_context(block) in code_texts(page)
    finally:
        context.close()


def test_a_pasted_block_with_a_bad_cell_is_refused_as_a_whole(browser, app_server):
    context, page = clipboard_page(browser)
    try:
        open_all_queries(page, app_server)
        click_cell(page, 0, 1)
        paste(page, "0.5\t0.5\t0.5\n0.5\tnope\t0.5")
        wait_text(page, "not applied", timeout_ms=PATIENT_MS)
        wait_idle(page)
        assert "none of the" in page.inner_text('[data-testid="stSidebar"]')
        assert expected_context(np.array(book_matrix().values)) in code_texts(page)  # no cell was taken
    finally:
        context.close()


def test_the_whole_matrix_is_visible_at_1280_px(browser, app_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_all_queries(page, app_server)
        page.get_by_role("spinbutton", name="Embedding width").fill("8")
        page.get_by_role("spinbutton", name="Embedding width").press("Enter")
        wait_text(page, "6 tokens × 8 dimensions")
        wait_idle(page)
        grid(page).scroll_into_view_if_needed()
        box = grid(page).bounding_box()
        sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
        assert box["x"] + box["width"] <= sidebar["x"] + sidebar["width"]
        overflow = page.evaluate("""() => { const s = document.querySelector(
            '[data-testid="stSidebar"] [data-testid="stDataFrame"] .dvn-scroller');
            return s ? s.scrollWidth - s.clientWidth : -1; }""")
        assert overflow == 0, f"the editor scrolls sideways by {overflow} px"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "matrix-1280.png"))
    finally:
        context.close()
