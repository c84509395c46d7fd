"""N replicas of the app behind HAProxy, all on 127.0.0.1: what the failover and capacity runs start.

Each replica is ``python -m ui.shell.serve app.py`` in hosted mode (as in the Docker image) on a
free loopback port; HAProxy (Debian's package) listens on another one, with the configuration
``deploy/haproxy.py`` renders (cookie stickiness, active health checks, redispatch). HAProxy's
stats socket, in a private temporary directory, tells which replicas it considers up.
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from deploy.haproxy import COOKIE, render_local
from deploy.precompress import precompress
from tests.browser.harness import ROOT, Server, free_port

__all__ = ["COOKIE", "Cluster", "balancer_path", "cpu_seconds"]


def balancer_path() -> str | None:
    """HAProxy's binary (Debian installs it in /usr/sbin, which a non-root PATH may lack)."""
    for candidate in (os.environ.get("HAPROXY"), shutil.which("haproxy"), "/usr/sbin/haproxy"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@functools.cache
def _bundles() -> Path:
    """Streamlit's bundles gzipped at level 9 once per process, for every cluster's balancer (about a second)."""
    out = Path(tempfile.mkdtemp(prefix="attention-bundles-"))
    precompress(out)
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0.0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Cluster:
    """``replicas`` app servers named app1, app2, ... behind one HAProxy on 127.0.0.1."""

    def __init__(self, replicas: int, env: dict[str, str] | None = None, app: Path = ROOT / "app.py",
                 compress: bool = True):
        if balancer_path() is None:
            raise RuntimeError("HAProxy is not installed: apt-get install haproxy (make balancer-deps)")
        (ROOT / "artifacts").mkdir(exist_ok=True)
        self.env = {"ATTENTION_HOSTED": "1", **(env or {})}
        self.servers = {f"app{i + 1}": Server(app, env=self.env) for i in range(replicas)}
        self.dir = Path(tempfile.mkdtemp(prefix="attention-lb-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.socket_path = str(self.dir / "stats.sock")
        self.balancer: subprocess.Popen | None = None
        self.killed: set[str] = set()
        self.compress = compress  # False only to measure what compression saves (bench_first_load.py)
        # as deployed, the balancer sends Streamlit's bundles gzipped beforehand (deploy/precompress.py)
        self.bundles = _bundles() if compress else None

    def start(self, timeout: float = 180.0) -> None:
        for server in self.servers.values():
            server.wait_healthy(timeout=timeout)
        config = self.dir / "haproxy.cfg"
        replicas = [(name, server.port) for name, server in self.servers.items()]
        config.write_text(render_local(replicas, port=self.port, stats_socket=self.socket_path,
                                            compress=self.compress, bundles=self.bundles))
        log = open(ROOT / "artifacts" / f"haproxy-{self.port}.log", "w")
        self.balancer = subprocess.Popen([balancer_path(), "-f", str(config), "-db"], stdout=log,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.balancer.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.balancer.returncode} (see {log.name})")
            if os.path.exists(self.socket_path) and self._balancer_healthy() and set(self.up()) == set(self.servers):
                return
            time.sleep(0.2)
        raise TimeoutError("the balancer did not see every replica up")

    def _balancer_healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def stats(self) -> list[dict[str, str]]:
        """HAProxy's ``show stat``: one row per frontend, server and backend."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(self.socket_path)
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        text = data.decode().lstrip("# ")
        return list(csv.DictReader(io.StringIO(text)))

    def up(self) -> list[str]:
        """The replicas HAProxy's health checks consider up (in the main backend; the event streams' backend checks the
        same servers)."""
        return [row["svname"] for row in self.stats()
                if row.get("pxname") == "replicas" and row["svname"] in self.servers and row["status"].startswith("UP")]

    def kill(self, name: str) -> float:
        """SIGKILL one replica (no clean-up, as when a machine or container dies); the time it died."""
        proc = self.servers[name].proc
        os.kill(proc.pid, signal.SIGKILL)
        killed_at = time.perf_counter()
        proc.wait(timeout=10)
        self.killed.add(name)
        return killed_at

    def pids(self) -> dict[str, int]:
        pids = {name: s.proc.pid for name, s in self.servers.items() if name not in self.killed}
        if self.balancer is not None:
            pids["haproxy"] = self.balancer.pid
        return pids

    def stop(self) -> None:
        if self.balancer is not None and self.balancer.poll() is None:
            self.balancer.terminate()
            try:
                self.balancer.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.balancer.kill()
        for name, server in self.servers.items():
            if name not in self.killed:
                server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
