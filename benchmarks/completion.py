"""When is an interaction complete? The measuring function of bench_latency.py (method: see there).

``probed_page`` opens a page whose context carries ``completion_probe.js``; an ``Interaction``
knows how to put a widget into its other state (``prepare``) and which key or click commits it
(``commit``); ``time_interaction`` times one commit; ``measure_alternating`` times several
subjects in turn, after one warm-up edit each that also counts the charts the edit changes.
``slow_chart_redraws`` delays every in-place chart update in one browser context, to prove
that the measurement sees it.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

from tests.browser.harness import open_matrix_cell, wait_idle

__all__ = ["PROBE", "Timing", "Interaction", "NumberInput", "Slider", "MatrixCell", "Click", "control_at",
           "proto_fields", "probed_page", "open_probed", "slow_chart_redraws", "time_interaction",
           "measure_alternating", "wait_cpu_quiet"]

log = logging.getLogger(__name__)

PROBE = Path(__file__).with_name("completion_probe.js")
VIEWPORT = {"width": 1400, "height": 1400}
QUIET_S = 0.4  # before every edit: no server's after-run clean-up lands in the other's measurement
SETTLE_MS = 500  # calibration: no chart draw for this long after the run = every chart is final
TIMEOUT_MS = 10_000
RETRY_ON = ("no input event", "no script run")  # a dropped keypress: type the edit again


@dataclass(frozen=True)
class Timing:
    """Milliseconds from the input event (keydown or pointerdown) to ..."""

    total_ms: float  # ... the run finished, the changed charts redrawn, and two frames painted
    run_ms: float  # ... the run finished and two frames painted (charts not waited for)
    finished_ms: float  # ... the run finished (attribute back to "notRunning", or its script_finished message)
    last_draw_ms: float | None  # ... the last chart draw (None: no chart drew)
    draws: int  # chart drawing calls and batches of SVG mutations seen
    changed: int  # charts whose picture differs from before the input
    attribute_saw_run: bool  # False: React committed the whole run at once, seen only in the messages
    done_epoch: float = 0.0  # when it was complete, in milliseconds since the epoch (the pages' common clock)


class Interaction:
    """A widget edit that alternates between the widget's value and another one."""

    label: str = ""

    def prepare(self, step: int) -> None:
        """Get the edit ready without committing it (even steps: the other value; odd: back)."""

    def commit(self, step: int) -> None:
        raise NotImplementedError


class NumberInput(Interaction):
    def __init__(self, field):
        self.field = field
        self.label = field.get_attribute("aria-label") or "number input"
        self.base: str | None = None
        self.other = ""

    def prepare(self, step: int) -> None:
        if self.base is None:
            self.base = self.field.input_value()
            value, top = float(self.base), self.field.get_attribute("max")
            new = value + 1 if top is None or value + 1 <= float(top) else value - 1
            self.other = str(int(new)) if new.is_integer() and "." not in self.base else str(new)
        self.field.fill(self.other if step % 2 == 0 else self.base)

    def commit(self, step: int) -> None:
        self.field.press("Enter")


class Slider(Interaction):
    """A slider or select slider: one arrow key away and back."""

    def __init__(self, field):
        self.field = field
        self.label = field.get_attribute("aria-label") or "slider"
        self.keys: tuple[str, str] | None = None

    def prepare(self, step: int) -> None:
        if self.keys is None:
            at_top = float(self.field.input_value()) >= float(self.field.get_attribute("max") or "inf")
            self.keys = ("ArrowLeft", "ArrowRight") if at_top else ("ArrowRight", "ArrowLeft")
        self.field.focus()

    def commit(self, step: int) -> None:
        self.field.press(self.keys[step % 2])


class MatrixCell(Interaction):
    """A cell of the sidebar's data editor (col 0 = token, 1 = d1, ...); timed from the committing Enter."""

    def __init__(self, page, row: int = 1, col: int = 1):
        self.page, self.row, self.col = page, row, col
        self.label = f"matrix cell ({row + 1}, d{col})"
        self.values: tuple[str, str] | None = None

    def prepare(self, step: int) -> None:
        if self.values is None:  # the grid's accessible table holds the cell's text
            base = (self.page.locator(
                f'[data-testid="stSidebar"] [role="row"][aria-rowindex="{self.row + 2}"] '
                f'[role="gridcell"][aria-colindex="{self.col + 1}"]').first.text_content() or "").strip()
            self.values = ("0.1" if base and float(base) == 0.9 else "0.9", base)
        open_matrix_cell(self.page, self.row, self.col, self.values[step % 2])

    def commit(self, step: int) -> None:
        self.page.keyboard.press("Enter")


class Click(Interaction):
    """A toggle or checkbox, clicked: every click flips it."""

    def __init__(self, target, label: str):
        self.target, self.label = target, label

    def commit(self, step: int) -> None:
        self.target.click()


class StepKeys(Interaction):
    """Lecture mode's step-through: → to the next step and ← back, as a presentation clicker does."""

    label = "step change (→ / ←)"

    def __init__(self, page):
        self.page = page

    def prepare(self, step: int) -> None:
        self.page.evaluate("() => document.activeElement && document.activeElement.blur()")  # keys to the page

    def commit(self, step: int) -> None:
        self.page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")


def control_at(locator) -> Interaction:
    """The right Interaction for a number input or a slider (an <input type="range">)."""
    return Slider(locator) if locator.get_attribute("type") == "range" else NumberInput(locator)


def proto_fields() -> dict[str, int]:
    """The ForwardMsg fields the probe reads, from Streamlit's own protobuf descriptors."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    fields = ForwardMsg.DESCRIPTOR.fields_by_name
    return {"newSession": fields["new_session"].number, "scriptFinished": fields["script_finished"].number,
            "finishedEarlyForRerun": ForwardMsg.FINISHED_EARLY_FOR_RERUN}


def _cpu_busy_idle() -> tuple[int, int]:
    """Jiffies the whole machine has spent busy and idle since boot (/proc/stat, Linux)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, idle


def wait_cpu_quiet(busy_below: float = 0.15, window_s: float = 0.25, timeout_s: float = 10.0) -> float:
    """Wait until the machine's CPUs are mostly idle over ``window_s``: a process that has just been
    stopped, or a browser tab that has just been closed, is done with its clean-up. Returns the
    seconds waited (at most ``timeout_s``; without /proc/stat, waits one window)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        try:
            b0, i0 = _cpu_busy_idle()
            time.sleep(window_s)
            b1, i1 = _cpu_busy_idle()
        except OSError:
            time.sleep(window_s)
            break
        if (b1 - b0) <= busy_below * max(1, (b1 - b0) + (i1 - i0)):
            break
    return time.monotonic() - start


def probed_page(browser, slow_chart_ms: int = 0):
    """A page in its own browser context, with the completion probe installed before any script."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(script=f"window.__benchProto = {json.dumps(proto_fields())};")
    context.add_init_script(path=str(PROBE))
    if slow_chart_ms:
        slow_chart_redraws(context, slow_chart_ms)
    return context.new_page()


def open_probed(page, url: str, timeout_ms: float = 60_000, idle: bool = True) -> None:
    """Open a URL and wait until its script run has finished and its charts have stopped drawing
    for three frames (and, with ``idle``, until harness.wait_idle agrees: no rerun pending)."""
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms)
    page.evaluate("([f, t]) => window.__bench.settled(f, t)", [3, timeout_ms])
    if idle:
        wait_idle(page, timeout_ms=timeout_ms)


# In Streamlit 1.67's ArrowVegaLiteChart chunk, the hook that swaps a changed dataset into the
# drawn chart starts ``updateView:(0,L.useCallback)(async(e,t)=>r.current===null||p?null:(...``.
UPDATE_VIEW = re.compile(r"(updateView:\(0,[\w$]+\.useCallback\)\(async\([\w$]+,[\w$]+\)=>)")


def slow_chart_redraws(context, ms: int) -> None:
    """Delay every in-place chart update of this browser context by ``ms`` (browser-side slowdown).

    The chart's new data reaches the chart component while the script runs; with this, the
    component waits ``ms`` before it hands the data to Vega, so the chart redraws after the
    run has finished, on an idle main thread."""

    def patch(route) -> None:
        response = route.fetch()
        source, n = UPDATE_VIEW.subn(rf"\1(await new Promise(z=>setTimeout(z,{int(ms)})),!1)||", response.text())
        if n != 1:
            raise RuntimeError("cannot find updateView in Streamlit's chart code: was Streamlit upgraded?")
        route.fulfill(response=response, body=source)

    context.route("**/static/js/ArrowVegaLiteChart.*.js", patch)


def time_interaction(page, interaction: Interaction, step: int, expect: int | None,
                     timeout_ms: float = TIMEOUT_MS, attempts: int = 3) -> Timing:
    """Time one edit: from its input event until it is complete (``expect``: see completion_probe.js).

    A keypress that arrives while the page is still settling can be dropped by the browser;
    such an attempt is not timed: the edit is made again (and logged)."""
    for attempt in range(attempts):
        wait_idle(page, settle_ms=50)
        time.sleep(QUIET_S)
        interaction.prepare(step)
        page.evaluate("() => window.__bench.arm()")
        interaction.commit(step)
        try:
            result = page.evaluate("([e, s, t]) => window.__bench.wait(e, s, t)", [expect, SETTLE_MS, timeout_ms])
        except PlaywrightError as exc:
            if not any(reason in str(exc) for reason in RETRY_ON):
                raise
            log.warning("%s: %s (attempt %d); making the edit again", interaction.label, exc, attempt + 1)
            continue
        return Timing(**result)
    raise RuntimeError(f"{interaction.label}: the page did not respond to {attempts} edits")


def measure_alternating(subjects: Sequence[tuple[object, Interaction]], repeats: int,
                        timeout_ms: float = TIMEOUT_MS) -> list[list[Timing]]:
    """Time ``repeats`` edits of every (page, interaction), taking turns, after one warm-up each.

    The warm-up edit is not timed; it counts the charts that the edit changes (waiting until no
    chart has drawn for SETTLE_MS), and every timed edit then waits for that many charts to show
    something new. An odd number of edits is followed by one more, so every control ends where
    it started."""
    expects = [time_interaction(page, it, 0, None, timeout_ms).changed for page, it in subjects]
    timings: list[list[Timing]] = [[] for _ in subjects]
    for step in range(1, repeats + 1):
        for (page, it), expect, out in zip(subjects, expects, timings, strict=True):
            out.append(time_interaction(page, it, step, expect, timeout_ms))
    if (repeats + 1) % 2:
        for (page, it), expect in zip(subjects, expects, strict=True):
            time_interaction(page, it, repeats + 1, expect, timeout_ms)
    return timings
