"""The keyboard alone, in Chromium, on 3.5.1: edit a cell of the matrix, change a control, open Check
yourself, answer and check, and step through three steps. No mouse event reaches the page (a listener
counts them), and after every rerun the focus is still where the learner left it, and shows. A screen reader
hears each change once, through the page's one live region, in words that name the new result as the package
computes it; a page opened from the navigation has its own title, and the focus on its heading."""

from __future__ import annotations

import re

from attention import AttentionConfig, book_inputs, causal_attention_step_by_step, simple_attention_for_query
from attention.explore import RunOptions, stacking_heads
from tests.browser.harness import (
    LISTEN_JS,
    MOUSE_JS,
    PATIENT_MS,
    ROOT,
    described,
    focused_name,
    heard,
    printed,
    settled,
    tab_to,
    wait_idle,
    wait_text,
)
from ui.announce import heads_sentence, mask_sentence, step_sentence, weights_sentence
from ui.chapter import PAGES
from ui.inputs.matrix import book_matrix
from ui.sharing.codec import PARAM, encode_state
from ui.words.content import app_text, page_text

LABELS = ["Your", "journey", "starts", "with", "one", "step"]

def test_a_learner_without_a_mouse_edits_the_matrix_changes_a_control_answers_and_steps(page, app_server):
    page.goto(f"{app_server.url}/causal-mask")
    page.wait_for_selector('[data-testid="stMain"] h1')
    wait_idle(page)
    page.evaluate(MOUSE_JS)
    page.evaluate(LISTEN_JS)
    assert page.get_attribute(".attention-live", "aria-live") == "polite"
    before = printed(page)
    # A heading's link is not a stop on the Tab path to the results.
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stHeaderActionElements\"] a')]"
                           ".every((a) => a.tabIndex === -1)", timeout=PATIENT_MS)

    # The matrix: Tab into the grid, walk to "journey", d1 with the arrow keys, type, Enter.
    where = tab_to(page, lambda f: f["testid"] == "data-grid-canvas")
    assert where["key"].startswith("st-key-matrix_editor")
    page.wait_for_timeout(200)
    # In the grid the focus is on its first cell, the first row's token; the grid says what it is and how to move.
    assert focused_name(page) == "Your"
    page.wait_for_function("(n) => document.activeElement.closest('table').getAttribute('aria-label') === n",
                           arg=app_text("a11y_grid"), timeout=PATIENT_MS)
    for key in ("ArrowDown", "ArrowRight"):  # from "Your" (the grid's first cell) to "journey", d1
        page.keyboard.press(key)
    # the cell is named by its row's token and its column, then its value
    page.wait_for_function("(n) => document.activeElement.getAttribute('aria-label') === n",
                           arg=app_text("a11y_cell_name", token="journey", column="d1", value="0.55"),
                           timeout=PATIENT_MS)
    assert focused_name(page) == app_text("a11y_cell_name", token="journey", column="d1", value="0.55")
    page.keyboard.press("Enter")  # opens the cell's editor
    page.locator("input.gdg-input, textarea.gdg-input").first.wait_for(state="visible", timeout=PATIENT_MS)
    page.wait_for_function("() => document.activeElement.classList.contains('gdg-input')"
                           " && document.activeElement.hasAttribute('data-named')", timeout=PATIENT_MS)
    assert focused_name(page) == app_text("a11y_cell_editor_of", token="journey", column="d1")
    page.keyboard.press("Control+a")
    page.keyboard.type("0.99")
    page.wait_for_timeout(100)  # the grid takes the typed value before Enter commits it
    page.keyboard.press("Enter")
    wait_idle(page)
    page.wait_for_function("(b) => document.querySelector('.printed-tensor pre code').textContent !== b",
                           arg=before[0], timeout=60_000)
    inputs = book_inputs().clone()
    inputs[1, 0] = 0.99
    expected = repr(causal_attention_step_by_step(inputs, d_out=2, seed=789)["context"].detach())
    wait_text(page, expected[:40])
    assert heard(page) == [weights_sentence(causal_attention_step_by_step(inputs, d_out=2, seed=789), LABELS, {})]

    # A control: the seed, one up with the arrow key, committed with Enter; the focus stays on it.
    where = tab_to(page, lambda f: (f["key"] or "").endswith("-seed") and f["tag"] == "INPUT")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    where = settled(page, where["key"])
    assert where["visible"]
    assert page.input_value('[class*="st-key-w-causal-mask-seed"] input') == "790"
    expected = repr(causal_attention_step_by_step(inputs, d_out=2, seed=790)["context"].detach())
    wait_text(page, expected[:40])
    assert heard(page) == [weights_sentence(causal_attention_step_by_step(inputs, d_out=2, seed=790), LABELS, {})]

    # Check yourself: open it with Enter, answer the first question, check it with Enter.
    where = tab_to(page, lambda f: (f["key"] or "").startswith("st-key-fold-check") and f["tag"] == "SUMMARY")
    page.keyboard.press("Enter")
    settled(page, where["key"])
    where = tab_to(page, lambda f: f["tag"] == "INPUT" and "masked_weight" in (f["key"] or ""))
    trace = causal_attention_step_by_step(inputs, d_out=2, seed=790)
    answer = f"{float(trace['masked_weights'][1, 0]):.4f}"
    page.keyboard.type(answer)
    page.keyboard.press("Enter")
    settled(page, where["key"])
    where = tab_to(page, lambda f: f["tag"] == "BUTTON" and "masked_weight" in (f["key"] or ""))
    page.keyboard.press("Enter")
    wait_text(page, f"Correct: {answer}.", where='[data-testid="stMain"]')
    settled(page, where["key"])
    assert heard(page) == [f"Correct: {answer}."]  # a first try's Correct, through the region that was there
    # and only there: its box is not a second live region, inserted filled
    assert page.locator('[class*="st-key-fold-check"] [data-testid="stAlertContainer"]').count() == 1
    assert page.locator('[class*="st-key-fold-check"] [data-testid="stAlertContainer"][role]').count() == 0

    # Open as a notebook: Enter downloads it, the focus stays on the link, and the download is said.
    tab_to(page, lambda f: f["tag"] == "A" and page.evaluate(
        "() => document.activeElement.classList.contains('download-link')"), backwards=True, limit=200)
    with page.expect_download(timeout=PATIENT_MS) as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename == "causal-mask.ipynb"
    assert heard(page) == [app_text("download_said", file="causal-mask.ipynb")]
    assert page.evaluate("() => document.activeElement.classList.contains('download-link')")

    # Step through: the switch with Space, then Next three times with Enter, the focus staying on Next.
    where = tab_to(page, lambda f: (f["key"] or "").startswith("st-key-step_mode") and f["role"] == "switch",
                   backwards=True)
    page.keyboard.press("Space")
    settled(page, where["key"])
    captions = [step.caption for step in page_text("causal-mask").steps]
    said = heard(page)
    assert len(said) == 1 and re.fullmatch(r"Step 1 of (\d+): .+\.", said[0]), said
    total = int(re.match(r"Step 1 of (\d+)", said[0]).group(1))
    assert any(said[0] == step_sentence(0, total, c) for c in captions)
    where = tab_to(page, lambda f: f["tag"] == "BUTTON" and "step_next" in (f["key"] or ""))
    steps = []
    for _ in range(3):
        page.keyboard.press("Enter")
        where = settled(page, where["key"])
        steps.append(int(re.search(r"Step (\d+) of", page.inner_text('[data-testid="stMain"]')).group(1)))
        said = heard(page)
        assert len(said) == 1 and any(said[0] == step_sentence(steps[-1] - 1, total, c) for c in captions), said
    assert steps == [2, 3, 4] and where["visible"]
    # Next is named by its word; its key is a key shortcut, not part of its name ("Next Shortcut →").
    assert page.evaluate("() => document.activeElement.getAttribute('aria-keyshortcuts')") == "ArrowRight"
    assert page.get_by_role("button", name=app_text("step_next"), exact=True).count() == 1
    # Step-through off: said, as on.
    where = tab_to(page, lambda f: (f["key"] or "").startswith("st-key-step_mode") and f["role"] == "switch",
                   backwards=True)
    page.keyboard.press("Space")
    settled(page, where["key"])
    assert heard(page) == [app_text("say_step_off")]

    # The mask off and on again: the question answered above goes stale and comes back; its verdict, said once
    # already, is not said again.
    where = tab_to(page, lambda f: (f["key"] or "").endswith("-causal") and f["role"] == "switch")
    for _ in range(2):
        page.keyboard.press("Space")
        settled(page, where["key"])
        said = heard(page)
        assert len(said) == 1 and said[0].startswith("Causal mask") and "Correct" not in said[0], said

    # Another page, from the navigation: its own document title, and the focus on its heading.
    title = next(p.title for p in PAGES if p.page_id == "one-query")
    tab_to(page, lambda f: f["testid"] == "stSidebarNavLink" and page.evaluate(
        "() => document.activeElement.getAttribute('href') || ''").endswith("/one-query"), backwards=True, limit=200)
    page.keyboard.press("Enter")
    page.wait_for_url("**/one-query**")
    page.wait_for_function("(t) => document.title === t", arg=app_text("page_title_of", page=title), timeout=60_000)
    page.wait_for_function("(t) => document.activeElement.tagName === 'H1' && document.activeElement.textContent"
                           " === t", arg=title, timeout=60_000)

    assert page.evaluate("window.__mouse") == 0


def test_a_shared_links_notice_is_said_through_the_live_region_once(page, app_server):
    """"Opened a shared link" is drawn filled in above the page: the page's one live region says it, and its box is
    no live region of its own (said twice, or not at all, by a screen reader)."""
    shared, _ = encode_state(book_matrix(), {"causal-mask": {"causal": False}})
    page.goto(f"{app_server.url}/causal-mask?{PARAM}={shared}")
    page.wait_for_selector('[data-testid="stMain"] h1')
    wait_idle(page)
    page.wait_for_function("(t) => document.querySelector('.attention-live').textContent === t",
                           arg=app_text("link_opened"), timeout=PATIENT_MS)
    assert page.locator('.st-key-link-opened [data-testid="stAlertContainer"]').count() == 1
    assert page.locator('.st-key-link-opened [data-testid="stAlertContainer"][role]').count() == 0


def test_without_a_mouse_a_query_the_heads_and_the_mask_are_heard_and_each_help_is_a_description(page, app_server):
    """3.3.1's query and 3.6.1's heads and mask, in English: each change heard once, naming the new result."""
    page.goto(f"{app_server.url}/one-query")
    page.wait_for_selector('[data-testid="stMain"] h1')
    wait_idle(page)
    page.evaluate(MOUSE_JS)
    page.evaluate(LISTEN_JS)
    where = tab_to(page, lambda f: f["key"] == "st-key-w-one-query-query" and f["tag"] == "INPUT")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    settled(page, where["key"])
    assert heard(page) == [weights_sentence(simple_attention_for_query(book_inputs(), 2), LABELS, {"query": 2})]

    page.goto(f"{app_server.url}/stacking-heads")
    page.wait_for_selector('[data-testid="stMain"] h1')
    wait_idle(page)
    page.evaluate(MOUSE_JS)
    page.evaluate(LISTEN_JS)
    box = ".st-key-w-stacking-heads-causal"  # the help of the mask, a tooltip on screen, read as a description
    assert described(page, box) == [
        app_text("causal_help")] * 2
    # Each field is named once, in words: no icon shortcode, no label said twice.
    names = page.evaluate("""() => Array.from(document.querySelectorAll('input, [role=combobox], [role=slider]'))
        .map(e => e.getAttribute('aria-label') || '')""")
    assert not [n for n in names if ":material/" in n], names
    assert page.get_by_role("combobox", name=app_text("language").split(": ")[-1], exact=True).count() == 1
    assert page.get_by_role("slider", name=app_text("dropout"), exact=True).count() == 1
    where = tab_to(page, lambda f: (f["key"] or "").endswith("-num_heads") and f["tag"] == "INPUT")
    page.keyboard.press("ArrowUp")  # 2 heads -> 3
    page.keyboard.press("Enter")
    settled(page, where["key"])
    three = stacking_heads(book_inputs(), AttentionConfig(3, 6, 6, 0.0, 3, False, causal=True), RunOptions())
    said = heard(page)
    assert len(said) == 1 and said[0].startswith(heads_sentence(three, {"heads": 3})), said
    where = tab_to(page, lambda f: (f["key"] or "").endswith("-causal") and f["role"] == "switch")
    page.keyboard.press("Space")
    settled(page, where["key"])
    off = stacking_heads(book_inputs(), AttentionConfig(3, 6, 6, 0.0, 3, False, causal=False), RunOptions())
    said = heard(page)
    assert len(said) == 1 and said[0].startswith(mask_sentence(off)), said
    assert page.evaluate("window.__mouse") == 0


CLICKER_JS = """async ([keys, source]) => {
    // the page as drawn: the hidden element whose script listens for the keys
    const marker = Object.assign(document.createElement('span'), {hidden: true, className: 'walk-clicker'});
    marker.dataset.s = 'session';
    document.body.append(marker);
    new Function(keys)();
    window.sent = [];
    window.sender = async () => {  // the component that sends, loaded a moment later
        const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
        const mount = (await import(url)).default;
        const args = (n) => ({data: {n, s: 'session'}, setStateValue: (name, value) => window.sent.push(value)});
        window.first = mount(args(33));
        window.second = mount(args(33));
    }; }"""


def _clicker(page) -> None:
    steps = ROOT / "ui" / "steps"
    keys, source = ((steps / name).read_text(encoding="utf-8") for name in ("clicker_keys.js", "clicker.js"))
    page.set_content("<main>slides</main>")
    page.evaluate(CLICKER_JS, [keys, source])


def test_a_late_cleanup_of_an_older_clicker_mount_leaves_the_keys_working(browser):
    """Streamlit's frontend may run a clicker mount's cleanup after a newer mount (two runs drawn while its script
    loaded). Only the page's own element, removed, frees the keys."""
    page = browser.new_page()
    try:
        _clicker(page)
        page.evaluate("() => window.sender()")
        page.evaluate("() => window.first()")  # the older mount's cleanup, late
        page.keyboard.press("PageDown")
        assert page.evaluate("() => window.sent") == [{"seq": 1, "net": 1, "n": 33, "s": "session"}]
        page.evaluate("() => { window.second(); document.querySelector('.walk-clicker').remove(); }")  # unmounted
        page.keyboard.press("PageDown")
        assert len(page.evaluate("() => window.sent")) == 1  # the key is the page's again
    finally:
        page.close()


def test_presses_before_the_clicker_has_loaded_are_sent_when_it_does(browser):
    """A lecturer's PageUp just after an F5: the page is drawn, and its sender has not loaded yet (CI's cold
    browser). The presses are counted from the page's own script and sent, all of them, when the sender mounts;
    nothing is sent twice. The keys of a page without the walkthrough's clicker are left alone."""
    page = browser.new_page()
    try:
        _clicker(page)
        for key in ("PageUp", "PageUp", "PageDown"):
            page.keyboard.press(key)
        assert page.evaluate("() => window.sent") == []
        page.evaluate("() => window.sender()")
        assert page.evaluate("() => window.sent") == [{"seq": 3, "net": -1, "n": 33, "s": "session"}]
        page.keyboard.press("ArrowRight")
        assert page.evaluate("() => window.sent")[1:] == [{"seq": 4, "net": 0, "n": 33, "s": "session"}]
        page.evaluate("() => document.querySelector('.walk-clicker').remove()")  # another page: no clicker on it
        page.keyboard.press("PageDown")
        assert page.evaluate("() => [window.sent.length, window.attentionClicker.seq]") == [2, 4]
    finally:
        page.close()
