"""What one more element costs per edit, measured the way bench_latency.py measures an edit.

Run: .venv/bin/python -m benchmarks.bench_elements [--repeats 9] [--only markdown:20 heatmap:4 ...]

The minimal app (benchmarks/minimal_app.py) is the baseline; beside it run copies of it with N
more elements of one kind (benchmarks/elements_app.py), and the minimal app's number input is
edited in all of them, taking turns (benchmarks/completion.py: from the keypress until the run
has finished, the changed charts have redrawn and the browser has painted). The extra time over
the baseline, divided by N, is what one element of that kind adds to every rerun that draws it:
the numbers behind the choice of what a page draws on every edit (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.bench_latency import MINIMAL_CONTROL  # noqa: E402
from benchmarks.completion import control_at, measure_alternating, open_probed, probed_page  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path  # noqa: E402
from ui.draw import charts  # noqa: E402

DEFAULT = ["markdown:20", "caption:20", "subheader:20", "code_text:20", "code_python:20", "text_input:20",
           "button:20", "tensor:12", "tensor_html:12", "table:10", "heatmap:4", "heatmap:4:still",
           "heatmap_resized:1", "head_grid:1"]
TOKENS = [f"t{i}" for i in range(6)]


def chart_specs() -> dict[str, dict]:
    """The app's own chart specs (ui/draw/charts.py), two of each, for the chart kinds."""
    rng = np.random.default_rng(0)
    specs = {}
    for i, dims in enumerate((8, 12)):
        specs[f"heatmap{i}"] = charts.heatmap(rng.random((6, 6)), TOKENS, TOKENS)
        specs[f"resized{i}"] = charts.heatmap(rng.standard_normal((6, dims)), TOKENS,
                                              [f"d{j}" for j in range(dims)], kind="values")
        specs[f"grid{i}"] = charts.head_grid(rng.random((4, 6, 6)), TOKENS, TOKENS)
    return specs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--only", nargs="*", default=DEFAULT, help="kind:n[:still] (kinds: benchmarks/elements_app.py)")
    args = ap.parse_args(argv)
    if chromium_path() is None:
        print("chromium is not installed (make browser-deps)", file=sys.stderr)
        return 2
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(chart_specs(), f)
    servers = [Server(ROOT / "benchmarks" / "minimal_app.py", plain=True)]
    servers += [Server(ROOT / "benchmarks" / "elements_app.py", plain=True,
                       env={"BENCH_ELEMENTS": what, "BENCH_SPECS": f.name}) for what in args.only]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            pages = []
            for server in servers:
                server.wait_healthy(timeout=120)
                page = probed_page(browser)
                open_probed(page, server.url)
                pages.append((page, control_at(page.locator(MINIMAL_CONTROL).first)))
            times = measure_alternating(pages, args.repeats)
            browser.close()
    finally:
        for server in servers:
            server.stop()
        Path(f.name).unlink(missing_ok=True)
    base = statistics.median(t.total_ms for t in times[0])
    print(f"# What one element adds to an edit ({args.repeats} edits each, taking turns)\n")
    print(f"Baseline, the minimal app: {base:.0f} ms (median).\n")
    print("| elements | median (ms) | added (ms) | per element (ms) |\n|---|---:|---:|---:|")
    for what, series in zip(args.only, times[1:], strict=True):
        median, n = statistics.median(t.total_ms for t in series), int(what.split(":")[1])
        print(f"| {what} | {median:.0f} | {median - base:+.0f} | {(median - base) / n:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
