"""A screen-reader learner in Indonesian, keyboard only, in Chromium (shared/reviews/a11y-screen-reader.md): each
page has its own title; choosing another query on 3.3.1 and another head count on 3.6.1 is heard once, through
the page's one live region, in Indonesian, naming the new result as the package computes it; every answer field
and Check button of a page has a name of its own; and a chart's cell sentences count every cell, masked ones too.
(English, 3.5.1, the matrix, a control, a first-try Correct and the step-through: tests/browser/test_keyboard.py.)"""

from __future__ import annotations

from attention import AttentionConfig, book_inputs, simple_attention_for_query
from attention.explore import RunOptions, stacking_heads
from tests.browser.harness import LISTEN_JS, heard, wait_idle
from ui.announce import heads_sentence, weights_sentence
from ui.chapter import page_title
from ui.words import content
from ui.words.content import app_text, follow_language

LANG = "id"
LABELS = ["Your", "journey", "starts", "with", "one", "step"]
MAIN = '[data-testid="stMain"]'
NAMES_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] input, [data-testid="stMain"] button'))
    .filter(e => e.closest('[class*="st-key-check-"]')).map(e => e.getAttribute('aria-label')
      || (e.labels && e.labels[0] ? e.labels[0].textContent : '') || e.textContent.trim())"""


def in_indonesian(build):
    """What the app says in Indonesian (its words follow the language it is told)."""
    before = content._language_source
    follow_language(lambda: LANG)
    try:
        return build()
    finally:
        follow_language(before)


def open_at(page, url: str, page_id: str) -> None:
    page.goto(f"{url}/{page_id}?lang={LANG}")
    page.wait_for_selector(f"{MAIN} h1")
    wait_idle(page)
    page.evaluate(LISTEN_JS)
    title = in_indonesian(lambda: app_text("page_title_of", page=page_title(page_id, LANG)))
    page.wait_for_function("(t) => document.title === t", arg=title, timeout=20_000)


def test_a_screen_reader_hears_the_query_and_the_heads_in_indonesian(browser, app_server):
    context = browser.new_context(locale="id-ID")
    try:
        page = context.new_page()
        open_at(page, app_server.url, "one-query")
        # Another query, from the keyboard: the select box, its next option (the arrow opens the list there), Enter.
        page.locator('[class*="st-key-w-one-query-query"] input').focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        wait_idle(page)
        expected = in_indonesian(lambda: weights_sentence(simple_attention_for_query(book_inputs(), 2), LABELS,
                                                          {"query": 2}))
        assert heard(page) == [expected]
        # Every answer field and Check button of the page has a name of its own.
        page.locator(f'{MAIN} [data-testid="stExpander"] summary').last.focus()
        page.keyboard.press("Enter")
        wait_idle(page)
        names = page.evaluate(NAMES_JS)
        assert len(names) >= 4 and len(set(names)) == len(names), names
        heard(page, settle_ms=0)

        open_at(page, app_server.url, "stacking-heads")
        heads = page.locator('[class*="st-key-w-stacking-heads-num_heads"] input')
        heads.focus()
        page.keyboard.press("ArrowUp")  # 2 heads -> 3
        page.keyboard.press("Enter")
        wait_idle(page)
        result = stacking_heads(book_inputs(), AttentionConfig(3, 6, 6, 0.0, 3, False, causal=True), RunOptions())
        expected = in_indonesian(lambda: heads_sentence(result, {"heads": 3}))
        said = heard(page)
        assert len(said) == 1 and said[0].startswith(expected), said
    finally:
        context.close()


CELLS_JS = """() => Array.from(document.querySelectorAll('[data-testid="stVegaLiteChart"]')).map(c =>
    Array.from(c.querySelectorAll('path[role="graphics-symbol"]')).map(p => p.getAttribute('aria-label') || ''))"""


def test_a_masked_heatmap_says_every_cell_to_a_screen_reader_masked_ones_too(page, app_server):
    """3.5.1's masked weights: 36 cell sentences, 15 of them "masked" (the chart skipped those 15)."""
    page.goto(f"{app_server.url}/causal-mask")
    page.wait_for_selector('[data-testid="stVegaLiteChart"] path[role="graphics-symbol"]', timeout=60_000)
    wait_idle(page)
    masked = app_text("a11y_cell_masked", lang="en", row_title="query", row="Your", col_title="key", col="journey")
    charts = page.evaluate(CELLS_JS)
    chart = next(c for c in charts if masked in c)
    said_masked = [s for s in chart if s.endswith(masked.rsplit(":", 1)[-1])]
    assert len(chart) == 36 and len(said_masked) == 15, (len(chart), len(said_masked))
