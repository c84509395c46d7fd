"""Capacity: edits per second completed with 1, 2 and 3 replicas behind HAProxy, all sessions editing at once.

Run: .venv/bin/python benchmarks/bench_capacity.py [--client protocol|browser] [--sessions 30] [--edits 10]
     [--repeats 2]   (make bench-capacity runs both clients)

For each replica count (in the order 1, 2, 3, 1, 2, 3, ... so a busy moment of the machine does
not fall on one configuration only) the run starts the replicas and HAProxy on 127.0.0.1 (see
benchmarks/cluster.py), opens ``--sessions`` sessions through the balancer, each on 3.3.2 with its
own matrix, and lets every session make ``--edits`` edits of its embedding width one after the
other (each waits until the run shows the new context vectors), all sessions at the same time.
Throughput = edits completed / wall time from the first edit to the last.

``--client protocol`` (the default) speaks Streamlit's websocket protocol without a browser
(benchmarks/protocol.py): the servers are what is measured, as in a class where every browser runs
on the learner's own machine. ``--client browser`` drives one headless Chromium with a context per
session: the whole chain on one machine, where the browser's rendering shares the 2 cores.

The same run accounts for the CPU time: of the replicas, of HAProxy, and of everything else this
benchmark started (Chromium, Playwright), from /proc. The sum divided by the wall time is the
number of cores busy; it cannot exceed the machine's cores, and the run says so if it does (that
would be a measurement bug). It also reports the idle replica's memory (RSS after start-up) and
the memory each open session adds. Writes benchmarks/CAPACITY.md.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_concurrency import session_matrix, wait_for  # noqa: E402
from benchmarks.bench_failover import PAGE, STEP_TIMEOUT_MS, Learner, edit_width, percentile, replica_of  # noqa: E402
from benchmarks.cluster import Cluster, balancer_path, cpu_seconds  # noqa: E402
from benchmarks.protocol import ProtocolLearner  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, chromium_path  # noqa: E402
from ui.inputs.matrix import random_matrix  # noqa: E402
from ui.sharing.codec import encode_state  # noqa: E402


@dataclass
class Measurement:
    replicas: int
    client: str = "protocol"
    edits: int = 0
    failed: int = 0
    wall: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # "replicas", "haproxy", "load generator"
    machine: float = 0.0  # CPU seconds of the whole machine (every process, ours and other people's)
    idle_rss_mb: list[float] = field(default_factory=list)  # each replica after start-up, before any session
    session_rss_mb: list[float] = field(default_factory=list)  # each replica with its sessions open
    sessions_per_replica: list[int] = field(default_factory=list)  # from the balancer's cookie
    latencies: list[float] = field(default_factory=list)  # seconds per edit, request to finished run

    @property
    def rate(self) -> float:
        """Edits per second; NaN when any edit failed, since a session stops at its first failure and the
        wall time then ends early, which would overstate the rate."""
        if self.failed:
            return math.nan
        return self.edits / self.wall if self.wall else 0.0

    @property
    def cores_busy(self) -> float:
        return sum(self.cpu.values()) / self.wall if self.wall else 0.0

    @property
    def others(self) -> float:
        """Cores busy with other people's work on this shared machine during the run."""
        return max(0.0, self.machine / self.wall - self.cores_busy) if self.wall else 0.0


@dataclass
class Session(Learner):
    width_id: str = ""  # the protocol client's id of the "Embedding width" widget


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (the servers, HAProxy, Playwright's driver, Chromium)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def machine_cpu_seconds() -> float:
    """Busy CPU time of the whole machine so far (/proc/stat: everything but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def cpu_snapshot(cluster: Cluster) -> dict[str, float]:
    pids = cluster.pids()
    replicas = [pid for name, pid in pids.items() if name != "haproxy"]
    others = (descendants(os.getpid()) | {os.getpid()}) - set(pids.values())  # this process: the protocol client
    return {"replicas": sum(cpu_seconds(p) for p in replicas), "haproxy": cpu_seconds(pids["haproxy"]),
            "load generator": sum(cpu_seconds(p) for p in others), "machine": machine_cpu_seconds()}


async def open_browser_session(browser, url: str, learner: Session) -> str:
    context = await browser.new_context(viewport={"width": 1300, "height": 1600})
    learner.page = await context.new_page()
    link, _ = encode_state(learner.matrix, {})
    await learner.page.goto(f"{url}/{PAGE}?s={link}", timeout=STEP_TIMEOUT_MS)
    await wait_for(learner.page, learner.expected(), STEP_TIMEOUT_MS)
    return await replica_of(learner.page)


async def open_protocol_session(url: str, learner: Session) -> str:
    link, _ = encode_state(learner.matrix, {})
    learner.page = ProtocolLearner(url)
    shown = await learner.page.open(PAGE, f"s={link}")
    if learner.expected() not in shown.code:
        raise RuntimeError(f"session {learner.i} does not show its own context vectors")
    learner.width_id = shown.widgets["Embedding width"]
    return learner.page.replica()


async def protocol_edit(learner: Session, dim: int) -> None:
    learner.matrix = learner.matrix.with_dim(dim)
    shown = await learner.page.set_number(learner.width_id, dim)
    if learner.expected() not in shown.code:
        raise RuntimeError(f"session {learner.i} does not show its own context vectors after the edit")


async def edit_loop(learner: Session, edits: int, m: Measurement, done: list[float]) -> None:
    base, edit = learner.matrix.dim, protocol_edit if m.client == "protocol" else edit_width
    try:
        for k in range(edits):
            start = time.perf_counter()
            await edit(learner, base + 1 if k % 2 == 0 else base)
            done.append(time.perf_counter())
            m.latencies.append(done[-1] - start)
            m.edits += 1
    except Exception:  # noqa: BLE001 - a failed edit is counted, not fatal
        m.failed += 1


async def measure(browser, cluster: Cluster, sessions: int, edits: int, m: Measurement) -> None:
    learners = [Session(i, session_matrix(i)) for i in range(sessions)]
    opened = [open_protocol_session(cluster.url, learner) if browser is None
              else open_browser_session(browser, cluster.url, learner) for learner in learners]
    pinned = await asyncio.gather(*opened)
    m.sessions_per_replica = [pinned.count(name) for name in cluster.servers]
    m.session_rss_mb = [server.rss_mb() for server in cluster.servers.values()]
    await asyncio.sleep(1.0)  # let the last page's after-run clean-up finish before the clock starts
    before, start, done = cpu_snapshot(cluster), time.perf_counter(), []
    await asyncio.gather(*(edit_loop(learner, edits, m, done) for learner in learners))
    after = cpu_snapshot(cluster)
    m.wall = (max(done) if done else time.perf_counter()) - start
    m.cpu = {key: after[key] - before[key] for key in before if key != "machine"}
    m.machine = after["machine"] - before["machine"]
    if browser is None:
        await asyncio.gather(*(learner.page.close() for learner in learners))


async def run_one(replicas: int, sessions: int, edits: int, client: str) -> Measurement:
    from playwright.async_api import async_playwright

    m = Measurement(replicas, client)
    cluster = Cluster(replicas)
    try:
        cluster.start()
        await asyncio.sleep(3.0)  # the preload thread finishes importing PyTorch and the pages
        m.idle_rss_mb = [server.rss_mb() for server in cluster.servers.values()]
        if client == "protocol":
            await measure(None, cluster, sessions, edits, m)
            return m
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                await measure(browser, cluster, sessions, edits, m)
            finally:
                await browser.close()
    finally:
        cluster.stop()
    return m


def status_mb(pid: int, field_name: str) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def render_peak_mb() -> tuple[float, float, float]:
    """One replica's RSS before, at the peak of, and after its first GPT-2-size page (3.6.2, 1024×768)."""
    cluster = Cluster(1)
    try:
        cluster.start()
        await asyncio.sleep(3.0)
        pid = cluster.servers["app1"].proc.pid
        idle = status_mb(pid, "VmRSS")
        link, _ = encode_state(random_matrix(1024, 768, 0), {"weight-splits": {"d_out": 768, "num_heads": 12}})
        learner = ProtocolLearner(cluster.url)
        await learner.open("weight-splits", f"s={link}")
        await learner.close()
        return idle, status_mb(pid, "VmHWM"), status_mb(pid, "VmRSS")
    finally:
        cluster.stop()


def per_session_mb(ms: list[Measurement], sessions: int) -> float:
    """RSS added per open session, from the single-replica runs (all sessions on one process)."""
    ones = [m for m in ms if m.replicas == 1]
    return statistics.median((m.session_rss_mb[0] - m.idle_rss_mb[0]) / sessions for m in ones)


def row(n: int, runs: list[Measurement], base: float) -> str:
    rates = [m.rate for m in runs if not m.failed]
    rate = statistics.median(rates) if rates else math.nan  # a run with failed edits earns no rate
    lat = sorted(x for m in runs for x in m.latencies)
    server_ms = statistics.median(1000 * m.cpu["replicas"] / max(m.edits, 1) for m in runs)
    busy = " / ".join(f"{m.cpu['replicas'] / m.wall:.2f} + {m.cpu['haproxy'] / m.wall:.2f} + "
                      f"{m.cpu['load generator'] / m.wall:.2f} = {m.cores_busy:.2f}" for m in runs)
    spread = " / ".join("+".join(map(str, m.sessions_per_replica)) for m in runs)
    others = " / ".join(f"{m.others:.2f}" for m in runs)
    ceiling = statistics.median([m.rate * (os.cpu_count() or 1) / m.cores_busy for m in runs
                                 if m.cores_busy and not m.failed] or [math.nan])
    latency = f"{statistics.median(lat):.2f} / {percentile(lat, 0.95):.2f}" if lat else "–"
    return (f"| {n} | {spread} | {', '.join(f'{m.rate:.1f}' for m in runs)} | **{rate:.1f}** | {rate / base:.2f} "
            f"| {latency} | {server_ms:.0f} | {busy} | {others} | {ceiling:.0f} | {sum(m.failed for m in runs)} |")


def table(ms: list[Measurement], sessions: int, edits: int) -> list[str]:
    cores = os.cpu_count() or 1
    lines = ["| replicas | sessions per replica | edits/s, each run | edits/s, median | × 1 replica "
             "| edit latency median / p95 (s) | server CPU per edit (ms) "
             "| cores busy: replicas + HAProxy + load generator | other jobs' cores | ceiling on all cores (edits/s) "
             "| failed edits |", "|---:|---|---|---:|---:|---:|---:|---|---|---:|---:|"]
    ones = [m.rate for m in ms if m.replicas == 1 and not m.failed]
    base = statistics.median(ones) if ones else 0
    for n in sorted({m.replicas for m in ms}):
        lines.append(row(n, [m for m in ms if m.replicas == n], base or float("nan")))
    impossible = [round(m.cores_busy, 2) for m in ms if m.cores_busy > cores * 1.05]
    lines.append("")
    lines.append(f"Physical check: at most {cores} cores can be busy, so no run can beat its ceiling (edits/s × "
                 f"{cores} / cores busy); " + (f"MEASUREMENT BUG: runs report {impossible} cores busy."
                                                if impossible else "every run is within it."))
    idle = statistics.median(r for m in ms for r in m.idle_rss_mb)
    per_session = f"{per_session_mb(ms, sessions):.1f} MB" if base else "(needs a 1-replica run)"
    lines.append(f"Memory: an idle replica {idle:.0f} MB RSS after start-up; each open session (6×3 matrix, "
                 f"3.3.2) adds {per_session}. {sessions} sessions × {edits} edits per run.")
    return lines


def write_results(client: str, command: str, lines: list[str]) -> None:
    """benchmarks/CAPACITY.md keeps one section per client; this run replaces its own."""
    path = ROOT / "benchmarks" / "CAPACITY.md"
    sections = path.read_text().split("\n## ")[1:] if path.exists() else []
    kept = [sec for sec in sections if not sec.startswith(f"Client: {client}")]
    load = os.getloadavg()[0]
    mine = (f"Client: {client}\n\nCommand: `{command}` ({os.cpu_count()} cores; load average of the machine at "
            f"the end {load:.1f})\n\n" + "\n".join(lines) + "\n")
    body = "\n## ".join(["# Capacity: edits per second with 1, 2 and 3 replicas\n", *sorted([*kept, mine])])
    path.write_text(body)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--client", choices=("protocol", "browser"), default="protocol")
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 3])
    args = ap.parse_args()
    if balancer_path() is None or (args.client == "browser" and chromium_path() is None):
        print("needs haproxy (and chromium for --client browser): make bench-capacity installs them")
        return 1
    ms = [asyncio.run(run_one(n, args.sessions, args.edits, args.client))
          for _ in range(args.repeats) for n in args.replicas]
    lines = table(ms, args.sessions, args.edits)
    if args.client == "protocol":
        idle, peak, after = asyncio.run(render_peak_mb())
        lines.append(f"Memory: a GPT-2-size page (3.6.2, 1024×768 from a link, d_out 768, 12 heads) takes a replica "
                     f"from {idle:.0f} MB to a peak of {peak:.0f} MB (+{peak - idle:.0f} MB, VmHWM); {after:.0f} MB "
                     "after it (the allocator keeps freed memory).")
    print("\n".join(lines))
    write_results(args.client, "python benchmarks/bench_capacity.py " + " ".join(sys.argv[1:]), lines)
    return 0 if not any(m.failed for m in ms) else 1


if __name__ == "__main__":
    sys.exit(main())
