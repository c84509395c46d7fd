"""Does speaking Korean cost the learner time? The same pages in English and in Korean, side by side.

Run: .venv/bin/python -m benchmarks.bench_language [--repeats 8] [--lang ko] [--pages one-query ...]

One app server, two browser sessions: one opened with ?lang=en, the other with ?lang=<lang>.
On every page the same two interactions are timed in both, taking turns (bench_latency's method
and probe, benchmarks/completion.py: from the committing key until the script run has finished,
the changed charts are redrawn and two frames are painted): a cell edit in the sidebar matrix
and the page's main control (found by position, not by its label, which is translated). The
measurement's ability to see a slowed chart is proven by benchmarks/selfcheck/test_latency_sees_a_slowdown.py.
Korean is the default because it is the heaviest case: every label and chart title in Hangul
(a second font to shape) and the longest catalog lookups per run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from benchmarks.bench_latency import MAIN_CONTROL, ROOT, pct, url_of
from benchmarks.completion import (
    MatrixCell,
    control_at,
    measure_alternating,
    open_probed,
    probed_page,
)
from tests.browser.harness import CHROMIUM_ARGS, Server, chromium_path
from ui.words.i18n import LANGUAGES  # noqa: E402

PAGES = ("home", "one-query", "causal-mask", "stacking-heads", "weight-splits")
# the sidebar's embedding width, found without its (translated) label
WIDTH = '[data-testid="stSidebar"] input[data-testid="stNumberInputField"]'
NOISE = 1.10  # a ratio within 10% is "unchanged within noise" on this 2-core machine


def interactions(page):
    main = page.locator(MAIN_CONTROL)
    return [("cell edit", MatrixCell(page)),
            ("main control", control_at(main.first if main.count() else page.locator(WIDTH).first))]


def row(page_id: str, kind: str, en: list, other: list) -> tuple[str, float]:
    e = [t.total_ms for t in en]
    o = [t.total_ms for t in other]
    ratio = statistics.median(o) / statistics.median(e)
    return (f"| {page_id} | {kind} | {statistics.median(e):.0f} | {pct(e, 0.9):.0f} | {statistics.median(o):.0f} "
            f"| {pct(o, 0.9):.0f} | {ratio:.2f} |", ratio)


def run(args: argparse.Namespace) -> list[str]:
    lines = [f"| page | interaction | en median (ms) | en p90 | {args.lang} median (ms) | {args.lang} p90 "
             f"| ratio {args.lang}/en |", "|---|---|---:|---:|---:|---:|---:|"]
    ratios = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        server = Server(ROOT / "app.py")
        try:
            server.wait_healthy()
            en, other = probed_page(browser), probed_page(browser)
            for page_id in args.pages:
                open_probed(en, url_of(server, page_id) + "?lang=en")
                open_probed(other, url_of(server, page_id) + f"?lang={args.lang}")
                for (kind, a), (_, b) in zip(interactions(en), interactions(other), strict=True):
                    times_en, times_other = measure_alternating([(en, a), (other, b)], args.repeats)
                    line, ratio = row(page_id, kind, times_en, times_other)
                    print(line, flush=True)
                    lines.append(line)
                    ratios.append(ratio)
        finally:
            server.stop()
            browser.close()
    verdict = statistics.median(ratios)
    lines.append(f"\nMedian ratio {args.lang}/en over {len(ratios)} series: {verdict:.2f} "
                 f"({'within' if verdict <= NOISE else 'ABOVE'} the {NOISE:.2f} noise bound).")
    print(lines[-1])
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=8)
    ap.add_argument("--lang", default="ko", choices=[lang for lang in LANGUAGES if lang != "en"])
    ap.add_argument("--pages", nargs="*", default=list(PAGES))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "LANGUAGE.md"))
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if chromium_path() is None:
        print("chromium is not installed (make browser-deps)")
        return 2
    lines = run(args)
    Path(args.out).write_text(f"# Latency in {LANGUAGES[args.lang]} against English\n\n"
                              f"`python -m benchmarks.bench_language --repeats {args.repeats} --lang {args.lang}`\n\n"
                              + "\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
