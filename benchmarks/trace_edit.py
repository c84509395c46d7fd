"""Chromium's own timeline for a page's main control, the app's 3.3.1 against the minimal app, and against the
minimal app drawing 3.3.1's elements besides (``BENCH_FRAME=1``): where the browser's main thread spends an edit,
and which scripts it runs (LATENCY.md, "Where one-query's control change goes").

Usage: .venv/bin/python benchmarks/trace_edit.py [--edits 8]   (a probe, not a benchmark with a target; 2 minutes)
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks import bench_latency  # noqa: E402
from benchmarks.completion import control_at, open_probed, probed_page, time_interaction  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path  # noqa: E402

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline"


def traced(page, interaction, edits: int) -> tuple[float, collections.Counter, collections.Counter]:
    """``edits`` timed edits under Chromium's tracing: the median milliseconds to the run's end, and the renderer
    main thread's time per edit by event name and by script function (nested events overlap)."""
    cdp = page.context.new_cdp_session(page)
    events: list[dict] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
    expect = time_interaction(page, interaction, 0, None).changed
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    finished = sorted(time_interaction(page, interaction, step, expect).finished_ms for step in range(1, edits + 1))
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    main = {e["tid"] for e in events if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"}
    by_event, by_function = collections.Counter(), collections.Counter()
    for e in events:
        if e.get("ph") != "X" or e.get("tid") not in main or "dur" not in e:
            continue
        by_event[e["name"]] += e["dur"] / 1000 / edits
        if e["name"] == "FunctionCall":
            data = e.get("args", {}).get("data", {})
            by_function[(data.get("url", "").rsplit("/", 1)[-1], data.get("functionName", ""))] += \
                e["dur"] / 1000 / edits
    return finished[edits // 2], by_event, by_function


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=8)
    args = parser.parse_args()
    app, minimal = Server(ROOT / "app.py"), Server(ROOT / "benchmarks" / "minimal_app.py", plain=True)
    framed = Server(ROOT / "benchmarks" / "minimal_app.py", env={"BENCH_FRAME": "1"}, plain=True)
    try:
        for server in (app, minimal, framed):
            server.wait_healthy(120)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            app_page, minimal_page, framed_page = probed_page(browser), probed_page(browser), probed_page(browser)
            open_probed(app_page, app.url + "/one-query")
            open_probed(minimal_page, minimal.url)
            open_probed(framed_page, framed.url)
            control = dict(bench_latency.app_interactions(app_page))["main control"]
            subjects = (("app, 3.3.1", app_page, control),
                        ("minimal app", minimal_page, bench_latency.minimal_interaction(minimal_page, "main control")),
                        ("minimal app drawing 3.3.1's elements", framed_page,
                         control_at(framed_page.get_by_label("Dropout seed", exact=True).first)))
            for name, page, interaction in subjects:
                finished, by_event, by_function = traced(page, interaction, args.edits)
                print(f"{name}: the run's end {finished:.0f} ms after the key (median); main thread, ms an edit:")
                for label, ms in [*by_event.most_common(6), *by_function.most_common(6)]:
                    print(f"  {ms:7.1f}  {label}")
            browser.close()
    finally:
        for server in (app, minimal, framed):
            server.stop()


if __name__ == "__main__":
    main()
