"""Where a replica's CPU goes while a class follows: py-spy records the real server during the lecturer's presses.

Run: .venv/bin/python -m benchmarks.profile_room [--followers 30] [--replicas 1] [--presses 10]

A class joins a new room (protocol students, as in bench_room), then py-spy (``record --format raw --gil``: the
thread holding the GIL, which is what bounds a replica; ``SPY_FLAGS=`` for every busy thread instead) records each
replica while the lecturer presses PageDown. It prints the follow times, the CPU of the machine, of the replicas
(user and system) and of this client over the presses; the folded stacks are written to
artifacts/room-profile-<pid>.txt, and the summary is each function's share of the samples, inclusive (the
function or anything it called), the heaviest first, then the self time. Figures: benchmarks/PROFILE-ROOM.md.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_room_streamlit import ProtocolStudent, Run, _all_at, open_lecturer, until, walk  # noqa: E402
from benchmarks.cluster import Cluster  # noqa: E402
from tests.browser.harness import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.redis_server import running_redis  # noqa: E402

PY_SPY = str(Path(sys.executable).parent / "py-spy")
SPY_FLAGS = os.environ.get("SPY_FLAGS", "--gil").split()


def _machine_busy() -> float:
    """Seconds every core of this machine has been busy (/proc/stat: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _user_sys(pid: int) -> tuple[float, float]:
    """A process's user and system CPU seconds so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def summary(folded: Path, top: int) -> list[str]:
    inclusive, own = collections.Counter(), collections.Counter()
    total = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        n = int(count)
        total += n
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
    lines = [f"{folded.name}: {total} busy samples"]
    lines += [f"{100 * n / total:5.1f}%  {f}" for f, n in inclusive.most_common(top)]
    lines += ["self:"] + [f"{100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top // 2)]
    return lines


async def profile(args) -> None:
    from playwright.async_api import async_playwright

    with contextlib.ExitStack() as stack:
        env = {"ATTENTION_ROOMS": stack.enter_context(running_redis())} if args.replicas > 1 else {}
        cluster = Cluster(args.replicas, env=env)
        stack.callback(cluster.stop)
        await asyncio.to_thread(cluster.start)
        pids = [pid for name, pid in cluster.pids().items() if name != "haproxy"]
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            lecturer = await open_lecturer(browser, cluster.url)
            room = await lecturer.page.evaluate("new URL(location.href).searchParams.get('room')")
            students = [ProtocolStudent(cluster.url, room) for _ in range(args.followers)]
            for i in range(0, len(students), 10):
                await asyncio.gather(*(s.join() for s in students[i:i + 10]))
            await until(lambda: _all_at(students, [], 1), 120)
            await asyncio.sleep(2.0)
            spies = [subprocess.Popen([PY_SPY, "record", "--pid", str(pid), "--format", "raw", "--rate", "200",
                                       *SPY_FLAGS, "--nonblocking",
                                       "-o", str(ROOT / "artifacts" / f"room-profile-{pid}.txt")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]
            await asyncio.sleep(1.0)
            run = Run("profile", args.followers)
            started, machine, client = time.time(), _machine_busy(), time.process_time()
            split = [_user_sys(pid) for pid in pids]
            await walk(run, lecturer, args.presses, students, [])
            took = time.time() - started
            client, machine = time.process_time() - client, _machine_busy() - machine
            split = [tuple(round(b - a, 2) for a, b in zip(before, _user_sys(pid), strict=True))
                     for before, pid in zip(split, pids, strict=True)]
            servers = sum(user + system for user, system in split)
            for spy in spies:
                spy.send_signal(signal.SIGINT)
                spy.wait(30)
            for s in students:
                await s.close()
            await browser.close()
    run.follow.sort()
    print(f"{args.followers} followers, {args.replicas} replica(s): {args.presses} presses in {took:.1f} s; "
          f"follow median {run.follow[len(run.follow) // 2]:.2f} s, p95 {run.p(0.95):.2f} s, missed {run.missed}")
    updates = args.presses * args.followers
    cores = os.cpu_count() or 1
    print(f"CPU in {took:.1f} s: machine {machine:.1f} s (of {cores * took:.1f}), servers {servers:.1f} s "
          f"({1000 * servers / updates:.1f} ms per follower update; user/system {split}), this client {client:.1f} s")
    for pid in pids:
        print("\n".join(summary(ROOT / "artifacts" / f"room-profile-{pid}.txt", args.top)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", type=int, default=30)
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--presses", type=int, default=10)
    parser.add_argument("--top", type=int, default=60)
    asyncio.run(profile(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
