"""A learner on a phone, in Indonesian and in Vietnamese (shared/reviews/learner-phone-id.md): a 390x844 touch
screen, the language's own decimal comma, and pages that behave like web pages.

One browser context per language walks, in order:
- the page says its language (``<html lang>``);
- the matrix is edited on the page, above the results it changes (on a phone the sidebar is a drawer over them):
  a spreadsheet's row pasted with decimal commas, and "0,5" typed in a cell, give the tensors of the same numbers
  written with points, and the cells show the commas back;
- a new page, opened from the navigation while the old one was scrolled down, opens at its top;
- every tap target, on the page and in the navigation drawer, is at least 24x24 CSS px, and every formula fits its
  box or scrolls in it with a visible cue;
- a tap on a heatmap's cell shows its value;
- a tap on the "?" beside a toggle leaves the toggle as it was;
- three control changes and then Back return to the previous page, not to the previous value of a control;
- the code that ran wraps its lines; a right answer's ✓ in Check yourself survives a reload.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from attention import simple_self_attention
from tests.browser.harness import PATIENT_MS, code_texts, open_matrix_cell, wait_idle, wait_progress_kept, wait_text
from ui.check.questions import NUMBER, QUESTIONS, SHAPE
from ui.inputs.matrix import book_matrix
from ui.words.content import page_text
from ui.words.i18n import translate

PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0 Mobile Safari/537.36")
MAIN = '[data-testid="stMain"]'
SCROLL_TOP_JS = f"() => document.querySelector('{MAIN}').scrollTop"
TAP_TARGETS_JS = (Path(__file__).parent / "tap_targets.js").read_text(encoding="utf-8")
FORMULAS_JS = """() => [...Array.from(document.querySelectorAll('.katex-display')).filter(d => d.clientWidth > 0
  && d.scrollWidth > d.clientWidth + 3 && !getComputedStyle(d).backgroundImage.includes('radial-gradient'))
  .map(d => `${d.scrollWidth} px formula in a ${d.clientWidth} px box, no cue`),
  ...Array.from(document.querySelectorAll('.formula-drawn img')).filter(s => s.getBoundingClientRect().right
    > s.closest('.formula-drawn').getBoundingClientRect().right + 1).map(s => 'an equation wider than its box')]"""
# Whether the page loaded KaTeX (a phone's formulas are drawn on the server: ui/draw/formula.py).
KATEX_JS = "() => performance.getEntriesByType('resource').some((r) => /katex/i.test(r.name))"

CODE_WIDER_JS = f"""() => Array.from(document.querySelectorAll('{MAIN} pre.listing'))
  .filter(p => p.clientWidth > 0 && p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.slice(0, 40))"""

# Every field a number is typed into: (its box's key, its type, its inputmode).
INPUT_MODES = """Array.from(document.querySelectorAll(
    'input[type="number"], [class*="st-key-check-"] input[type="text"]'))
    .map(i => [Array.from(i.closest('[class*="st-key-"]').classList).find(c => c.startsWith('st-key-')), i.type,
               i.getAttribute('inputmode')])"""
TOOLBAR_COVERS_JS = f"""() => {{ const t = document.querySelector('{MAIN} [data-testid="stElementToolbar"]');
  if (!t) return ['no toolbar']; const r = t.getBoundingClientRect();
  const above = '{MAIN} [data-testid="stCaptionContainer"], {MAIN} [data-testid="stAlert"]';
  return Array.from(document.querySelectorAll(above)).filter(e => {{ const b = e.getBoundingClientRect();
    return b.width > 0 && b.bottom > r.top + 1 && b.top < r.bottom - 1 && b.right > r.left && b.left < r.right; }})
    .map(e => e.textContent.slice(0, 40)); }}"""


def context_text(values: np.ndarray) -> str:
    return repr(simple_self_attention(torch.tensor(values, dtype=torch.float32))["context"])


def words(lang: str, context: str, english: str) -> str:
    return translate(english, lang, context)


def phone(browser, lang: str):
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                               device_scale_factor=2, user_agent=PHONE_UA, locale=f"{lang}-{lang.upper()}",
                               permissions=["clipboard-read", "clipboard-write"])


def open_inline_matrix(page) -> None:
    fold = page.locator(f'{MAIN} [data-testid="stExpander"] summary').filter(has_text="6").first
    fold.click()
    page.locator(f'{MAIN} [data-testid="stDataFrame"] canvas').first.wait_for(state="visible")
    wait_idle(page)


def open_fold(page, title: str) -> None:
    """Open a folded section (a tap on its title), unless it is open already (Check yourself is, on a page that
    asks for a prediction)."""
    summary = page.locator(f'{MAIN} [data-testid="stExpander"] summary').filter(has_text=title).first
    if summary.evaluate("s => !s.closest('details').open"):
        summary.tap()
        wait_idle(page)


# Left under 44 px, where a 44 px target would push the layout apart (each at least 24 px, as every target): the
# matrix toolbar's icons in their row beside the grid, a help icon inside its control's label, a slider's thumb
# (ui/shell/access.css says why).
SMALL_BY_DESIGN = (" in stBaseButton-elementToolbar ", " in stTooltipHoverTarget ", "input[range] 24x24 in stSlider ")


def under_44(page) -> list[str]:
    """The page's own tap targets under 44 px, but those left small by design."""
    return [t for t in page.evaluate(TAP_TARGETS_JS, 44) if not any(s in t for s in SMALL_BY_DESIGN)]


def open_from_navigation(page, page_id: str, presets: str | None = None) -> None:
    """Open ``page_id`` from the navigation drawer; first, with ``presets`` (the fold's title), open the presets
    and check that a preset's name too long for its box ends in an ellipsis (m19)."""
    page.locator('[data-testid="stExpandSidebarButton"]').first.click()
    link = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{page_id}"]').first
    link.wait_for(state="visible")
    page.wait_for_timeout(400)  # the drawer slides in
    if presets is not None:
        page.locator('[data-testid="stSidebar"] summary').filter(has_text=presets).first.click()
        wait_idle(page)
        choice = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"] input').last
        choice.wait_for(state="visible")
        assert choice.evaluate("i => i.scrollWidth <= i.clientWidth || getComputedStyle(i).textOverflow == 'ellipsis'")
    assert page.evaluate(TAP_TARGETS_JS) == []  # the drawer's links and controls too
    assert under_44(page) == []
    cut = page.evaluate("""() => Array.from(document.querySelectorAll(
      '[data-testid="stSidebarNavLink"] [data-testid="stMarkdownContainer"]'))
      .filter(t => t.scrollWidth > t.clientWidth + 1
        || t.getBoundingClientRect().right > t.closest('a').getBoundingClientRect().right + 1)
      .map(t => t.textContent)""")
    assert cut == []  # every section's whole title, where its ✓ goes
    link.click()
    page.wait_for_url(f"**/{page_id}**")
    page.wait_for_selector("h1")
    wait_idle(page)


@pytest.mark.parametrize("lang", ["id", "vi"])
def test_a_phone_learner_in_their_own_language_and_number_convention(browser, app_server, lang):
    context = phone(browser, lang)
    try:
        page = context.new_page()
        page.goto(f"{app_server.url}/all-queries?lang={lang}")
        page.wait_for_selector("h1")
        wait_idle(page)
        assert page.evaluate("document.documentElement.lang") == lang
        # the deep link's formula, drawn on the server, and no KaTeX loaded for it
        page.locator(f"{MAIN} .formula-drawn img").first.wait_for(timeout=PATIENT_MS)
        assert page.locator(f"{MAIN} .formula-drawn .sr-only math").count() >= 1  # what a screen reader reads
        assert not page.evaluate(KATEX_JS)
        assert page.evaluate(TAP_TARGETS_JS) == []
        assert under_44(page) == []
        assert page.evaluate(FORMULAS_JS) == []

        # The matrix, on the page: a row pasted from a spreadsheet that writes decimal commas, then one cell typed.
        values = np.array(book_matrix().values, dtype=np.float32)
        open_inline_matrix(page)
        assert page.locator('[data-testid="stSidebar"] [data-testid="stDataFrame"]').count() == 0
        open_matrix_cell(page, 0, 1, "", where=MAIN)  # "Your", d1: the row's first number
        page.keyboard.press("Escape")
        page.evaluate("(text) => navigator.clipboard.writeText(text)", "0,25\t-0,5\t0,75")
        page.keyboard.press("Control+V")
        values[0] = [0.25, -0.5, 0.75]
        wait_text(page, context_text(values)[:40], timeout_ms=PATIENT_MS)
        wait_idle(page)
        open_matrix_cell(page, 1, 1, "0,5", where=MAIN)
        page.keyboard.press("Enter")
        values[1, 0] = 0.5
        wait_text(page, context_text(values)[:40], timeout_ms=PATIENT_MS)
        wait_idle(page)
        assert context_text(values) in code_texts(page)  # "0,5" is the number 0.5
        refused = words(lang, "_app", "That edit was not applied: {error} The matrix keeps its last valid values.")
        assert refused.split("{")[0].strip() not in page.inner_text(MAIN)  # nothing was refused

        # A refused edit is said below the grid, so the grid does not move under the learner's finger; its toolbar
        # covers nothing above it (m10).
        grid = page.locator(f'{MAIN} [data-testid="stDataFrame"]').first
        top = grid.bounding_box()["y"]
        open_matrix_cell(page, 2, 1, "abc", where=MAIN)
        assert page.evaluate(TOOLBAR_COVERS_JS) == []
        page.keyboard.press("Enter")
        wait_text(page, refused.split("{")[0].strip(), where=MAIN)
        wait_idle(page)
        message = page.locator(f'{MAIN} [data-testid="stAlert"]').filter(has_text=refused.split("{")[0].strip())
        grid = page.locator(f'{MAIN} [data-testid="stDataFrame"]').first
        assert abs(grid.bounding_box()["y"] - top) < 2
        assert message.bounding_box()["y"] >= grid.bounding_box()["y"] + grid.bounding_box()["height"]
        assert context_text(values) in code_texts(page)  # the matrix kept its last valid values

        # A tap on a heatmap's cell opens its value (a touch screen has no hover).
        cell = page.locator('[data-testid="stVegaLiteChart"] svg g.mark-rect path').first
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        value = cell.get_attribute("aria-label").rstrip(".").rsplit(" ", 1)[-1]  # "query Your, key Your: score 0.9995."
        page.wait_for_function("v => { const t = document.querySelector('#vg-tooltip-element.visible');"
                               " return !!t && t.textContent.includes(v); }", arg=value, timeout=PATIENT_MS)

        # A new page opens at its top, though this one was scrolled down.
        page.evaluate(f"() => {{ const m = document.querySelector('{MAIN}'); m.scrollTop = m.scrollHeight; }}")
        assert page.evaluate(SCROLL_TOP_JS) > 500
        open_from_navigation(page, "causal-mask", presets=words(lang, "_app", "Presets and reset"))
        page.wait_for_timeout(300)
        assert page.evaluate(SCROLL_TOP_JS) == 0
        assert page.evaluate(TAP_TARGETS_JS) == []
        assert under_44(page) == []
        assert page.evaluate(FORMULAS_JS) == []

        # The "?" beside the step-through toggle shows help; it does not flip the toggle.
        toggle = page.get_by_role("switch", name=words(lang, "_app", "Step through"), exact=True)
        before = toggle.is_checked()
        widget = page.locator('[data-testid="stCheckbox"]').filter(has=toggle)
        help_icon = widget.locator('[data-testid="stTooltipHoverTarget"] button').first
        help_icon.tap()
        page.wait_for_timeout(500)
        wait_idle(page)
        assert toggle.is_checked() == before

        # Step-through: the address taken on a step opens another's page on that step (m6).
        step_switch = page.get_by_role("switch", name=words(lang, "_app", "Step through"), exact=True)
        widget.locator("label > div").first.tap()
        wait_idle(page)
        for _ in range(2):
            page.locator(f'{MAIN} [class*="st-key-step_next-"] button').first.tap()  # Next, with its shortcut
            wait_idle(page)
        step_line = words(lang, "_app", "Step **{k}** of {n}").replace("**", "").split("{")[0].strip()
        on_step = next(t for t in page.locator(MAIN).inner_text().splitlines() if t.startswith(step_line))
        stepped_link = page.url
        assert "step=" in stepped_link and step_switch.is_checked()
        widget.locator("label > div").first.tap()  # step-through off again
        wait_idle(page)

        # Three control changes on this page, then Back: the previous page.
        address = page.url
        causal = page.get_by_role("switch", name=words(lang, "_app", "Causal mask"), exact=True)
        mask = page.locator('[data-testid="stCheckbox"]').filter(has=causal).locator("label > div").first
        for _ in range(3):  # each tap once the switch shows the last one, tapped again if it did not flip
            on = causal.is_checked()
            for _tap in range(2):
                mask.tap()  # the switch itself
                wait_idle(page)
                if causal.is_checked() != on:
                    break
            assert causal.is_checked() != on, "two taps on the causal mask's switch did not flip it"
        # each change is written to the address by the run it starts, a moment after the switch shows it
        page.wait_for_function("(a) => location.href !== a", arg=address, timeout=PATIENT_MS)
        page.go_back()
        page.wait_for_url("**/all-queries**")
        page.wait_for_selector("h1")
        wait_idle(page)
        assert "/all-queries" in page.url
        shared_link = address  # the mask changed three times: the address carries the page's state (?s=)

        # The code that ran wraps its long lines on a phone instead of scrolling each one sideways.
        open_fold(page, words(lang, "_app", "The code that ran"))
        page.locator(f'{MAIN} pre.listing .token.keyword').first.wait_for(state="visible")
        assert page.evaluate(CODE_WIDER_JS) == []
        # coloured on the server: the phone never loads Streamlit's 1.56 MB syntax highlighter for it
        assert page.locator(f'{MAIN} [data-testid="stCode"]').count() == 0
        assert not page.evaluate("() => performance.getEntriesByType('resource')"
                                 ".some((r) => r.name.includes('SyntaxHighlighter'))")

        # A right answer gets its ✓ in Check yourself, and a reload (a new server session) keeps it.
        fold = words(lang, "_app", "Check yourself: {n} questions").split("{")[0].strip()
        open_fold(page, fold)
        # Each number opens the phone's number keyboard: a number answer the decimal one, a whole-number field
        # the numeric one; a shape's answer ("(6, 6)") keeps the full keyboard for its brackets.
        page.wait_for_function(f"() => {INPUT_MODES}.some(f => f[2] === 'decimal')", timeout=PATIENT_MS)
        modes = {key: (kind, mode) for key, kind, mode in page.evaluate(f"() => {INPUT_MODES}")}
        assert all(mode == "numeric" for kind, mode in modes.values() if kind == "number"), modes
        for question in QUESTIONS["all-queries"]:
            if question.kind in (NUMBER, SHAPE):
                wanted = "decimal" if question.kind == NUMBER else None
                assert modes[f"st-key-check-all-queries-{question.id}"] == ("text", wanted), (question.id, modes)
        field = page.locator(".st-key-check-all-queries-scores_shape input")
        field.fill("(6, 6)")
        field.press("Enter")
        wait_idle(page)
        page.locator(".st-key-check-all-queries-scores_shape-check button").tap()
        wait_text(page, words(lang, "_app", "Correct: {given}.").format(given="(6, 6)"), where=MAIN)
        assert "2. ✓" in page.inner_text(MAIN)
        wait_progress_kept(page, "all-queries", "scores_shape")
        page.reload()
        page.wait_for_selector("h1")
        wait_idle(page)
        open_fold(page, fold)
        wait_text(page, "2. ✓", where=MAIN)
        # Forward and Back after the reload move between the pages in the reloaded document, as a page change does:
        # no cold load of the whole app (a phone learner reloads often: a dropped connection, a tab the OS killed).
        page.evaluate("() => { window.__sinceReload = true; }")
        for way, path in ((page.go_forward, "causal-mask"), (page.go_back, "all-queries")):
            way()
            page.wait_for_url(f"**/{path}**")
            page.wait_for_function("(t) => document.querySelector('[data-testid=\"stMain\"] h1')?.textContent === t",
                                   arg=page_text(path, lang).title, timeout=PATIENT_MS)
            assert page.evaluate("() => window.__sinceReload === true"), f"{way.__name__} loaded a new document"

        # A shared link says it was opened; a reload of one's own page does not (m7). A link taken on a step opens
        # in step-through, on that step (m6).
        other = context.new_page()
        opened = words(lang, "_app", "Opened a shared link: inputs and controls are as they were shared.")
        for link, step in ((shared_link, None), (stepped_link, on_step)):
            other.goto(link)
            other.wait_for_selector("h1")
            wait_idle(other)
            if "s=" in link:
                wait_text(other, opened, where=MAIN)
            if step is not None:
                assert other.get_by_role("switch", name=words(lang, "_app", "Step through"), exact=True).is_checked()
                assert step in other.locator(MAIN).inner_text().splitlines()
        other.goto(shared_link)
        wait_text(other, opened, where=MAIN)
        other.reload()
        other.wait_for_selector("h1")
        wait_idle(other)
        assert not other.get_by_text(opened).is_visible()
    finally:
        context.close()
