"""The app in a real browser: Debian's headless chromium driven by Playwright."""

from __future__ import annotations

import os
import re
from urllib.parse import urlparse

import numpy as np
import pytest
import torch

from attention import simple_self_attention
from tests.browser.harness import (
    PATIENT_MS,
    ROOT,
    chart_texts,
    code_texts,
    edit_matrix_cell,
    navigate,
    open_page,
    sized_page,
    url_of,
    wait_charts,
    wait_idle,
    wait_text,
)
from ui.chapter import PAGES
from ui.inputs.matrix import book_matrix

# `UPDATE_SCREENSHOTS=1 make test` refreshes the pictures in docs/screenshots; otherwise they go to artifacts/.
SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")


def printed(t: torch.Tensor) -> str:
    return repr(t)


@pytest.fixture(scope="module")
def tour(browser):
    """One tab that opens each page from the navigation in turn, as a learner touring the chapter does."""
    with sized_page(browser, 1400, 2200) as tab:
        yield tab


@pytest.mark.parametrize("info", PAGES, ids=[p.page_id for p in PAGES])
def test_every_page_opens_without_errors_and_is_photographed(tour, app_server, info):
    if not tour.url.startswith(app_server.url):
        open_page(tour, app_server, info.page_id)
    elif tour.evaluate("location.pathname") != urlparse(url_of(app_server, info.page_id)).path:
        navigate(tour, info.page_id)
    assert tour.inner_text("h1").strip() == info.title
    assert tour.locator('[data-testid="stException"]').count() == 0
    body = tour.inner_text("body")
    assert "Traceback" not in body and "Page not found" not in body
    wait_charts(tour)  # Vega draws after the run ends: the picture shows the charts
    tour.evaluate("() => document.activeElement?.blur()")  # (a page opened from the navigation focuses its heading)
    SHOTS.mkdir(parents=True, exist_ok=True)
    tour.screenshot(path=str(SHOTS / f"{info.page_id}.png"), full_page=True)


def test_editing_a_cell_updates_heatmap_and_context(page, app_server):
    open_page(page, app_server, "all-queries")
    book = book_matrix()
    assert printed(simple_self_attention(book.tensor())["context"]) in code_texts(page)
    assert "0.9544" in chart_texts(page)  # x(1) . x(2) in the score heatmap

    edit_matrix_cell(page, row=1, col=1, value="0.9")  # journey, d1: 0.55 -> 0.9
    values = np.array(book.values)
    values[1, 0] = 0.9
    expected = simple_self_attention(torch.tensor(values))
    wait_text(page, printed(expected["context"])[:40])
    wait_idle(page)
    assert printed(expected["context"]) in code_texts(page)
    labels = chart_texts(page)
    assert f"{expected['scores'][0, 1].item():.4f}" in labels  # the heatmap cell changed too
    assert "0.9544" not in labels


def commit_prediction(page) -> None:
    """3.3.2 draws its weights once the learner has predicted them (Check yourself): guess, then Check."""
    panel = page.locator(".st-key-check-all-queries-predict_top")
    panel.get_by_text("journey").click()
    wait_idle(page)
    page.locator(".st-key-check-all-queries-predict_top-check").get_by_role("button").click()
    wait_text(page, "Correct", where='[data-testid="stMain"]')
    wait_idle(page)


def test_causal_toggle_masks_the_upper_triangle(page, app_server):
    open_page(page, app_server, "all-queries")
    commit_prediction(page)
    assert chart_texts(page).count("masked") == 0
    page.get_by_text("From later sections").click()  # 3.3.2 folds the mask, which 3.5.1 introduces
    page.get_by_text("Causal mask", exact=True).click()
    page.wait_for_function("() => Array.from(document.querySelectorAll('.vega-embed svg text'))"
                           ".filter(t => t.textContent === 'masked').length >= 30", timeout=PATIENT_MS)
    wait_idle(page)
    # 15 cells above the diagonal are hidden (labelled, not drawn as zero), in the scores and in the weights ...
    assert chart_texts(page).count("masked") == 30
    # ... and the printed weights have exact zeros there.
    weights = next(c for c in code_texts(page) if c.startswith("tensor([[1.0000, 0.0000, 0.0000"))
    rows = re.findall(r"\[([^\[\]]+)\]", weights)
    for i, row in enumerate(rows):
        cells = [float(v) for v in row.split(",")]
        assert all(v == 0.0 for v in cells[i + 1:]), row


def head_titles(page) -> list[str]:
    return sorted({t for t in chart_texts(page) if re.fullmatch(r"head \d+", t)})


def test_changing_heads_shows_one_heatmap_per_head(page, app_server):
    open_page(page, app_server, "weight-splits")
    assert head_titles(page) == ["head 1", "head 2"]
    d_out = page.get_by_role("spinbutton", name="d_out", exact=True)
    d_out.fill("8")
    d_out.press("Enter")
    wait_idle(page)
    slider = page.get_by_role("slider").first  # "Number of heads": divisors of 8 -> 1, 2, 4, 8
    slider.focus()
    page.keyboard.press("ArrowRight")  # 2 -> 4
    page.wait_for_function("() => Array.from(document.querySelectorAll('.vega-embed svg text'))"
                           ".some(t => t.textContent === 'head 4')", timeout=PATIENT_MS)
    wait_idle(page)
    assert head_titles(page) == ["head 1", "head 2", "head 3", "head 4"]


def test_an_edit_is_kept_when_switching_pages(page, app_server):
    open_page(page, app_server, "all-queries")
    edit_matrix_cell(page, row=5, col=0, value="stride")  # rename "step"
    wait_text(page, "stride")
    edit_matrix_cell(page, row=0, col=2, value="0.5")  # Your, d2: 0.15 -> 0.5
    values = np.array(book_matrix().values)
    values[0, 1] = 0.5
    expected = simple_self_attention(torch.tensor(values))
    wait_text(page, printed(expected["context"])[:40])

    page.locator('[data-testid="stSidebarNav"]').get_by_text("3.3.1 Simple self-attention").click()
    page.wait_for_function("() => document.querySelector('h1')?.innerText.startsWith('3.3.1')")
    wait_idle(page)
    assert "stride" in chart_texts(page)
    scores_row = repr(torch.tensor(values) @ torch.tensor(values)[1])  # query x(2) "journey"
    assert scores_row in code_texts(page)

    page.goto(url_of(app_server, "all-queries"))  # a new session: defaults again, nothing leaks
    page.wait_for_selector("h1")
    wait_idle(page)
    assert "stride" not in chart_texts(page)


def test_a_folded_section_draws_its_contents_when_opened_and_keeps_them_across_a_control_change(page, app_server):
    open_page(page, app_server, "causal-class")
    assert not any("class CausalAttention" in t for t in code_texts(page))  # folded: not even in the DOM
    page.locator("summary", has_text="The code that ran").first.click()
    wait_text(page, "class CausalAttention")
    d_out = page.locator('[data-testid="stMain"] input[aria-label="d_out"]').first
    d_out.fill("3")
    d_out.press("Enter")
    wait_idle(page)
    assert any("class CausalAttention" in t for t in code_texts(page))  # still open after the page reran
    page.get_by_text("Presets and reset").first.click()  # the sidebar's folded panels open the same way
    page.get_by_role("button", name="Load preset").wait_for(timeout=PATIENT_MS)
