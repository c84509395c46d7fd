"""What reaches a learner's screen: nothing a page computes is cut off, on a laptop and on a phone.

Every page is visited from the navigation, in one tab per device: a laptop at 1024x768, then with the sidebar at its
widest (8 dimensions, after "Use … as the input"; at most half the screen) at 1440x900 and 1024x768, its window
resized on each page; and a phone at 390x844.
On each page the browser measures:
- printed tensors: the text of every ``pre`` fits its box (on a phone, a box too narrow for a
  readable font scrolls inside itself, with its scroll shadows, and never the page); so does every formula;
- charts: no chart's drawing runs past the right edge of its column, nor of the screen;
- the page itself never scrolls sideways.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.browser.harness import navigate, open_page, resize, steady, url_of, wait_charts, wait_idle
from ui.chapter import PAGES
from ui.inputs.sidebar import sidebar_px

PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0 Mobile Safari/537.36")

MEASURE_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const out = {sideways: main.scrollWidth - main.clientWidth, charts: [], pres: [], scrolling: [], shown: 0,
    width: window.innerWidth, fonts: []};
  for (const code of document.querySelectorAll('.printed-tensor pre code')) {  // each printed tensor's font, px
    if (code.getBoundingClientRect().width > 0) out.fonts.push(parseFloat(getComputedStyle(code).fontSize));
  }
  for (const svg of document.querySelectorAll('[data-testid="stVegaLiteChart"] > svg')) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) continue;  // inside a closed expander
    out.shown += 1;
    const column = svg.closest('[data-testid="stColumn"]') || svg.closest('[data-testid="stMainBlockContainer"]');
    const edge = Math.min(column.getBoundingClientRect().right, window.innerWidth);
    if (box.right > edge + 1) out.charts.push(`${Math.round(box.width)} px chart ends at ${Math.round(box.right)},`
      + ` its column at ${Math.round(edge)}`);
  }
  for (const box of document.querySelectorAll('.katex-display')) {  // a formula: whole, or scrolling with a cue
    // a glyph's overhang of a pixel or two (KaTeX's italic corrections) shows whole: overflow is visible there
    if (box.clientWidth === 0 || box.scrollWidth <= box.clientWidth + 3) continue;
    const style = getComputedStyle(box);
    const scrolls = style.overflowX === 'auto' && style.backgroundImage.includes('radial-gradient');
    (scrolls ? out.scrolling : out.pres).push(`formula: ${box.scrollWidth} px in a ${box.clientWidth} px box`);
  }
  for (const pre of document.querySelectorAll('pre')) {
    if (pre.clientWidth === 0) continue;
    const text = pre.textContent.slice(0, 24);
    if (pre.scrollWidth <= pre.clientWidth + 1) continue;
    const style = getComputedStyle(pre);
    const scrolls = style.overflowX === 'auto' && style.backgroundImage.includes('radial-gradient');
    (scrolls ? out.scrolling : out.pres).push(`${text}: ${pre.scrollWidth} px text in a ${pre.clientWidth} px box`);
  }
  return out;
}"""


LAPTOPS = [(1440, 900), (1024, 768)]


def ready(page, sidebar: str = "") -> dict:
    """The page's measure once its charts are drawn and its layout has settled (two measures in a row agree: a chart
    redrawn for a new width, or a sidebar that has not yet grown, shows as a change); ``sidebar``: text the sidebar
    must show, at its widest."""
    wait_charts(page)  # charts are drawn after the run ends
    if sidebar:
        assert sidebar in page.inner_text('[data-testid="stSidebar"]'), page.url
        page.wait_for_function("px => document.querySelector('[data-testid=\"stSidebar\"]')"
                               ".getBoundingClientRect().width >= Math.min(px, innerWidth / 2) - 2",
                               arg=sidebar_px(8))
    return steady(page, MEASURE_JS, interval_ms=150)


def walk(page, sizes: list[tuple[int, int]], sidebar: str = "") -> dict[tuple[int, int], dict[str, dict]]:
    """Every page, from the one on screen, opened from the navigation (its state kept), measured at each of ``sizes``
    (the window resized, as a learner's: the layout is the browser's, the server only tells a phone from the rest)."""
    here = page.evaluate("location.pathname").strip("/") or PAGES[0].page_id
    found: dict[tuple[int, int], dict[str, dict]] = {size: {} for size in sizes}
    order = sorted(PAGES, key=lambda info: info.page_id != here)  # the page on screen first
    for n, info in enumerate(order):
        if info.page_id != here:
            navigate(page, info.page_id)
        for size in sizes if n % 2 == 0 else sizes[::-1]:  # each size in turn: one resize per page
            resize(page, size)
            found[size][info.page_id] = ready(page, sidebar)
    return found


def problems(found: dict[str, dict], *, scrolling_allowed: bool) -> dict[str, list[str]]:
    bad = {}
    for page_id, m in found.items():
        items = [*m["charts"], *m["pres"], *([] if scrolling_allowed else m["scrolling"])]
        if m["sideways"] > 0:
            items.append(f"the page scrolls sideways by {m['sideways']} px")
        if items:
            bad[page_id] = items
    return bad


def widen_the_sidebar(page, server) -> None:
    """Use the text page's embeddings (8 dimensions) as the input: the sidebar grows to show them."""
    page.goto(url_of(server, "text-to-attention"))
    page.wait_for_selector("h1")
    wait_idle(page)
    page.get_by_role("button", name="as the input on every page").click()
    wait_idle(page)
    assert "× 8 dimensions" in page.inner_text('[data-testid="stSidebar"]')


@pytest.fixture(scope="module")
def laptops(browser, app_server):
    """One laptop's tab: every page at 1024x768 as it opens; then, beside the widest sidebar, every page at 1440x900
    and at 1024x768 (at 1440 px the walk beside the widest sidebar leaves the page less room than the plain one)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        open_page(page, app_server, "home")
        plain = walk(page, [(1024, 768)])[(1024, 768)]
        widen_the_sidebar(page, app_server)
        link = urlparse(page.url).query  # the address bar's link carries the 8-dimension matrix to every page
        assert "s=" in link
        return {"plain": plain, "wide": walk(page, LAPTOPS, sidebar="× 8 dimensions")}
    finally:
        context.close()


@pytest.mark.parametrize("size", LAPTOPS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_is_cut_off_on_a_laptop(laptops, size):
    if size[0] < 1400:
        assert len(laptops["plain"]) == len(PAGES)
        assert sum(m["shown"] for m in laptops["plain"].values()) >= 15  # the measure saw the charts
        assert problems(laptops["plain"], scrolling_allowed=False) == {}
    wide = laptops["wide"][size]
    assert len(wide) == len(PAGES) and sum(m["shown"] for m in wide.values()) >= 15
    assert {m["width"] for m in wide.values()} == {size[0]}  # each measured on a window of this size
    # beside the widest sidebar a 1024 px screen keeps ~500 px for the page: a tensor may scroll in its
    # own box there, with its scroll shadows; nothing is cut and no chart runs past its column
    assert problems(wide, scrolling_allowed=size[0] < 1400) == {}


def test_a_phone_never_scrolls_sideways_and_every_chart_fits(browser, app_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  user_agent=PHONE_UA, device_scale_factor=2)
    try:
        page = context.new_page()
        open_page(page, app_server, "home")
        found = walk(page, [(390, 844)])[(390, 844)]
        assert len(found) == len(PAGES) and sum(m["shown"] for m in found.values()) >= 15
        assert problems(found, scrolling_allowed=True) == {}
        fonts = [size for m in found.values() for size in m["fonts"]]  # read in the hand: 12 px at the least
        assert fonts and min(fonts) >= 12, {page_id: min(m["fonts"]) for page_id, m in found.items() if m["fonts"]}
    finally:
        context.close()


def test_the_measure_sees_a_cut_off_tensor_and_a_chart_too_wide(browser, app_server):
    """The page's own style removed: the same pages at 1024 px have clipped tensors or charts."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(url_of(app_server, "causal-mask"))
        page.wait_for_selector("h1")
        wait_idle(page)
        page.wait_for_timeout(300)
        assert problems({"causal-mask": page.evaluate(MEASURE_JS)}, scrolling_allowed=False) == {}
        page.evaluate("""() => document.querySelectorAll('style').forEach(s => {
            if (s.textContent.includes('printed-tensor')) s.remove(); })""")
        page.wait_for_timeout(300)
        bad = problems({"causal-mask": page.evaluate(MEASURE_JS)}, scrolling_allowed=False)
        assert bad and any("px box" in item for item in bad["causal-mask"])
    finally:
        context.close()


def open_share_panel(page, server, path: str) -> None:
    page.goto(server.url + path)
    page.wait_for_selector("h1")
    wait_idle(page)
    page.locator('[data-testid="stSidebar"]').get_by_text("Share, download, upload").click()
    wait_idle(page)


def test_copy_link_copies_the_address_and_offers_it_selected_where_the_clipboard_is_refused(browser, app_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_server.url)
        page = context.new_page()
        open_share_panel(page, app_server, "/causal-mask")
        page.get_by_role("spinbutton", name="Seed").fill("4242")
        page.keyboard.press("Enter")
        wait_idle(page)  # the page's own control: the address changes, the sidebar is not redrawn
        page.get_by_role("button", name="Copy link").click()
        page.wait_for_function("() => document.querySelector('.copy-link-status').textContent.length > 0")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == page.url and "/causal-mask?" in copied and "s=" in copied
        assert "Copied" in page.inner_text(".copy-link-status")
        refused = context.new_page()
        refused.add_init_script("navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))")
        open_share_panel(refused, app_server, "/dropout")
        refused.get_by_role("button", name="Copy link").click()
        field = refused.get_by_role("textbox", name="Link to this view")
        field.wait_for(state="visible")
        assert field.input_value() == refused.url
        assert refused.evaluate("() => document.activeElement.classList.contains('copy-link-field')")
        assert refused.evaluate("() => window.getSelection().toString() || document.activeElement.selectionEnd")
    finally:
        context.close()
