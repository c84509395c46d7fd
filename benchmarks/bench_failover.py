"""A replica dies and no learner loses anything: N browser sessions, 3 replicas, HAProxy, one SIGKILL.

Run: .venv/bin/python benchmarks/bench_failover.py [--replicas 3] [--sessions 21]   (make bench-failover;
writes benchmarks/FAILOVER.md)

Everything runs on 127.0.0.1: the replicas (``python -m ui.shell.serve app.py``, hosted mode) and
HAProxy with the configuration of ``deploy/haproxy.py`` (see ``benchmarks/cluster.py``). One
Chromium opens every session in its own context, through the balancer, on 3.3.2 with its own
shared link: a matrix whose token names only it uses (``s7a``...). Each learner then edits in
its session: a new embedding width (the matrix) and the causal mask (a page control). The
replica serving about 1/replicas of the sessions is killed with SIGKILL. Every moved session
must reconnect through the balancer to a live replica and come back from its address bar;
recovery time runs from the kill until the new session's first run has finished (read from the
websocket frames). Then every session, moved or not, must show exactly its own context
vectors and no other session's tokens, and one more edit must compute on its own state there.
The last line reads ``failover: N sessions, K restored, L lost``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from attention import simple_self_attention  # noqa: E402
from benchmarks.bench_concurrency import MARKER, session_matrix, wait_for  # noqa: E402
from benchmarks.cluster import COOKIE, Cluster, balancer_path  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, CODE_SELECTOR, chromium_path  # noqa: E402
from ui.inputs.matrix import InputMatrix  # noqa: E402
from ui.sharing.codec import encode_state  # noqa: E402
from ui.words.content import app_text  # noqa: E402

PAGE = "all-queries"
RECOVERY_TIMEOUT = 60.0  # seconds for a moved session to run again on a live replica
STEP_TIMEOUT_MS = 180_000


@dataclass
class Learner:
    i: int
    matrix: InputMatrix
    causal: bool = False
    page: object = None
    replica_before: str = ""
    replica_after: str = ""
    sockets: list[float] = field(default_factory=list)  # when each of its websockets opened
    runs: list[float] = field(default_factory=list)  # when each full script run finished
    recovery: float | None = None  # seconds from the kill to its first run on a live replica
    problems: list[str] = field(default_factory=list)

    def expected(self) -> str:
        return repr(simple_self_attention(self.matrix.tensor(), causal=self.causal)["context"])


@dataclass
class Outcome:
    learners: list[Learner]
    replicas: list[str]
    victim: str = ""
    before: Counter = field(default_factory=Counter)
    after: Counter = field(default_factory=Counter)
    marked_down: float | None = None  # seconds until HAProxy's health checks marked the victim down

    @property
    def restored(self) -> int:
        return sum(1 for learner in self.learners if not learner.problems)


def watch(page, learner: Learner) -> None:
    """Record when the page opens a websocket and when a script run finishes (Streamlit's protocol)."""

    def on_frame(payload) -> None:
        if isinstance(payload, str) or len(payload) > 512:  # "script finished" is a tiny message
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # noqa: BLE001 - not a message we need
            return
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            learner.runs.append(time.perf_counter())

    def on_socket(ws) -> None:
        learner.sockets.append(time.perf_counter())
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)


async def replica_of(page) -> str:
    cookies = await page.context.cookies()
    return next((c["value"] for c in cookies if c["name"] == COOKIE), "")


async def edit_width(learner: Learner, dim: int) -> None:
    learner.matrix = learner.matrix.with_dim(dim)
    box = learner.page.get_by_role("spinbutton", name="Embedding width")
    await box.fill(str(dim))
    await box.press("Enter")
    await wait_for(learner.page, learner.expected(), STEP_TIMEOUT_MS)


async def open_and_edit(browser, url: str, learner: Learner) -> None:
    """Open the learner's own link, then edit in the session: the width, then the causal mask."""
    context = await browser.new_context(viewport={"width": 1300, "height": 1600})
    learner.page = await context.new_page()
    watch(learner.page, learner)
    link, _ = encode_state(learner.matrix, {})
    try:
        await learner.page.goto(f"{url}/{PAGE}?s={link}", timeout=STEP_TIMEOUT_MS)
        await wait_for(learner.page, learner.expected(), STEP_TIMEOUT_MS)
        await edit_width(learner, learner.matrix.dim + 1)
        learner.causal = True
        main = learner.page.locator('[data-testid="stMain"]')
        await main.get_by_text(app_text("later_controls")).click()  # 3.3.2 folds the mask as "from later sections"
        await main.get_by_text(app_text("causal"), exact=True).click()
        await wait_for(learner.page, learner.expected(), STEP_TIMEOUT_MS)
        learner.replica_before = await replica_of(learner.page)
    except Exception as exc:  # a session that never got going cannot be restored
        learner.problems.append(f"could not open and edit: {type(exc).__name__}: {first_line(exc)}")


def first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [""])[0]


async def await_recovery(learner: Learner, killed_at: float, victim: str) -> None:
    """A moved learner: wait for a new websocket and a finished run on it."""
    if learner.problems or learner.replica_before != victim:
        return
    deadline = time.perf_counter() + RECOVERY_TIMEOUT
    while time.perf_counter() < deadline:
        new_sockets = [t for t in learner.sockets if t > killed_at]
        runs = [t for t in learner.runs if new_sockets and t > new_sockets[0]]
        if runs:
            learner.recovery = runs[0] - killed_at
            return
        await asyncio.sleep(0.05)
    learner.problems.append(f"no run on a live replica within {RECOVERY_TIMEOUT:.0f} s of the kill")


async def shown_texts(page) -> list[str]:
    return await page.evaluate("""sel => [
        ...Array.from(document.querySelectorAll(sel)).map(c => c.textContent),
        ...Array.from(document.querySelectorAll('.vega-embed svg text')).map(t => t.textContent),
        document.querySelector('[data-testid="stSidebar"]').innerText]""", CODE_SELECTOR)


async def check_own_state(learner: Learner) -> None:
    """Its own context vectors and token names, and nobody else's."""
    await wait_for(learner.page, learner.expected(), 30_000)
    texts = await shown_texts(learner.page)
    others = {int(m) for t in texts for m in MARKER.findall(t)} - {learner.i}
    if others:
        learner.problems.append(f"shows tokens of sessions {sorted(others)}")
    if learner.expected() not in texts:
        learner.problems.append("does not show its own context vectors")
    if f"/{PAGE}?s=" not in learner.page.url:
        learner.problems.append(f"lost its page or link: {learner.page.url[:80]}")


async def verify(learner: Learner) -> None:
    """After the failover: its own state on screen, and one more edit computed on it by the server."""
    if learner.problems:
        return
    try:
        await check_own_state(learner)
        await edit_width(learner, learner.matrix.dim + 1)  # fails unless the server holds its matrix
        await check_own_state(learner)
        learner.replica_after = await replica_of(learner.page)
    except Exception as exc:
        learner.problems.append(f"after the failover: {type(exc).__name__}: {first_line(exc)}")


def pick_victim(before: Counter, sessions: int, replicas: int) -> str:
    """The replica whose share of the sessions is closest to 1/replicas (the larger one on a tie)."""
    share = sessions / replicas
    return min((name for name in before if name), key=lambda name: (abs(before[name] - share), -before[name]))


async def time_marked_down(cluster: Cluster, victim: str, killed_at: float, outcome: Outcome) -> None:
    while time.perf_counter() - killed_at < RECOVERY_TIMEOUT:
        if victim not in cluster.up():
            outcome.marked_down = time.perf_counter() - killed_at
            return
        await asyncio.sleep(0.1)


async def fail_over(browser, cluster: Cluster, outcome: Outcome) -> None:
    """Open every session, kill one replica, wait for recovery, check everyone."""
    learners = outcome.learners
    await asyncio.gather(*(open_and_edit(browser, cluster.url, learner) for learner in learners))
    outcome.before = Counter(learner.replica_before for learner in learners if not learner.problems)
    outcome.victim = pick_victim(outcome.before, len(learners), len(outcome.replicas))
    killed_at = cluster.kill(outcome.victim)
    await asyncio.gather(time_marked_down(cluster, outcome.victim, killed_at, outcome),
                         *(await_recovery(learner, killed_at, outcome.victim) for learner in learners))
    await asyncio.gather(*(verify(learner) for learner in learners))
    outcome.after = Counter(learner.replica_after for learner in learners if not learner.problems)


async def run(replicas: int = 3, sessions: int = 21) -> Outcome:
    from playwright.async_api import async_playwright

    cluster = Cluster(replicas)
    outcome = Outcome([Learner(i, session_matrix(i)) for i in range(sessions)], list(cluster.servers))
    try:
        cluster.start()
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                await fail_over(browser, cluster, outcome)
            finally:
                await browser.close()
    finally:
        cluster.stop()
    return outcome


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def per_replica(counts: Counter, replicas: list[str], victim: str) -> str:
    return ", ".join(f"{name} {counts.get(name, 0)}" + (" (killed)" if name == victim else "") for name in replicas)


def report(outcome: Outcome) -> list[str]:
    learners = outcome.learners
    moved = [learner for learner in learners if learner.replica_before == outcome.victim]
    times = [learner.recovery for learner in moved if learner.recovery is not None]
    lines = [
        f"replicas: {len(outcome.replicas)} behind HAProxy; sessions: {len(learners)} (one Chromium, one context each)",
        f"sessions per replica before: {per_replica(outcome.before, outcome.replicas, '')}",
        f"killed {outcome.victim} with SIGKILL: it served {len(moved)} sessions",
        f"sessions per replica after:  {per_replica(outcome.after, outcome.replicas, outcome.victim)}",
    ]
    if outcome.marked_down is not None:
        lines.append(f"HAProxy's health checks marked {outcome.victim} down after {outcome.marked_down:.1f} s")
    if times:
        lines.append(f"recovery of the {len(times)} moved sessions (kill -> first run on a live replica): "
                     f"median {statistics.median(times):.2f} s, p95 {percentile(times, 0.95):.2f} s, "
                     f"max {max(times):.2f} s")
    lines += [f"LOST: session {learner.i}: {'; '.join(learner.problems)}" for learner in learners if learner.problems]
    lines.append(f"failover: {len(learners)} sessions, {outcome.restored} restored, "
                 f"{len(learners) - outcome.restored} lost")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--replicas", type=int, default=3)
    ap.add_argument("--sessions", type=int, default=21)
    args = ap.parse_args()
    if chromium_path() is None or balancer_path() is None:
        print("needs chromium and haproxy: apt-get install chromium haproxy (make bench-failover does)")
        return 1
    outcome = asyncio.run(run(args.replicas, args.sessions))
    lines = report(outcome)
    print("\n".join(lines))
    (ROOT / "benchmarks" / "FAILOVER.md").write_text(
        f"# Failover\n\nCommand: `.venv/bin/python benchmarks/bench_failover.py --replicas {args.replicas} "
        f"--sessions {args.sessions}` ({os.cpu_count()} cores; load average of the machine at the end "
        f"{os.getloadavg()[0]:.1f})\n\n```\n" + "\n".join(lines) + "\n```\n")
    return 0 if outcome.restored == args.sessions else 1


if __name__ == "__main__":
    sys.exit(main())
