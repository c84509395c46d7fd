"""A real redis-server on a free loopback port, for the tests that claim what a shared store does.

Debian's redis-server (``make redis-deps``, run by ``make test``). No persistence, no other
clients: the server lives as long as the test session, in a temporary directory.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["redis_server_path", "running_redis"]


def redis_server_path() -> str | None:
    return shutil.which("redis-server") or (shutil.which("redis-server", path="/usr/bin:/usr/sbin"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_redis() -> Iterator[str]:
    """Start redis-server; yield its URL (redis://127.0.0.1:<port>/0); stop it."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as work:
        proc = subprocess.Popen([redis_server_path(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", work], stdout=subprocess.DEVNULL,
                                stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("redis-server did not start") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
