"""Korean and Vietnamese in a real browser: letters drawn (no tofu), Korean wrapped between words,
labels inside their controls, the chart words translated, the language kept in the address."""

from __future__ import annotations

import os
import re

import pytest

from tests.browser.harness import ROOT, choose_option, sized_page, wait_idle
from ui.words.content import app_text

SHOTS = ROOT / ("docs/screenshots" if os.environ.get("UPDATE_SCREENSHOTS") else "artifacts/screenshots")
HANGUL = re.compile(r"[\uac00-\ud7a3]")

# Draw a character and a private-use code point (which no font has: the browser draws its "missing
# glyph" box) in the page's own font; the same pixels mean the character is tofu too.
TOFU_JS = """([text, selector]) => {
    const el = document.querySelector(selector);
    const font = getComputedStyle(el).fontSize + ' ' + getComputedStyle(el).fontFamily;
    const draw = (s) => { const c = document.createElement('canvas'); c.width = 64; c.height = 40;
        const g = c.getContext('2d'); g.font = font; g.fillText(s, 4, 30); return c.toDataURL(); };
    const box = draw('\\ue000');
    return Array.from(text).filter(ch => ch.trim()).filter(ch => draw(ch) === box); }"""
# Labels, buttons and expander titles whose text runs out of their box.
OVERFLOW_JS = """() => Array.from(document.querySelectorAll(
        '[data-testid="stWidgetLabel"] p, button p, [data-testid="stExpander"] summary p, '
        + '[data-testid="stSidebarNavLink"] span, [data-testid="stNavSectionHeader"] *'))
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent)"""
PROSE_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] p, [data-testid="stMain"] h1'))
    .map(e => e.textContent).join(' ')"""
CHART_WORDS_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] .vega-embed svg text'))
    .map(t => t.textContent).join(' ')"""


@pytest.fixture
def laptop(browser):
    with sized_page(browser, 1440, 900) as page:
        yield page


def open_in(page, server, path: str, lang: str) -> None:
    page.goto(f"{server.url}/{path}?lang={lang}")
    page.wait_for_selector("h1")
    wait_idle(page)
    page.wait_for_timeout(300)


@pytest.mark.parametrize("path", ["", "causal-mask", "stacking-heads"])
def test_korean_pages_draw_hangul_wrap_between_words_and_keep_labels_inside(laptop, app_server, path):
    page = laptop
    open_in(page, app_server, path, "ko")
    prose = page.evaluate(PROSE_JS)
    assert len(HANGUL.findall(prose)) > 100, prose[:300]
    tofu = page.evaluate(TOFU_JS, [prose[:400], '[data-testid="stMain"] p'])
    assert not tofu, f"drawn as missing-glyph boxes: {sorted(set(tofu))[:20]}"
    assert page.evaluate("""() => getComputedStyle(document.querySelector('[data-testid="stMain"] p'))
        .wordBreak""") == "keep-all"
    assert not page.evaluate(OVERFLOW_JS)
    sidebar = page.inner_text('[data-testid="stSidebar"]')
    assert not page.evaluate(TOFU_JS, [sidebar[:300], '[data-testid="stSidebar"] p'])
    if path:  # the section pages draw charts: their titles are Korean too, drawn in the chart's font
        words = page.evaluate(CHART_WORDS_JS)
        assert HANGUL.search(words), words[:200]
        assert not page.evaluate(TOFU_JS, [words[:300], '[data-testid="stMain"] .vega-embed svg text'])
    assert "lang=ko" in page.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"lang-ko-{path or 'home'}.png"))


def test_vietnamese_diacritics_render_in_text_and_charts(laptop, app_server):
    page = laptop
    open_in(page, app_server, "one-query", "vi")
    prose = page.evaluate(PROSE_JS)
    assert re.search(r"[ơưđạảếềệọộờụứữ]", prose), prose[:300]
    assert not page.evaluate(TOFU_JS, [prose[:400], '[data-testid="stMain"] p'])
    words = page.evaluate(CHART_WORDS_JS)
    assert re.search(r"[ơưđạảếềệọộờụứữốồ]", words, re.IGNORECASE), words[:300]
    assert not page.evaluate(TOFU_JS, [words[:300], '[data-testid="stMain"] .vega-embed svg text'])
    assert not page.evaluate(OVERFLOW_JS)
    # the chapter's numbers, exactly as in English
    assert "0.9544" in page.inner_text('[data-testid="stMain"]')
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lang-vi-one-query.png"), full_page=False)


def test_the_sidebar_selector_switches_language_and_keeps_the_view(laptop, app_server):
    page = laptop
    open_in(page, app_server, "causal-mask", "en")
    page.get_by_role("spinbutton", name="Embedding width").fill("4")
    page.get_by_role("spinbutton", name="Embedding width").press("Enter")
    page.wait_for_function("() => document.body.innerText.includes('6 tokens × 4 dimensions')")
    wait_idle(page)
    choose_option(page, page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first, "한국어")
    page.wait_for_function("() => /[\\uac00-\\ud7a3]/.test(document.querySelector('h1').textContent)")
    wait_idle(page)
    assert "lang=ko" in page.url
    sidebar = page.inner_text('[data-testid="stSidebar"]')
    assert app_text("inputs_caption", "ko", n=6, d=4) in sidebar  # the same 6 x 4 matrix, said in Korean
    assert page.get_by_role("spinbutton").first.input_value() == "4"  # the matrix kept its 4 dimensions


def test_without_a_lang_parameter_the_browsers_language_decides(browser, app_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="vi-VN")
    page = context.new_page()
    try:
        page.goto(app_server.url + "/causal-mask")
        page.wait_for_selector("h1")
        wait_idle(page)
        assert re.search(r"[ơưđạảếềệọộờụứữ]", page.inner_text("h1") + page.inner_text('[data-testid="stMain"] p'))
        page.wait_for_function("() => location.search.includes('lang=vi')")  # and the link now says so
    finally:
        context.close()


def test_indonesian_page_titles_are_read_whole_in_the_navigation(laptop, app_server):
    """The longest titles of the four languages: wrapped in the sidebar, never cut short with an ellipsis."""
    page = laptop
    open_in(page, app_server, "causal-mask", "id")
    nav = page.inner_text('[data-testid="stSidebarNav"]')
    assert "Self-attention tanpa bobot" in nav
    assert not page.evaluate(OVERFLOW_JS)
