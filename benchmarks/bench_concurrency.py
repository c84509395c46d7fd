"""Many learners at once: N concurrent browser sessions, each editing its own matrix.

Run: .venv/bin/python benchmarks/bench_concurrency.py [--sessions 30] [--rounds 2]

The app runs in hosted mode on 127.0.0.1. Every session opens 3.3.2 through its own shared
link, whose matrix has token names that only it uses (``s7a``, ``s7b``, ...) and values that
depend on its number. All sessions are kept open at the same time. Each then edits its
matrix in rounds (the sidebar's embedding width, a full rerun) and after every edit checks
that the page shows exactly the context vectors of its own matrix, computed here with the
attention package, and no other session's tokens. Latency runs from the keypress to the
page showing the expected numbers. Prints median, p95 and max, and the number of isolation
violations, which must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attention import simple_self_attention  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, CODE_SELECTOR, IDLE_JS, Server, chromium_path  # noqa: E402
from ui.inputs.matrix import InputMatrix  # noqa: E402
from ui.sharing.codec import encode_state  # noqa: E402

MARKER = re.compile(r"\bs(\d+)[a-f]\b")


def session_matrix(i: int, dim: int = 3) -> InputMatrix:
    rng = np.random.default_rng(1000 + i)
    tokens = tuple(f"s{i}{c}" for c in "abcdef")
    return InputMatrix(tokens, rng.uniform(-1, 1, size=(6, dim)).round(3).astype(np.float32))


def expected_context(matrix: InputMatrix) -> str:
    return repr(simple_self_attention(matrix.tensor())["context"])


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)  # a session saw data that is not its own
    failures: list[str] = field(default_factory=list)  # a session could not finish (timeout, crash)
    aborted: int = 0  # sessions stopped waiting because another session failed before editing
    completed: int = 0


async def check_page(page, i: int, matrix: InputMatrix, result: Result) -> None:
    texts = await page.evaluate("""sel => [
        ...Array.from(document.querySelectorAll(sel)).map(c => c.textContent),
        ...Array.from(document.querySelectorAll('.vega-embed svg text')).map(t => t.textContent),
        document.querySelector('[data-testid="stSidebar"]').innerText]""", CODE_SELECTOR)
    others = {int(m) for t in texts for m in MARKER.findall(t)} - {i}
    if others:
        result.violations.append(f"session {i} saw tokens of sessions {sorted(others)}")
    if expected_context(matrix) not in texts:
        result.violations.append(f"session {i} does not show its own context vectors")


async def wait_for(page, text: str, timeout_ms: int) -> None:
    await page.wait_for_function(
        "([sel, t]) => Array.from(document.querySelectorAll(sel)).some(c => c.textContent === t)",
        arg=[CODE_SELECTOR, text], timeout=timeout_ms, polling=100)
    await page.wait_for_function(IDLE_JS, timeout=timeout_ms, polling=100)


async def learner(browser, url: str, i: int, rounds: int, result: Result, opened: asyncio.Barrier) -> None:
    context = await browser.new_context(viewport={"width": 1300, "height": 1600})
    page = await context.new_page()
    try:
        matrix = session_matrix(i)
        link, _ = encode_state(matrix, {})
        await page.goto(f"{url}/all-queries?s={link}", timeout=180_000)
        await wait_for(page, expected_context(matrix), 180_000)
        await check_page(page, i, matrix, result)
        await opened.wait()  # every session is open before anyone edits
        for r in range(rounds):
            dim = matrix.dim + 1 if r % 2 == 0 else matrix.dim - 1
            matrix = matrix.with_dim(dim)
            field_ = page.get_by_role("spinbutton", name="Embedding width")
            await field_.fill(str(dim))
            start = time.perf_counter()
            await field_.press("Enter")
            await wait_for(page, expected_context(matrix), 180_000)
            result.latencies.append(time.perf_counter() - start)
            await check_page(page, i, matrix, result)
        result.completed += 1
    except asyncio.BrokenBarrierError:
        result.aborted += 1  # the session that broke the barrier reports why
    except Exception as exc:  # a timeout is a failure of that session, not an isolation violation
        first_line = (str(exc).splitlines() or [""])[0]
        result.failures.append(f"session {i} failed: {type(exc).__name__}: {first_line}")
        if not opened.broken:
            await opened.abort()
    finally:
        await context.close()


async def run(sessions: int, rounds: int) -> Result:
    from playwright.async_api import async_playwright

    (ROOT / "artifacts").mkdir(exist_ok=True)
    server = Server(ROOT / "app.py", env={"ATTENTION_HOSTED": "1"})
    result = Result()
    try:
        server.wait_healthy(timeout=120)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            opened = asyncio.Barrier(sessions)
            await asyncio.gather(*(learner(browser, server.url, i, rounds, result, opened) for i in range(sessions)))
            await browser.close()
    finally:
        server.stop()
    return result


def report(result: Result, sessions: int, rounds: int) -> str:
    lat = sorted(result.latencies)
    lines = [f"| sessions open at once | {sessions} |", f"| edits | {len(lat)} ({rounds} per session) |",
             f"| sessions completed | {result.completed} |", f"| isolation violations | {len(result.violations)} |",
             f"| failed sessions | {len(result.failures)} (+{result.aborted} stopped because of them) |"]
    if lat:
        p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
        lines += [f"| latency median | {statistics.median(lat):.2f} s |", f"| latency p95 | {p95:.2f} s |",
                  f"| latency max | {lat[-1]:.2f} s |"]
    return "| measure | value |\n|---|---:|\n" + "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    if chromium_path() is None:
        print("chromium is not installed: apt-get install chromium")
        return 1
    result = asyncio.run(run(args.sessions, args.rounds))
    table = report(result, args.sessions, args.rounds)
    print(table)
    for v in result.violations[:20]:
        print("VIOLATION:", v)
    for f in result.failures[:20]:
        print("FAILURE:", f)
    (ROOT / "benchmarks" / "CONCURRENCY.md").write_text(
        "# Concurrent sessions\n\nCommand: `.venv/bin/python benchmarks/bench_concurrency.py "
        f"--sessions {args.sessions} --rounds {args.rounds}` (2 cores, one Chromium, hosted mode)\n\n{table}\n")
    return 1 if result.violations or result.failures or result.completed != args.sessions else 0


if __name__ == "__main__":
    sys.exit(main())
