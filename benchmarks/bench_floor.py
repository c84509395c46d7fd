"""The floor under bench-latency's 1.2x target: what Streamlit charges for the elements a page draws, without the app.

Run: .venv/bin/python -m benchmarks.bench_floor [--repeats 21]   (about 4 minutes on 2 cores)

bench_latency.py compares each page's edit with the minimal app's (one control, one chart). Four subjects here take
turns editing the same kind of control ("Dropout seed" on 3.3.1; the minimal app's one number input), timed by
bench_latency.py's completion signal (the run finished, the changed charts redrawn, two frames painted):
  - the minimal app;
  - the minimal app drawing 3.3.1's controls alone, in a fragment (BENCH_FRAME=controls): the step-through
    switch, the query, the normalisation, the later section's four controls and the download, no result;
  - the minimal app drawing all of 3.3.1's elements, element for element (BENCH_FRAME=1: two bar charts, their
    tables, eight printed tensors, headings, sentences, folds), with none of the app's logic;
  - the app's 3.3.1.
Each row is printed with its ratio to the minimal app's median. If the controls alone are over 1.2x, no page that has
the chapter's controls can meet the target with Streamlit's widgets, whatever it draws or leaves out.
The measurement is bench_latency.py's, whose self-check (make bench-selfcheck) proves it sees a slowed chart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks import bench_latency  # noqa: E402
from benchmarks.completion import control_at, measure_alternating, open_probed, probed_page  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path  # noqa: E402

MINIMAL = ROOT / "benchmarks" / "minimal_app.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    servers = {"minimal app": Server(MINIMAL, plain=True),
               "3.3.1's controls alone (BENCH_FRAME=controls)": Server(MINIMAL, env={"BENCH_FRAME": "controls"},
                                                                        plain=True),
               "3.3.1's elements, no app (BENCH_FRAME=1)": Server(MINIMAL, env={"BENCH_FRAME": "1"}, plain=True),
               "the app's 3.3.1": Server(ROOT / "app.py")}
    try:
        for server in servers.values():
            server.wait_healthy(120)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            subjects = []
            for name, server in servers.items():
                page = probed_page(browser)
                if name == "the app's 3.3.1":
                    open_probed(page, server.url + "/one-query")
                    subjects.append((page, dict(bench_latency.app_interactions(page))["main control"]))
                    continue
                open_probed(page, server.url)
                field = "Scale" if name == "minimal app" else "Dropout seed"
                subjects.append((page, control_at(page.get_by_label(field, exact=True).first)))
            timings = measure_alternating(subjects, args.repeats)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    base = statistics.median(t.total_ms for t in timings[0])
    print(f"| subject ({args.repeats} edits each, taking turns) | median (ms) | ratio to the minimal app |")
    print("|---|---:|---:|")
    for name, times in zip(servers, timings, strict=True):
        median = statistics.median(t.total_ms for t in times)
        print(f"| {name} | {median:.0f} | {median / base:.2f}x |")


if __name__ == "__main__":
    main()
