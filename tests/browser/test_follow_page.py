"""The follower's light page (ui/follow/page.py) in Chromium, against a fake room (tests/browser/fake_room.py): each
move drawn and said, an older move ignored, a lost stream said and recovered without a reload, the server's markup
defanged, axe's WCAG A/AA rules in English and Korean, and a phone's width with no sideways scroll.

Screenshots of the page at 360 and 1280 px go to artifacts/screenshots/follow-*.png.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from playwright.sync_api import expect

from tests.browser.fake_room import FakeRoom, view
from tests.browser.harness import ROOT, axe_run, sized_page
from ui.draw.thumbnail import thumbnail_svg
from ui.words.content import app_text, page_text

ROOM = "AbC-12_xyZ09"
SHOTS = ROOT / "artifacts" / "screenshots"
# Counts the events the page's EventSource received, so a test can wait until an event was seen and then look at
# what the page did with it (nothing, for an older move).
COUNT_JS = """(() => {
  const Native = window.EventSource;
  window.__seen = 0;
  window.EventSource = class extends Native {
    constructor(url, init) { super(url, init); this.addEventListener("message", () => { window.__seen += 1; }); }
  };
})();"""
CODE = "attn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)"
MATH = ('<math display="block"><mi>α</mi><mo>=</mo><mi>softmax</mi><mo>(</mo><mi>ω</mi><mo>)</mo></math>')
TOKENS = ["Your", "journey", "starts", "with", "one", "step"]

expect.set_options(timeout=60_000)  # a busy machine; the waits are for a behaviour, not a speed


def weights() -> torch.Tensor:
    torch.manual_seed(123)
    return torch.softmax(torch.randn(6, 6), dim=-1)


def full_view(version: int, lang: str = "en", **more) -> dict:
    """A step with every part: chart, tensor, formula, code, table, and an open poll."""
    w = weights()
    words = page_text("all-queries", lang)
    k = 6
    line = "33단계 중 7단계" if lang == "ko" else None
    table = {"caption": words.steps[0].caption, "columns": ["token", *TOKENS],
             "rows": [[t, *(f"{v:.4f}" for v in row)] for t, row in zip(TOKENS, w.tolist(), strict=True)]}
    question = words.questions[next(iter(words.questions))]
    poll = {"number": 1, "prompt": question("prompt", token="journey", q=2).replace("**", ""), "revealed": False,
            "kind": "number", "label": app_text("your_answer", lang), "options": [],
            "placeholder": app_text("placeholder_number", lang)}
    found = view(version, k, words.steps[1].caption, lang=lang, line=line, section=words.title,
                 chart=thumbnail_svg(w.numpy(), True, words.steps[1].caption), tensor=str(w), formula=MATH,
                 code=CODE, table=table, poll=poll)
    found.update(more)
    return found


def watch(page) -> list[str]:
    """The page's console errors and failed requests (a CSP refusal shows here)."""
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def open_page(page, room: FakeRoom, lang: str = "en") -> None:
    page.add_init_script(COUNT_JS)
    page.goto(f"{room.url}/follow/{ROOM}?lang={lang}")


def line(lang: str, text: str) -> str:
    return app_text("follow_line", lang=lang, line=text)


def test_each_move_is_drawn_and_said_and_an_older_one_is_ignored(browser):
    with FakeRoom() as room, sized_page(browser, 1280, 900) as page:
        errors = watch(page)
        room.push(view(1, 6, "Scores of the query against every key"))
        open_page(page, room)
        expect(page.locator("#line")).to_have_text(line("en", "Step 7 of 33"))
        expect(page.locator("h1")).to_have_text("Scores of the query against every key")
        expect(page.locator("#tensor")).to_have_text("tensor([6.0000])")
        expect(page.locator("#say")).to_have_text("Step 7 of 33: Scores of the query against every key")
        explore = page.locator("#explore")
        expect(explore).to_have_attribute("href", f"{room.url}/walkthrough?lecture=1&walk=6")
        expect(explore).to_have_text(app_text("follow_explore"))  # the app opens in this tab: no "new tab" to say
        assert explore.get_attribute("target") in (None, "_self")

        title = app_text("follow_title")
        expect(page).to_have_title(f"Step 7 of 33 — {title}")  # the tab's title follows the lecture

        room.push(view(2, 7, "The weights: softmax of the scores", tensor=str(weights())))
        expect(page.locator("#line")).to_have_text(line("en", "Step 8 of 33"))
        expect(page).to_have_title(f"Step 8 of 33 — {title}")
        expect(page.locator("h1")).to_have_text("The weights: softmax of the scores")
        expect(page.locator("#tensor")).to_have_text(str(weights()))
        expect(page.locator("#say")).to_have_text("Step 8 of 33: The weights: softmax of the scores")

        seen = page.evaluate("window.__seen")
        room.push_only_now(view(1, 6, "An older move, arriving late"))
        room.push_only_now("{not json")
        room.push_only_now('"a string"')
        page.wait_for_function("n => window.__seen >= n", arg=seen + 3)
        expect(page.locator("#line")).to_have_text(line("en", "Step 8 of 33"))
        expect(page.locator("h1")).to_have_text("The weights: softmax of the scores")
        expect(page.locator("#say")).to_have_text("Step 8 of 33: The weights: softmax of the scores")

        # The same step again, first without its picture and then with it (the lecturer closed a poll): a screen
        # reader is not told the step it is on a second time.
        page.evaluate("""() => { window.__said = 0; new MutationObserver(() => { window.__said += 1; })
          .observe(document.getElementById('say'), {childList: true, characterData: true, subtree: true}); }""")
        seen = page.evaluate("window.__seen")
        caption, tensor = "The weights: softmax of the scores", str(weights())
        room.push(view(3, 7, caption, tensor=tensor, picture=False))
        room.push(view(4, 7, caption, tensor=tensor))
        page.wait_for_function("n => window.__seen >= n", arg=seen + 2)
        expect(page.locator("#tensor")).to_have_text(tensor)
        assert page.evaluate("window.__said") == 0

        room.push(full_view(5))  # a poll opens: its prompt is shown and said
        prompt = full_view(5)["poll"]["prompt"]
        expect(page.locator("#poll-prompt")).to_have_text(prompt)
        expect(page.locator("#say")).to_contain_text(app_text("follow_poll", prompt=prompt))
        assert errors == []


@pytest.mark.parametrize("refused", [False, True], ids=["held", "refused"])
def test_a_lost_stream_says_reconnecting_then_shows_the_new_step_without_a_reload(browser, refused):
    """Held: the browser's EventSource reconnects by itself. Refused (a 503): it gives up, and the page retries."""
    with FakeRoom() as room, sized_page(browser, 360, 740) as page:
        room.push(view(1, 6, "Scores of the query against every key"))
        open_page(page, room)
        expect(page.locator("#line")).to_have_text(line("en", "Step 7 of 33"))
        page.evaluate("window.__stay = 1")  # gone if the page reloads

        room.kill(refuse=refused)
        expect(page.locator("#line")).to_have_text(app_text("follow_reconnecting"))
        expect(page.locator("#line")).to_have_attribute("data-state", "closed")
        room.push(view(2, 9, "The context vector: weights times values"))
        room.restore()
        expect(page.locator("#line")).to_have_text(line("en", "Step 10 of 33"))
        expect(page.locator("h1")).to_have_text("The context vector: weights times values")
        expect(page.locator("#say")).to_have_text("Step 10 of 33: The context vector: weights times values")
        assert page.evaluate("window.__stay") == 1
        assert room.connections >= 2


def test_the_servers_markup_is_defanged(browser):
    with FakeRoom() as room, sized_page(browser, 1280, 900) as page:
        chart = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="window.__pwned=1">'
                 '<script>window.__pwned=2</script><a href="javascript:window.__pwned=3"><rect width="10" '
                 'height="10" onclick="window.__pwned=4"/></a></svg>')
        formula = '<math><mi onmouseover="window.__pwned=5">x</mi></math><img src=x onerror="window.__pwned=6">'
        room.push(view(1, 6, "<b>not markup</b>", chart=chart, formula=formula, explore="javascript:alert(1)"))
        open_page(page, room)
        expect(page.locator("h1")).to_have_text("<b>not markup</b>")
        expect(page.locator("#chart svg rect")).to_have_count(1)
        page.locator("#formula-fold summary").click()
        page.locator("#chart rect").click()
        page.locator("#formula mi").hover()
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("document.querySelectorAll('#chart *, #formula *').length") > 0
        assert page.evaluate("""Array.from(document.querySelectorAll('#chart *, #formula *')).flatMap(
            n => Array.from(n.attributes).map(a => a.name)).filter(n => n.startsWith('on') || n.endsWith('href'))
            """) == []
        expect(page.locator("#explore")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_axe_violation(browser, lang):
    from axe_playwright_python.sync_playwright import Axe

    with FakeRoom() as room, sized_page(browser, 1280, 900) as page:
        open_page(page, room, lang)
        expect(page.locator("#line")).to_have_attribute("data-state", "open")
        expect(page.locator("#line")).to_have_text(app_text("follow_waiting", lang=lang))
        assert axe_run(Axe(), page) == {}  # before the first step: the waiting page
        room.push(full_view(1, lang))
        expect(page.locator("#poll")).to_be_visible()
        for summary in page.locator("summary").all():
            summary.click()  # every fold open: axe checks the formula, the code and the table too
        expect(page.locator("#table td").first).to_be_visible()
        assert axe_run(Axe(), page) == {}


TAP_TARGETS_JS = (Path(__file__).parent / "tap_targets.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(("width", "height", "lang"), [(360, 740, "en"), (360, 740, "ko"), (1280, 900, "en")])
def test_a_phone_never_scrolls_sideways(browser, width, height, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with FakeRoom() as room, sized_page(browser, width, height) as page:
        wide = str(torch.tensor(np.arange(48, dtype=np.float32).reshape(4, 12) / 7))
        room.push(full_view(1, lang, tensor=wide))
        open_page(page, room, lang)
        expect(page.locator("#tensor")).to_have_text(wide)
        for summary in page.locator("summary").all():
            summary.click()
        expect(page.locator("#table td").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
        if width < 600:  # the wide tensor scrolls inside its own box
            box = "document.getElementById('tensor').parentElement"
            assert page.evaluate(f"{box}.scrollWidth > {box}.clientWidth")
            assert page.evaluate(TAP_TARGETS_JS, 44) == []  # every link, fold and button: a finger's 44 px
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=SHOTS / f"follow-{width}-{lang}-top.png")  # what a student sees first
        page.screenshot(path=SHOTS / f"follow-{width}-{lang}.png", full_page=True)


def test_every_part_is_reached_by_keyboard_with_a_visible_focus(browser):
    with FakeRoom() as room, sized_page(browser, 360, 740) as page:
        room.push(full_view(1))
        open_page(page, room)
        expect(page.locator("#poll")).to_be_visible()
        # a number's answer opens a phone's number keyboard (a shape's keeps the full one, for its brackets)
        expect(page.locator("#poll-text")).to_have_attribute("inputmode", "decimal")
        reached = []
        for _ in range(8):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
                return [e.id || e.tagName.toLowerCase() + (e.getAttribute('aria-label') ? ':' + e.getAttribute(
                    'aria-label') : '') , s.outlineStyle, parseFloat(s.outlineWidth)]; }"""))
        # Explore, the open poll's answer and Send, the chart, the printed tensor
        assert [r[0] for r in reached[:5]] == ["explore", "poll-text", "poll-send", "chart", "div"]
        assert sum(r[0] == "summary" for r in reached) == 3  # the formula, the code and the table folds
        assert all(style != "none" and width >= 2 for _, style, width in reached), reached
        page.keyboard.press("Enter")  # the last fold, the table, opens from the keyboard
        expect(page.locator("#table-fold")).to_have_attribute("open", "")
