"""A screen-reader learner in Indonesian, keyboard only, in Chromium (shared/reviews/a11y-screen-reader.md): each
page has its own title; choosing another query on 3.3.1 and another head count on 3.6.1 is heard once, through
the page's one live region, in Indonesian, naming the new result as the package computes it; every answer field
and Check button of a page has a name of its own; and a chart's cell sentences count every cell, masked ones too.
(English, 3.5.1, the matrix, a control, a first-try Correct and the step-through: tests/browser/test_keyboard.py.)"""

from __future__ import annotations

import re

from attention import AttentionConfig, book_inputs, causal_attention_step_by_step, simple_attention_for_query
from attention.explore import RunOptions, stacking_heads
from tests.browser.harness import LISTEN_JS, MOUSE_JS, PATIENT_MS, described, heard, settled, tab_to, wait_idle
from ui.announce import heads_sentence, mask_sentence, step_sentence, weights_sentence
from ui.chapter import page_title
from ui.words import content
from ui.words.content import app_text, follow_language, page_text

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
    page.wait_for_function("(t) => document.title === t", arg=title, timeout=PATIENT_MS)


def test_a_screen_reader_hears_the_query_the_mask_the_matrix_each_step_and_the_heads_in_indonesian(browser, app_server):
    context = browser.new_context(locale="id-ID")
    try:
        page = context.new_page()
        page.add_init_script(MOUSE_JS.join(["(", ")()"]))
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
        # The panel's fields come with the run the opened fold asks for, which may start after the page looked idle.
        page.wait_for_function(f"() => ({NAMES_JS})().length >= 4", timeout=60_000)
        names = page.evaluate(NAMES_JS)
        assert len(names) >= 4 and len(set(names)) == len(names), names
        heard(page, settle_ms=0)

        open_at(page, app_server.url, "causal-mask")
        _results_are_one_skip_away(page)
        _help_is_a_description(page)
        _mask_matrix_and_steps(page)

        # Another page, from the navigation: its own title, and the focus on its heading.
        title = page_title("stacking-heads", LANG)
        tab_to(page, lambda f: f["testid"] == "stSidebarNavLink" and page.evaluate(
            "() => document.activeElement.getAttribute('href') || ''").endswith("/stacking-heads"), backwards=True,
            limit=200)
        page.keyboard.press("Enter")
        page.wait_for_url("**/stacking-heads**")
        page.wait_for_function("(t) => document.title === t", timeout=PATIENT_MS,
                               arg=in_indonesian(lambda: app_text("page_title_of", page=title)))
        page.wait_for_function("(t) => document.activeElement.tagName === 'H1' && document.activeElement"
                               ".textContent === t", arg=title, timeout=PATIENT_MS)
        heard(page, settle_ms=0)
        heads = page.locator('[class*="st-key-w-stacking-heads-num_heads"] input')
        heads.focus()
        page.keyboard.press("ArrowUp")  # 2 heads -> 3
        page.keyboard.press("Enter")
        wait_idle(page)
        result = stacking_heads(book_inputs(), AttentionConfig(3, 6, 6, 0.0, 3, False, causal=True), RunOptions())
        expected = in_indonesian(lambda: heads_sentence(result, {"heads": 3}))
        said = heard(page)
        assert len(said) == 1 and said[0].startswith(expected), said
        assert page.evaluate("window.__mouse") == 0
    finally:
        context.close()


ACTIVE_JS = """() => { const e = document.activeElement;
    const box = e && e.closest('[data-testid="stElementContainer"], [data-testid="stElementToolbar"]');
    return {tag: e.tagName, text: e.textContent, href: e.getAttribute('href') || '', cls: e.className || '',
            chart: !!(box && box.parentElement && box.parentElement.querySelector('[data-testid="stVegaLiteChart"]')),
            key: (Array.from((e.closest('[class*="st-key-"]') || {classList: []}).classList)
                  .find(c => c.startsWith('st-key-')) || '')}; }"""


def active(page) -> dict:
    return page.evaluate(ACTIVE_JS)


def _results_are_one_skip_away(page) -> None:
    """The first Tab stop is "Skip to the results": it takes the focus to the first chart's heading (an H2), and the
    next Tab is in that chart. From "Skip to main content", the page's key control (the mask) is within 10 Tabs."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Tab")
    first = active(page)
    assert "attention-skip" in first["cls"] and first["text"] == in_indonesian(lambda: app_text("a11y_skip_results"))
    page.keyboard.press("Enter")
    heading = active(page)
    assert heading["tag"] == "H2" and heading["text"] == page.evaluate(
        "() => document.querySelector('[data-testid=\"stMain\"] h2.chart-heading').textContent"), heading
    page.keyboard.press("Tab")
    assert active(page)["chart"], active(page)

    for _ in range(80):  # back to the top: the second Tab stop is Streamlit's own skip link
        page.keyboard.press("Shift+Tab")
        if "attention-skip" in active(page)["cls"]:
            break
    page.keyboard.press("Tab")
    assert active(page)["href"] == "#stMain"
    page.keyboard.press("Enter")
    for _ in range(10):
        page.keyboard.press("Tab")
        if active(page)["key"] == "st-key-w-causal-mask-causal":
            break
    else:
        raise AssertionError("the mask switch is more than 10 Tabs after the skip link")


def _help_is_a_description(page) -> None:
    """The mask's help, a tooltip on screen, is the description of its switch and of its "?" button."""
    box = ".st-key-w-causal-mask-causal"
    said = described(page, box)
    assert said == [in_indonesian(lambda: app_text("causal_help"))] * 2, said


def _mask_matrix_and_steps(page) -> None:
    """The mask off (Space), a cell typed with a decimal comma, then every step to the last: each heard once, in
    Indonesian, as the package computes it; at the last step the focus is on the step's heading, not lost."""
    page.keyboard.press("Space")  # the focus is on the mask switch
    wait_idle(page)
    inputs = book_inputs().clone()
    result = causal_attention_step_by_step(inputs, causal=False)
    expected = in_indonesian(lambda: f"{mask_sentence(result)} {weights_sentence(result, LABELS, {})}")
    assert heard(page) == [expected]

    tab_to(page, lambda f: f["testid"] == "data-grid-canvas", backwards=True)
    page.wait_for_timeout(200)
    for key in ("ArrowDown", "ArrowRight", "Enter"):  # "journey", d1; Enter opens the cell's editor
        page.keyboard.press(key)
    page.locator("input.gdg-input, textarea.gdg-input").first.wait_for(state="visible", timeout=PATIENT_MS)
    page.keyboard.press("Control+a")
    page.keyboard.type("0,99")
    page.wait_for_timeout(100)
    page.keyboard.press("Enter")
    wait_idle(page)
    inputs[1, 0] = 0.99
    result = causal_attention_step_by_step(inputs, causal=False)
    page.wait_for_function("(t) => window.__heard.length > 0", timeout=PATIENT_MS)
    assert heard(page) == [in_indonesian(lambda: weights_sentence(result, LABELS, {}))]

    where = tab_to(page, lambda f: (f["key"] or "").startswith("st-key-step_mode") and f["role"] == "switch")
    page.keyboard.press("Space")
    settled(page, where["key"])
    captions = in_indonesian(lambda: [step.caption for step in page_text("causal-mask").steps])
    said = heard(page)
    pattern = re.escape(in_indonesian(lambda: step_sentence(0, 10**6, "CAPTION"))).replace("1000000", r"(\d+)")
    found = re.fullmatch(pattern.replace("CAPTION", ".+"), said[0]) if len(said) == 1 else None
    assert found, said
    total = int(found.group(1))
    assert any(said[0] == in_indonesian(lambda c=c: step_sentence(0, total, c)) for c in captions), said
    where = tab_to(page, lambda f: f["tag"] == "BUTTON" and "step_next" in (f["key"] or ""))
    for k in range(1, total):
        page.keyboard.press("Enter")
        wait_idle(page)
        said = heard(page)
        assert len(said) == 1 and any(said[0] == in_indonesian(lambda c=c, k=k: step_sentence(k, total, c))
                                      for c in captions), (k, said)
    # Next is disabled at the last step: the focus goes to the step's heading, which says where the learner is.
    page.wait_for_function("() => document.activeElement.classList.contains('step-heading')", timeout=PATIENT_MS)
    assert page.evaluate("() => document.activeElement.tagName") == "H2"
    page.keyboard.press("Shift+Tab")
    assert "step_back" in active(page)["key"]


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
