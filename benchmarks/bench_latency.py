"""Interaction latency in a real browser: every page of the app against a minimal Streamlit app.

Run: .venv/bin/python benchmarks/bench_latency.py [--repeats 21] [--pages all-queries ...]
(about 35 minutes with the defaults on 2 cores; --repeats 3 takes about 8). 21 edits per row: with 11,
a row's ratio moved by up to +-0.1 between two runs of the same code on this machine.

What is measured. In one run the app and benchmarks/minimal_app.py (the same job in one plain
script: a 6x3 data editor in the sidebar, one number input, one 6x6 heatmap updated in place) are
started, taking turns, three times each (--cold-starts), each on a quiet machine (no CPU busy from
the last start's clean-up), and their cold starts timed (process start until the first page is
complete, as defined below; the median is reported, since a single start varies by a quarter on this
machine). The app starts with its launcher (ui.shell.serve); the minimal app with plain `streamlit run`,
as Streamlit ships it. A third app takes its turn too, for reference: the minimal app that also
imports PyTorch (BENCH_IMPORT_TORCH=1), the floor for any app whose math is PyTorch: importing it
takes about a second here, which the minimal app never pays. (Earlier versions of this benchmark
started the minimal app with ui.shell.serve too, whose preloaded PyTorch made Streamlit's after-run
garbage collection in the minimal app's process about 100 ms slower per edit: a baseline that the
app, which freezes its heap, beat easily.) Then on every page of ui.chapter.PAGES three interactions
are timed, each taking turns with the same kind of edit on the minimal app, with 0.4 s of quiet
before every edit (so that one server's after-run clean-up never lands in the other's measurement):
  (i)   a cell edit in the sidebar matrix (both apps), timed from the Enter that commits it;
  (ii)  the page's main control: the first number input or slider in the main area; a new
        number and Enter, or one arrow key on a slider; against the minimal app's number input.
        The home page has none: there the sidebar's "Embedding width" changes, against the
        minimal app's own "Embedding width" (in both, a new column rebuilds the data editor,
        which Streamlit 1.67 gives a new identity whenever a dynamic editor's data changes);
  (iii) the number of heads, where the page has a control whose label contains "heads".
Every series starts with one untimed warm-up edit, and alternates between two values. Then the
GPT-2-size scenario (Exercise 3.3: 1024 tokens x 768 dims from a shared link, d_out 768, 12 heads
on 3.6.2) times the causal-mask toggle, and the server's memory per session is measured.

When an interaction is complete (benchmarks/completion_probe.js, added to every browser context
with context.add_init_script, so it runs before Streamlit's own scripts; benchmarks/completion.py
drives it):
  1. Input: the first keydown or pointerdown after the probe is armed. The edit is typed before
     arming, so the timed event is the committing key (or the click of a toggle).
  2. Script run: a MutationObserver on [data-testid="stApp"] watches its attribute
     data-test-script-state (Streamlit 1.67 sets "initial", "running", "notRunning",
     "rerunRequested", ...). Every change of the attribute is a record, so a run that starts and
     ends between two polls is never missed: the run has finished at the first "notRunning" that
     follows a "running" after the input (a new run before completion starts this again). But
     the attribute is React state, and on a busy page React can commit a whole fast run at once:
     the attribute then never changes (seen here under load). So the probe also reads the
     top-level field numbers of every ForwardMsg on the app's WebSocket (numbers taken from
     Streamlit's protobuf descriptors): new_session starts a run, script_finished (other than
     "finished early for a rerun") ends it. A run seen only that way has finished at its
     script_finished message, and the app's DOM mutations that follow (React committing it) are
     waited for like chart draws. The report counts such runs.
  3. Charts: the probe notes performance.now() whenever a chart draws: any drawing call of a
     CanvasRenderingContext2D on a canvas inside .vega-embed (Vega's canvas renderer, which
     Streamlit picks for large charts), and any DOM mutation inside .vega-embed (Vega's SVG
     renderer updates its SVG in place when Streamlit swaps a named dataset into a drawn chart).
  4. Complete: at the second requestAnimationFrame callback after the later of "run finished"
     and "last chart draw" (the browser has painted a frame with everything in it), provided the
     charts that the edit changes already show something new. Which charts change is learned
     from the warm-up edit: it waits until no chart has drawn for 0.5 s after the run, then
     counts the charts whose picture (the SVG markup, or a hash of the canvas pixels) differs
     from before the edit; every timed edit waits until that many charts show a new picture.
     Quiet frames alone are not enough: a redraw that starts late, on an idle main thread after
     the run, would be missed.
Times are taken with the page's clock (performance.now()), so Playwright's round trips do not
count. Each result also carries the time until the run finished and two frames were painted,
charts ignored (Timing.run_ms): the difference is what the charts add after the run.

Proof that it sees what the learner sees: benchmarks/selfcheck/test_latency_sees_a_slowdown.py (make
bench-selfcheck) times the minimal app with and without a 300 ms chart slowdown, and requires the slowed
median to be >= 250 ms larger.
  - Server-side: BENCH_SLOW_CHART_MS=300 makes the minimal app sleep before st.vega_lite_chart
    (same spec, so the chart still updates in place, later).
  - Browser-side: completion.slow_chart_redraws(context, 300) patches Streamlit's chart component
    as the browser loads it (a Playwright route on the ArrowVegaLiteChart chunk), so that it
    waits 300 ms before it swaps the new data into the chart: the run ends on time and the chart
    redraws 300 ms later. This is the case that a "DOM quiet" or "run finished" signal misses
    (in the test, run_ms does not grow, total_ms does). The patch matches Streamlit 1.67's
    minified code; after an upgrade it fails loudly instead of measuring nothing.
    --slow-chart-ms and --slow-chart-side apply either slowdown to the minimal app here too.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.completion import (  # noqa: E402
    PROBE,
    QUIET_S,
    RETRY_ON,
    SETTLE_MS,
    TIMEOUT_MS,
    VIEWPORT,
    Click,
    Interaction,
    MatrixCell,
    StepKeys,
    Timing,
    control_at,
    measure_alternating,
    open_probed,
    probed_page,
    proto_fields,
    time_interaction,
    wait_cpu_quiet,
)
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path, wait_idle  # noqa: E402
from ui.chapter import PAGES  # noqa: E402
from ui.inputs.matrix import random_matrix  # noqa: E402
from ui.sharing.codec import encode_state  # noqa: E402
from ui.words.content import app_text, page_text  # noqa: E402

MAIN_CONTROL = ('[data-testid="stMain"] input[data-testid="stNumberInputField"], '
                '[data-testid="stMain"] input[type="range"]')
HEADS = '[data-testid="stMain"] input[aria-label*="heads" i]'
WIDTH = '[data-testid="stSidebar"] input[aria-label="Embedding width"]'
MINIMAL_CONTROL = '[data-testid="stMain"] input[data-testid="stNumberInputField"]'
TARGET_RATIO, TARGET_COLD, TARGET_TOGGLE_S, TARGET_MB = 1.2, 1.5, 2.0, 50
TARGET_CONSOLE_EXTRA_MS = 500  # a step pressed in the console, seen on the projection: at most this slower
PROJECTION_STEP = 9  # the walkthrough's 3.3.2 attention weights (a 6x6 heatmap), and its next step (the context)


class Report:
    """The markdown report: printed as it grows, and written to a file at the end."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ok = True

    def say(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)

    def check(self, value: float, limit: float, what: str) -> str:
        passed = value <= limit
        self.ok &= passed
        return f"{'PASS' if passed else 'FAIL'} (<= {limit:g}{what})"

    def write(self, path: Path, argv: list[str]) -> None:
        command = " ".join([".venv/bin/python", "benchmarks/bench_latency.py", *argv])
        path.write_text(f"# Interaction latency\n\nCommand: `{command}`\n\n" + "\n".join(self.lines) + "\n")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def url_of(server: Server, page_id: str) -> str:
    return server.url + ("/" if page_id == PAGES[0].page_id else f"/{page_id}")


def cold_start(browser, script: Path, path: str = "/", env: dict[str, str] | None = None,
               plain: bool = False) -> tuple[Server, float]:
    """Start a server on a quiet machine; seconds from process start until its first page is complete."""
    wait_cpu_quiet()
    server = Server(script, env=env, plain=plain)
    server.wait_healthy(timeout=120)
    page = probed_page(browser)
    open_probed(page, server.url + path, timeout_ms=120_000, idle=False)
    elapsed = time.perf_counter() - server.started
    page.context.close()
    return server, elapsed


def report_cold_start(report: Report, minimal: list[float], floor: list[float], app: list[float]) -> None:
    report.say(f"## Cold start (process start to first complete page; median of {len(app)}, taking turns)\n")
    report.say("| app | median (s) | all (s) | ratio | target |")
    report.say("|---|---:|---|---:|---|")
    base = statistics.median(minimal)

    def row(name: str, values: list[float], target: str = "") -> float:
        ratio = statistics.median(values) / base
        every = ", ".join(f"{s:.2f}" for s in values)
        report.say(f"| {name} | {statistics.median(values):.2f} | {every} | {ratio:.2f} | {target} |")
        return ratio

    row("minimal app", minimal)
    row("minimal app + `import torch` (reference: the floor for PyTorch)", floor)
    ratio = statistics.median(app) / base
    row("this app (/all-queries)", app, report.check(ratio, TARGET_COLD, "x"))


def app_interactions(page) -> list[tuple[str, Interaction]]:
    """The page's interactions, found by stable things: data-testids, widget aria-labels."""
    found: list[tuple[str, Interaction]] = [("cell edit", MatrixCell(page))]
    later = page.get_by_text(app_text("later_controls"))
    if later.count():  # 3.3.1, 3.3.2, 3.4.1 fold the mask and dropout: open them, as the runs before did
        later.first.click()
        wait_idle(page)
    main = page.locator(MAIN_CONTROL).filter(visible=True)
    # A page without a control of its own (home): the sidebar's matrix width, against the minimal app's.
    found.append(("main control", control_at(main.first)) if main.count() else
                 ("matrix width", control_at(page.locator(WIDTH).first)))
    heads = page.locator(HEADS).filter(visible=True)
    if heads.count():
        found.append(("heads", control_at(heads.first)))
    return found


def minimal_interaction(page, kind: str) -> Interaction:
    """The same job on the minimal app: a cell edit, its matrix width, or its one control (for the rest)."""
    if kind == "cell edit":
        return MatrixCell(page)
    return control_at(page.locator(WIDTH if kind == "matrix width" else MINIMAL_CONTROL).first)


def latency_row(report: Report, label: str, app_times: list[Timing], min_times: list[Timing]) -> None:
    a = [t.total_ms for t in app_times]
    m = [t.total_ms for t in min_times]
    a50, m50 = statistics.median(a), statistics.median(m)
    ratio = a50 / m50
    report.say(f"| {label} | {a50:.0f} | {pct(a, 0.9):.0f} | {m50:.0f} | {pct(m, 0.9):.0f} | {ratio:.2f} "
               f"| {report.check(ratio, TARGET_RATIO, 'x')} |")


def page_latencies(report: Report, apage, mpage, app: Server, page_id: str, repeats: int) -> list[Timing]:
    open_probed(apage, url_of(app, page_id))
    timed: list[Timing] = []
    for kind, interaction in app_interactions(apage):
        app_times, min_times = measure_alternating(
            [(apage, interaction), (mpage, minimal_interaction(mpage, kind))], repeats)
        latency_row(report, f"{page_id} | {kind} ({interaction.label})", app_times, min_times)
        timed += app_times + min_times
    steps = [s.name for s in page_text(page_id).steps]
    if steps:  # lecture mode: a step change is an interaction like any other
        # From the first step; where the first steps draw no chart (3.6.2's shapes), from the scores.
        starts = ["", *(["&step=scores"] if "scores" in steps else [])]
        for start in starts:
            open_probed(apage, url_of(app, page_id) + "?lecture=1" + start)
            try:
                app_times, min_times = measure_alternating(
                    [(apage, StepKeys(apage)), (mpage, minimal_interaction(mpage, "main control"))], repeats)
            except PlaywrightError as exc:
                failure = str(exc).splitlines()[0][:120]
                continue
            where = f", from {start[6:]}" if start else ""
            latency_row(report, f"{page_id} | step change ({StepKeys.label}{where})", app_times, min_times)
            return timed + app_times + min_times
        report.say(f"| {page_id} | step change | not measured: {failure} | | | | | |")
        report.ok = False
    return timed


def report_latencies(report: Report, browser, app: Server, minimal: Server, args) -> None:
    report.say(f"\n## Interaction latency ({args.repeats} edits per page and interaction, alternating app and "
               "minimal app; input event to script run finished, changed charts redrawn, and painted)\n")
    report.say("| page | interaction (widget) | app median (ms) | app p90 (ms) | minimal median (ms) "
               "| minimal p90 (ms) | ratio of medians | target |")
    report.say("|---|---|---:|---:|---:|---:|---:|---|")
    slow_browser = args.slow_chart_ms if args.slow_chart_side == "browser" else 0
    mpage = probed_page(browser, slow_chart_ms=slow_browser)
    open_probed(mpage, minimal.url)
    apage = probed_page(browser)
    timed = [t for page_id in args.pages for t in page_latencies(report, apage, mpage, app, page_id, args.repeats)]
    apage.context.close()
    mpage.context.close()
    unseen = sum(not t.attribute_saw_run for t in timed)
    report.say(f"\nRuns that the script-state attribute never showed (React committed them at once; seen in the "
               f"server's messages): {unseen} of {len(timed)} timed edits.")


class PagingKeys(Interaction):
    """The clicker's keys on the walkthrough: PageDown to the next step, PageUp back."""

    label = "PageDown / PageUp"

    def __init__(self, page):
        self.page = page

    def prepare(self, step: int) -> None:
        self.page.bring_to_front()  # after an edit in the minimal app's window (see time_from_console)
        self.page.evaluate("() => document.activeElement && document.activeElement.blur()")  # keys to the page

    def commit(self, step: int) -> None:
        self.page.keyboard.press("PageDown" if step % 2 == 0 else "PageUp")


def open_projection(browser, app: Server):
    """The walkthrough's projection (1280x720) at PROJECTION_STEP, in a probed browser context."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(script=f"window.__benchProto = {json.dumps(proto_fields())};")
    context.add_init_script(path=str(PROBE))
    projection = context.new_page()
    open_probed(projection, f"{app.url}/walkthrough?lecture=1&walk={PROJECTION_STEP}")
    return context, projection


def open_console(context, projection):
    """The presenter console that the projection opens with P: a second probed page of its browser
    context (two Streamlit sessions, one room). From now on the projection polls the room."""
    with context.expect_page() as opened:
        projection.keyboard.press("p")
    console = opened.value
    console.set_viewport_size(VIEWPORT)
    console.wait_for_selector(".st-key-console-note", timeout=60_000)
    console.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000)
    wait_idle(console)
    wait_idle(projection)
    return console


REMOTE_RETRIES: list[int] = []  # console steps whose key was dropped and pressed again (reported)


def time_from_console(projection, console, step: int, expect: int, attempts: int = 3) -> Timing:
    """One step pressed in the console (PageDown, then PageUp back), timed from its keydown in the
    console until the projection is complete (its run finished, its charts changed, painted)."""
    # The console opens as a window of its own (a popup, as reveal.js's speaker view), so both are
    # drawn at full frame rate, as the laptop's screen and the projector are. The projection's window
    # is brought to the front after the minimal app's window had the keys: Chromium slows the
    # animation frames of a window that lost the focus, by which the probe sees a page complete.
    projection.bring_to_front()
    for attempt in range(attempts):
        wait_idle(projection, settle_ms=50)
        wait_idle(console, settle_ms=50)
        time.sleep(QUIET_S)
        projection.evaluate("() => window.__bench.arm(true)")
        console.evaluate("() => { document.activeElement && document.activeElement.blur(); window.__bench.arm(); }")
        console.keyboard.press("PageDown" if step % 2 == 0 else "PageUp")
        try:
            seen = projection.evaluate("([e, s, t]) => window.__bench.wait(e, s, t)", [expect, SETTLE_MS, TIMEOUT_MS])
        except PlaywrightError as exc:
            if not any(reason in str(exc) for reason in RETRY_ON):  # a dropped key: pressed again, logged
                raise
            logging.warning("console step: %s (attempt %d); pressing again", str(exc)[:160], attempt + 1)
            REMOTE_RETRIES.append(step)
            continue
        pressed = console.evaluate("() => window.__bench.inputEpoch()")
        if pressed is None:
            continue
        total = seen["done_epoch"] - pressed
        return Timing(**{**seen, "total_ms": total, "run_ms": total - seen["total_ms"] + seen["run_ms"]})
    raise RuntimeError("the projection did not follow the console")


def report_projection(report: Report, browser, app: Server, minimal: Server, repeats: int) -> None:
    """The lecture's two windows: a step change on the projection itself, against the minimal app's
    control change; and the same step pressed in the presenter console and seen on the projection,
    against the projection's own, taking turns (the console open, so the projection polls its room)."""
    report.say(f"\n## The projection and its presenter console ({repeats} step changes each, taking turns; "
               "walkthrough steps 9 and 10: the 6x6 weights and the context vectors)\n")
    context, projection = open_projection(browser, app)
    mpage = probed_page(browser)
    open_probed(mpage, minimal.url)
    own, control = PagingKeys(projection), minimal_interaction(mpage, "main control")
    try:
        # Warm-up: 9 -> 10 counts the charts a step change redraws (it waits for 0.5 s without a run,
        # which a polling projection never has: so before the console opens), and back.
        expect = time_interaction(projection, own, 0, None).changed
        time_interaction(projection, own, 1, expect)
        floor_expect = time_interaction(mpage, control, 0, None).changed
        console = open_console(context, projection)
        on_projection, on_minimal, from_console = [], [], []
        for step in range(2, repeats + 2):
            on_projection.append(time_interaction(projection, own, step, expect))
            on_minimal.append(time_interaction(mpage, control, step - 1, floor_expect))
            from_console.append(time_from_console(projection, console, step + 1, expect))
    finally:
        context.close()
        mpage.context.close()
    report.say("| interaction | app median (ms) | app p90 (ms) | baseline median (ms) | baseline p90 (ms) "
               "| measure | target |")
    report.say("|---|---:|---:|---:|---:|---:|---|")
    a = [t.total_ms for t in on_projection]
    m = [t.total_ms for t in on_minimal]
    c = [t.total_ms for t in from_console]
    ratio = statistics.median(a) / statistics.median(m)
    report.say(f"| step change on the projection (PageDown / PageUp), against the minimal app's control change "
               f"| {statistics.median(a):.0f} | {pct(a, 0.9):.0f} | {statistics.median(m):.0f} | {pct(m, 0.9):.0f} "
               f"| {ratio:.2f}x | {report.check(ratio, TARGET_RATIO, 'x')} |")
    extra = statistics.median(c) - statistics.median(a)
    report.say(f"| step pressed in the console, seen on the projection, against the same step pressed on the "
               f"projection | {statistics.median(c):.0f} | {pct(c, 0.9):.0f} | {statistics.median(a):.0f} "
               f"| {pct(a, 0.9):.0f} | +{extra:.0f} ms | {report.check(extra, TARGET_CONSOLE_EXTRA_MS, ' ms')} |")
    report.say(f"\nConsole steps pressed again (a dropped key, not timed): {len(REMOTE_RETRIES)}.")


GPT2_PAGE = "weight-splits"


def gpt2_page(browser, app: Server, url: str):
    """Open the GPT-2-size link; return the page and the seconds until its first render was complete."""
    page = probed_page(browser)
    start = time.perf_counter()
    open_probed(page, url, timeout_ms=120_000, idle=False)
    first = time.perf_counter() - start
    width = page.locator(WIDTH).first.input_value()
    if width != "768":
        raise RuntimeError(f"the shared link did not load the 1024 x 768 matrix (embedding width {width})")
    return page, first


def report_gpt2(report: Report, browser, app: Server, sessions: int) -> None:
    report.say("\n## GPT-2 size on 3.6.2 (1024 tokens x 768 dims, random embeddings, d_out 768, 12 heads)\n")
    link, _ = encode_state(random_matrix(1024, 768, 0), {GPT2_PAGE: {"d_out": 768, "num_heads": 12}})
    url = f"{app.url}/{GPT2_PAGE}?s={link}"
    base_rss = app.rss_mb()
    page, first = gpt2_page(browser, app, url)
    toggle = Click(page.locator('label:has(input[aria-label="Causal mask"])').first, "Causal mask")
    [toggles] = measure_alternating([(page, toggle)], 3, timeout_ms=60_000)
    med = statistics.median(t.total_ms for t in toggles) / 1000
    report.say("| measure | value | target |")
    report.say("|---|---:|---|")
    report.say(f"| first render from a shared link | {first:.2f} s | |")
    report.say(f"| toggle the causal mask (median of 3) | {med:.2f} s | {report.check(med, TARGET_TOGGLE_S, ' s')} |")
    extra = [gpt2_page(browser, app, url)[0] for _ in range(sessions)]
    time.sleep(2)
    per_session = (app.rss_mb() - base_rss) / (sessions + 1)
    report.say(f"| server memory per session ({sessions + 1} sessions, RSS delta / sessions) | "
               f"{per_session:.1f} MB | {report.check(per_session, TARGET_MB, ' MB')} |")
    for pg in extra + [page]:
        pg.context.close()


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--pages", nargs="*", default=[p.page_id for p in PAGES])
    ap.add_argument("--sessions", type=int, default=4, help="extra sessions for the memory measurement")
    ap.add_argument("--cold-starts", type=int, default=3, help="cold starts of each app (the median is reported)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "LATENCY.md"))
    ap.add_argument("--slow-chart-ms", type=int, default=0, help="slow the minimal app's chart down (self-check)")
    ap.add_argument("--slow-chart-side", choices=["server", "browser"], default="server")
    ap.add_argument("--only-projection", action="store_true",
                    help="only the projection and console rows (and the servers' cold starts)")
    args = ap.parse_args(argv)
    unknown = set(args.pages) - {p.page_id for p in PAGES}
    if unknown:
        ap.error(f"unknown pages: {', '.join(sorted(unknown))}")
    return args


def run(args: argparse.Namespace, report: Report) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        env = {"BENCH_SLOW_CHART_MS": str(args.slow_chart_ms)} if args.slow_chart_side == "server" else {}
        minimal = app = None
        try:
            minimal_cold, torch_cold, app_cold = [], [], []
            for _ in range(args.cold_starts):  # taking turns; the last two servers stay up for the rest
                for server in (minimal, app):
                    if server is not None:
                        server.stop()
                minimal, seconds = cold_start(browser, ROOT / "benchmarks" / "minimal_app.py", env=env, plain=True)
                minimal_cold.append(seconds)
                floor, seconds = cold_start(browser, ROOT / "benchmarks" / "minimal_app.py",
                                            env={**env, "BENCH_IMPORT_TORCH": "1"}, plain=True)
                torch_cold.append(seconds)
                floor.stop()
                app, seconds = cold_start(browser, ROOT / "app.py", "/all-queries")
                app_cold.append(seconds)
            report_cold_start(report, minimal_cold, torch_cold, app_cold)
            if not args.only_projection:
                report_latencies(report, browser, app, minimal, args)
            report_projection(report, browser, app, minimal, args.repeats)
            if not args.only_projection:
                report_gpt2(report, browser, app, args.sessions)
        finally:
            for server in (app, minimal):
                if server is not None:
                    server.stop()
            browser.close()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if chromium_path() is None:
        print("chromium is not installed: apt-get install chromium")
        return 1
    logging.basicConfig(level=logging.WARNING, format="%(message)s")  # retried edits go to stderr
    (ROOT / "artifacts").mkdir(exist_ok=True)
    report = Report()
    run(args, report)
    report.say(f"\nOverall: {'PASS' if report.ok else 'FAIL'}")
    report.write(Path(args.out), argv)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
