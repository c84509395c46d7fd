"""A hall of 1000 followers on one process: the room's moves pushed over event streams (ui/shell/push.py).

Run: .venv/bin/python benchmarks/bench_hall.py   (make bench-hall; ``--write`` writes benchmarks/HALL.md)

One app server (``python -m ui.shell.serve app.py`` on a free port, the default in-process store: memory written
through to a file) with ``ATTENTION_BENCH_ROOM_HOOKS=1``, so that this process can make a room and publish to it
over HTTP. A publish goes through the server's store in a worker thread, as a lecturer's page run publishes: the
store's hook, the feed, every stream. (The lecturer's own Streamlit run before the publish is not in it:
benchmarks/bench_room.py measures that.) The documents are deck-shaped JSON of about 5 KB (a lecturer's own
walkthrough travels in the deck).

- One room for the whole hall: its cap of streams (``ATTENTION_ROOM_STREAMS``, by default MAX_STUDENTS and a margin)
  is raised to the hall's size.
- ``--followers`` readers in a separate process (benchmarks/hall_readers.py: raw sockets), so that the server's CPU,
  read from /proc, is its own; each must first read the room's current state.
- Memory: the server's RSS after every reader has connected, less before (one stream opened and closed first, so
  that the route's first use is not counted), per follower.
- Idle: the server's CPU over ``--idle-seconds`` with every reader connected and nothing moving, in % of a core.
- ``--moves`` publishes, one at a time: each waits until every reader has read it (or MOVE_TIMEOUT). A move's time
  for a reader is from just before the publish's request to the reader reading its event; missed counts the
  (reader, move) pairs never read, a reader that could not connect missing every move. CPU per follower per move:
  the server's CPU over the moves, less the idle rate over the same time, per reader and move.
- The floor (unless ``--no-floor``): the same readers and moves against benchmarks/hall_floor_app.py, a bare
  Starlette fan-out started the same way; the ratios show the app's overhead.
- ``--slow-fanout-ms``: the app's streams do that much Python work per event (ATTENTION_SLOW_FANOUT_MS), the slowed
  fan-out benchmarks/selfcheck/test_hall_sees_a_slowdown.py must see.

It prints ``hall: 1000 followers, 1 replica, 20 moves, missed M, p95 X s, CPU Y ms per follower per move, idle Z% of
a core, W MB per follower``, then the floor's line and the ratios.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import queue
import random
import string
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.cluster import cpu_seconds  # noqa: E402
from tests.browser.harness import Server  # noqa: E402

MOVE_TIMEOUT = 20.0
CONNECT_TIMEOUT = 180.0


@dataclass
class Result:
    followers: int
    moves: int
    missed: int
    p95_s: float
    cpu_ms: float  # per follower per move
    idle_pct: float
    mb: float  # per follower

    def line(self, name: str) -> str:
        return (f"{name}: {self.followers} followers, 1 replica, {self.moves} moves, missed {self.missed}, "
                f"p95 {self.p95_s:.3f} s, CPU {self.cpu_ms:.3f} ms per follower per move, "
                f"idle {self.idle_pct:.1f}% of a core, {self.mb:.3f} MB per follower")


def deck(step: int, size: int = 5_000) -> str:
    """A deck-shaped document of about ``size`` characters (ui/lecture/deck.py's fields; the walkthrough fills it)."""
    rng = random.Random(step)
    shared = "".join(rng.choices(string.ascii_letters + string.digits + "-_", k=600))
    body = {"v": 1, "position": step, "arrived": step, "shared": shared, "walkthrough": "", "clock_start": 1.7e9,
            "budget_min": 50, "shown": True, "poll": None, "notes_shared": False, "spotlight": None}
    body["walkthrough"] = "".join(rng.choices(string.ascii_letters + string.digits + "-_",
                                              k=size - len(json.dumps(body))))
    return json.dumps(body, separators=(",", ":"))


def settle(pid: int, timeout: float = 120.0) -> None:
    """Until the server is quiet: ui.shell.serve goes on importing PyTorch and the pages after it answers its health
    check, which must not count as idle or as a move's cost."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(1.0)
        if cpu_seconds(pid) - before < 0.03:
            return


def post(url: str, body: str, headers: dict[str, str] | None = None) -> str:
    request = urllib.request.Request(url, data=body.encode(), method="POST", headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


def open_and_close(url: str) -> None:
    """One stream opened, its first event read, closed: the route's first use, before memory is measured."""
    with urllib.request.urlopen(url, timeout=30) as response:
        while b"\n\n" not in response.read1(65536):
            pass


class Readers:
    """benchmarks/hall_readers.py, and its lines as they come."""

    def __init__(self, port: int, path: str, n: int) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "hall_readers.py"), str(port), path,
                                      str(n)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.proc.stdout], daemon=True).start()

    def wait_for(self, prefix: str, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line.startswith(prefix):
                return line.strip()
        return None

    def dump(self) -> dict:
        self.proc.stdin.write("dump\n")
        self.proc.stdin.flush()
        found = self.wait_for("{", 60)
        self.proc.wait(timeout=30)
        return json.loads(found)


def measure(script: Path, followers: int, moves: int, idle_seconds: float, env: dict[str, str]) -> Result:
    # One room of the whole hall: its cap of streams (MAX_STUDENTS and a margin, for Streamlit followers) raised.
    server = Server(script, env={"ATTENTION_BENCH_ROOM_HOOKS": "1", "ATTENTION_ROOM_STREAMS": str(followers + 10),
                                 **env})
    readers = None
    try:
        server.wait_healthy(timeout=180)
        settle(server.proc.pid)
        made = json.loads(post(server.url + "/bench/room", deck(1)))
        room, secret = made["room"], made["secret"]
        path = f"/room/{room}/events?raw=1"  # the raw fan-out: the deck here is deck-shaped noise, no step to render
        open_and_close(server.url + path)
        time.sleep(1)  # the closed stream's clean-up
        rss_before = server.rss_mb()
        readers = Readers(server.port, path, followers)
        connected = readers.wait_for("connected", CONNECT_TIMEOUT)
        if connected is None:
            raise TimeoutError("the readers did not connect")
        ok = int(connected.split()[1])
        if ok < followers:
            print(f"{script.name}: {followers - ok} readers could not connect", file=sys.stderr)
        mb = (server.rss_mb() - rss_before) / max(ok, 1)

        cpu = cpu_seconds(server.proc.pid)
        time.sleep(idle_seconds)
        idle_rate = (cpu_seconds(server.proc.pid) - cpu) / idle_seconds

        published: dict[int, float] = {}
        cpu, started = cpu_seconds(server.proc.pid), time.monotonic()
        for step in range(2, moves + 2):
            sent = time.time()
            version = int(post(f"{server.url}/bench/room/{room}/publish", deck(step), {"x-room-secret": secret}))
            published[version] = sent
            readers.wait_for(f"all {version}", MOVE_TIMEOUT)
        used = cpu_seconds(server.proc.pid) - cpu - idle_rate * (time.monotonic() - started)
        arrivals = readers.dump()
    finally:
        if readers is not None and readers.proc.poll() is None:
            readers.proc.kill()
        server.stop()
    return summary(arrivals, published, followers, moves, used, idle_rate, mb)


def summary(arrivals: dict, published: dict[int, float], followers: int, moves: int, used: float, idle_rate: float,
            mb: float) -> Result:
    delays, missed = [], moves * arrivals["failed"]
    for seen in arrivals["arrivals"]:
        for version, sent in published.items():
            if str(version) in seen:
                delays.append(seen[str(version)] - sent)
            else:
                missed += 1
    delays.sort()
    p95 = delays[min(len(delays) - 1, math.ceil(0.95 * len(delays)) - 1)] if delays else math.nan
    reading = len(arrivals["arrivals"]) or 1
    return Result(followers, moves, missed, p95, max(used, 0.0) * 1000 / (reading * moves), idle_rate * 100, mb)


def app_env(slow_fanout_ms: int = 0) -> dict[str, str]:
    return {"ATTENTION_SLOW_FANOUT_MS": str(slow_fanout_ms)} if slow_fanout_ms else {}


def fanout_parser(doc: str, *, followers: int, idle_seconds: float, report: str) -> argparse.ArgumentParser:
    """The options of the two benchmarks of the fan-out to followers, this one and bench_room.py: both measure a
    number of followers, idle for a while, beside the bare Starlette floor, and may write their report."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--followers", type=int, default=followers)
    parser.add_argument("--idle-seconds", type=float, default=idle_seconds)
    parser.add_argument("--no-floor", action="store_true", help="without the bare Starlette fan-out beside it")
    parser.add_argument("--write", action="store_true", help=f"write benchmarks/{report}")
    return parser


def write_report(report: str, title: str, machine: str, body: str) -> None:
    """benchmarks/<report>: its title, today's date and the command as it was run (this script and its arguments),
    then the body, so that a report always says how to run it again."""
    command = " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]])
    (ROOT / "benchmarks" / report).write_text(
        f"# {title}\n\n{datetime.date.today().isoformat()}, command: `{command}` ({machine})\n\n{body}\n")


def main() -> int:
    parser = fanout_parser(__doc__, followers=1000, idle_seconds=10.0, report="HALL.md")
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--slow-fanout-ms", type=int, default=0, help="the app's fan-out deliberately slowed")
    args = parser.parse_args()
    (ROOT / "artifacts").mkdir(exist_ok=True)
    app = measure(ROOT / "app.py", args.followers, args.moves, args.idle_seconds, app_env(args.slow_fanout_ms))
    lines = [app.line("hall")]
    if not args.no_floor:
        floor = measure(ROOT / "benchmarks" / "hall_floor_app.py", args.followers, args.moves, args.idle_seconds, {})
        lines += [floor.line("floor (bare Starlette SSE)"),
                  f"app / floor: p95 {app.p95_s / floor.p95_s:.2f} x, CPU per follower per move "
                  f"{app.cpu_ms / floor.cpu_ms if floor.cpu_ms else math.inf:.2f} x, memory per follower "
                  f"{app.mb / floor.mb if floor.mb > 0 else math.inf:.2f} x"]
    print("\n".join(lines))
    if args.write:
        write_report("HALL.md", "A hall of followers on event streams",
                     "2 cores, the readers in their own process on the same machine",
                     "```\n" + "\n".join(lines) + "\n```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
