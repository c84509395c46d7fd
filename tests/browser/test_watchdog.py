"""The lecture window's watchdog script (ui/lecture/watchdog.js), on a page built to its selectors.

A lecturer window's beat says which step the session's last full run drew; the window's line says which step the
page shows (a following student is on the light page, fed by the room's event stream: no beat, no watchdog). Under
load Streamlit can drop a finished run's messages before they are sent (the next run clears a session's unsent
queue), and no later beat redraws the line: the window would sit on the old step. The script must notice the
difference and ask for a full run once it has lasted STALE_MS, and leave a page alone whose line matches its beat.
The ask goes through the real heal component (ui/lecture/heal.js), whose state is recorded here as Streamlit would
send it.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from ui.lecture import watchdog
from ui.state import Key

pytestmark = pytest.mark.browser

URL = "http://watchdog.test/"
PAGE = """<div data-testid="stApp" data-test-connection-state="CONNECTED" data-test-script-state="notRunning">
  <div data-testid="stMain"><div data-testid="stElementContainer">
    <div class="st-key-heartbeat">{watch}<span id="beat" data-beat="1" data-behind="0" data-step="{want}"></span></div>
    <div id="line">{line_html}</div>
  </div></div>
</div>"""


def _heal_component() -> str:
    """The heal component, mounted as Streamlit mounts it: its state values are kept in ``window.asks``, and
    ``window.heals`` is the count the last one says."""
    source = (Path(watchdog.__file__).with_name("heal.js")).read_text(encoding="utf-8")
    url = "data:text/javascript;base64," + base64.b64encode(source.encode()).decode()
    return (f'<script type="module">import mount from "{url}"; mount({{data: {{s: "session"}}, setStateValue: '
            '(name, value) => { window.asks = [...(window.asks || []), [name, value]]; window.heals = value.n; }});'
            '</script>')


def _line(line: str, shown: int) -> tuple[str, str]:
    """A lecturer's line (a box keyed walk-at-<k>): its html, and the selector the watchdog expects."""
    return f'<div class="st-key-{line}{shown}">Step {shown} of 33</div>', f".st-key-{line}{shown}"


def _open(page, want: int, shown: int, line: str) -> None:
    line_html, expect = _line(line, shown)
    watch = (f'<span class="attention-watch" data-expect="{expect}" data-beats="1" '
             f'data-stale="{watchdog.STALE_MS}" data-heal="{watchdog.HEAL_MS}"></span>')
    html = (PAGE.format(watch=watch, want=want, line_html=line_html) + f"<script>{watchdog._script()}</script>"
            + _heal_component())
    page.route(URL, lambda route: route.fulfill(body=html, content_type="text/html"))  # an origin: sessionStorage
    page.goto(URL)
    page.unroute(URL)


def _beat(page, k: int) -> None:
    """A new beat every 0.25 s, as a live heartbeat draws (the script heals a stalled one otherwise)."""
    page.evaluate("(k) => { document.getElementById('beat').dataset.beat = String(k); }", k)


@pytest.mark.parametrize("line", [Key.WALK_AT_PREFIX])  # a lecturer's line
def test_a_line_behind_the_step_its_session_drew_is_healed_and_a_matching_one_is_left_alone(page, line):
    _open(page, want=5, shown=4, line=line)  # the run that drew step 5 never reached this browser
    for k in range(2, 2 + int(watchdog.STALE_MS / 250) + 4):
        _beat(page, k)
        page.wait_for_timeout(250)
    assert page.evaluate("window.heals || 0") == 1, "the lost step was not healed"
    assert page.evaluate("window.asks") == [["heal", {"n": 1, "s": "session"}]]

    _open(page, want=5, shown=5, line=line)
    page.evaluate("window.heals = 0")
    for k in range(2, 2 + int(watchdog.STALE_MS / 250) + 4):
        _beat(page, k)
        page.wait_for_timeout(250)
    assert page.evaluate("window.heals || 0") == 0


POLL_PAGE = """<div data-testid="stApp" data-test-connection-state="CONNECTED" data-test-script-state="notRunning">
  <div data-testid="stMain"><div data-testid="stElementContainer">
    <div class="st-key-heartbeat">{watch}<span id="beat" data-beat="1" data-behind="0" data-step="4"
      data-poll="{want}"></span></div>
    {bar}
    {box}
  </div></div>
</div>"""


BARS = {  # the projection's line (its step in its key), and the console's poll box
    "projection": '<div class="st-key-projection-bar"><div class="st-key-walk-at-4">Step 4 of 33</div></div>',
    "console": '<div class="st-key-poll-console"><p>Class poll</p></div>',
}


@pytest.mark.parametrize("window", list(BARS))
@pytest.mark.parametrize(("want", "shown", "healed"), [
    ("3-0", None, 1),  # the run that drew the question never reached this browser
    ("", "3-0", 1),  # the run that closed it never did: a closed question still on screen
    ("3-1", "3-0", 1),  # nor the reveal
    ("3-0", "3-0", 0),
    ("", None, 0),
    ("ask", None, 1),  # the console's box came back empty after a Close: its Ask (and the box's mark) lost
    ("ask", "ask", 0),
    ("3-1", "3-1 buttons=2", 1),  # the box drew Close and Delete, and the page shows neither (Close lost)
    ("3-1", "3-1 buttons=0", 0),  # as many buttons as it drew: left alone
])
def test_a_question_other_than_the_one_its_session_drew_is_healed(page, window, want, shown, healed):
    expect = {"projection": ".st-key-projection-bar",
              "console": ".st-key-poll-console"}[window]
    watch = (f'<span class="attention-watch" data-expect="{expect}" data-beats="1" '
             f'data-stale="{watchdog.STALE_MS}" data-heal="{watchdog.HEAL_MS}"></span>')
    shown, _, buttons = (shown or "").partition(" buttons=")
    box = "" if not shown else f'<span hidden class="poll-drawn" data-poll="{shown}" data-buttons="{buttons}"></span>'
    bar = BARS[window]
    if buttons and window == "projection":
        healed = 0  # only the console's box has buttons to count
    elif buttons:  # the console's mark is inside its box
        bar, box = bar.replace("</div>", f"{box}</div>"), ""
    html = (POLL_PAGE.format(watch=watch, want=want, bar=bar, box=box)
            + f"<script>{watchdog._script()}</script>" + _heal_component())
    page.route(URL, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(URL)
    page.unroute(URL)
    for k in range(2, 2 + int(watchdog.STALE_MS / 250) + 4):
        _beat(page, k)
        page.wait_for_timeout(250)
    assert page.evaluate("window.heals || 0") == healed
