"""The latency benchmark sees what the learner sees: a slowed chart shows up in its numbers.

The minimal app's number input is timed three ways, taking turns, with the benchmark's own
measuring function (benchmarks/completion.py):
  - as it is;
  - server-side slowdown: BENCH_SLOW_CHART_MS=300 makes the script sleep before drawing its chart
    (same spec, so the chart still updates in place), so the run ends 300 ms later;
  - browser-side slowdown: in this browser context Streamlit's chart component waits 300 ms
    before it swaps the new data into the drawn chart, so the run ends on time and the chart
    redraws 300 ms later, on an idle page.
Both must add at least 250 ms to the median. The browser-side one must come after the run has
finished and painted: a signal that stopped there (or at a quiet DOM) would have missed it.
"""

from __future__ import annotations

import statistics

import pytest

from tests.browser.harness import ROOT, Server, chromium_path

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_path() is None, reason="Debian's chromium is not installed")]

SLOW_MS = 300
REPEATS = 5
CONTROL = '[data-testid="stMain"] input[data-testid="stNumberInputField"]'


def time_minimal_app(browser, repeats: int = REPEATS) -> dict:
    """{"normal" | "server" | "browser": [Timing, ...]} for the minimal app's number input."""
    from benchmarks.completion import control_at, measure_alternating, open_probed, probed_page

    (ROOT / "artifacts").mkdir(exist_ok=True)
    script = ROOT / "benchmarks" / "minimal_app.py"
    normal, slow = Server(script, plain=True), Server(script, env={"BENCH_SLOW_CHART_MS": str(SLOW_MS)}, plain=True)
    try:
        normal.wait_healthy()
        slow.wait_healthy()
        pages = {"normal": (probed_page(browser), normal.url), "server": (probed_page(browser), slow.url),
                 "browser": (probed_page(browser, slow_chart_ms=SLOW_MS), normal.url)}
        for page, url in pages.values():
            open_probed(page, url)
        results = measure_alternating([(page, control_at(page.locator(CONTROL).first))
                                       for page, _ in pages.values()], repeats)
        for page, _ in pages.values():
            page.context.close()
    finally:
        normal.stop()
        slow.stop()
    return dict(zip(pages, results, strict=True))


@pytest.fixture(scope="module")
def timings(browser) -> dict:
    return time_minimal_app(browser)


def median(timings: list, what: str = "total_ms") -> float:
    return statistics.median(getattr(t, what) for t in timings)


def summary(timings: dict) -> str:
    return "; ".join(f"{name}: total {median(ts):.0f} ms, run {median(ts, 'run_ms'):.0f} ms"
                     for name, ts in timings.items())


def test_every_edit_redrew_the_chart(timings):
    assert all(t.changed >= 1 for ts in timings.values() for t in ts), summary(timings)


def test_a_chart_slowed_on_the_server_shows_up(timings):
    added = median(timings["server"]) - median(timings["normal"])
    assert added >= SLOW_MS - 50, summary(timings)


def test_a_chart_redrawn_late_in_the_browser_shows_up(timings):
    added = median(timings["browser"]) - median(timings["normal"])
    assert added >= SLOW_MS - 50, summary(timings)
    # The redraw came after the run had finished and the browser had painted: that part of
    # the wait is what the charts signal adds (without it, the slowdown would be invisible).
    after_run = statistics.median(t.total_ms - t.run_ms for t in timings["browser"])
    assert after_run >= SLOW_MS / 2, summary(timings)


# The projection hears a move on its room's event stream (ui/lecture/listen.js), or, failing that, at its next beat
# (every 2 s). A second of work per event and stream on the server (ui/shell/push.py's deliberately slowed fan-out)
# delays the move it carries by about that much, and the beat by at most its interval.
SLOW_FANOUT_MS = 1000


def time_console_steps(browser, server: Server, repeats: int = REPEATS) -> list:
    """Steps pressed in the presenter console and seen on the projection, with the bench's own functions."""
    from benchmarks.bench_latency import PagingKeys, open_console, open_projection, time_from_console
    from benchmarks.completion import time_interaction

    context, projection = open_projection(browser, server)
    try:
        own = PagingKeys(projection)
        expect = time_interaction(projection, own, 0, None).changed
        time_interaction(projection, own, 1, expect)
        console = open_console(context, projection)
        return [time_from_console(projection, console, step, expect) for step in range(repeats)]
    finally:
        context.close()


def test_a_console_whose_projection_hears_slowly_shows_up(browser, app_server):
    """The console-to-projection row sees how the projection hears the console's move: a room stream a second
    slower per event adds more than 0.3 s to the median, and the bench must see it."""
    from ui.shell.push import SLOW_FANOUT_VAR

    slow = Server(ROOT / "app.py", env={SLOW_FANOUT_VAR: str(SLOW_FANOUT_MS)})
    try:
        slow.wait_healthy()
        normal_times = time_console_steps(browser, app_server)
        slow_times = time_console_steps(browser, slow)
    finally:
        slow.stop()
    assert all(t.changed >= 1 for t in normal_times + slow_times)
    added = median(slow_times) - median(normal_times)
    assert added >= 300, (median(normal_times), median(slow_times))
