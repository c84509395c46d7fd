"""The hall's followers: N event-stream readers in one process of their own (benchmarks/bench_hall.py starts it), so
that the server's CPU, measured from its own /proc entry, is the server's alone.

Run: python benchmarks/hall_readers.py PORT PATH N

Each reader is a raw socket (asyncio streams): an HTTP/1.1 GET of PATH, the chunked body taken apart, each event's
``id`` (the room's version) noted with the wall-clock time it was read. On stdout, one line each:

- ``connected <ok> <failed>`` once every reader has its first event (or has failed: refused, or no first event
  within CONNECT_SECONDS);
- ``all <version>`` when every connected reader has read that version or a newer one (one line per version);
- on ``dump`` read from stdin: one JSON object ``{"arrivals": [{version: time, ...} per reader], "failed": k}``,
  and the process ends.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

CONNECT_SECONDS = 120.0
CONNECTING_AT_ONCE = 100  # the server's listen backlog is larger; this keeps a burst of 1000 SYNs off a 2-core box


class Dechunker:
    """The body's bytes out of HTTP/1.1 chunks (uvicorn streams a response of no known length as chunks), fed as the
    socket gives them; one per stream."""

    def __init__(self) -> None:
        self._raw, self._need = b"", -1

    def feed(self, data: bytes) -> bytes:
        self._raw += data
        out = []
        while True:
            if self._need < 0:
                end = self._raw.find(b"\r\n")
                if end < 0:
                    break
                self._need, self._raw = int(self._raw[:end].split(b";")[0], 16), self._raw[end + 2:]
            if len(self._raw) < self._need + 2:
                break
            out.append(self._raw[:self._need])
            self._raw, self._need = self._raw[self._need + 2:], -1
        return b"".join(out)


class Reader:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.seen: dict[int, float] = {}  # version -> when read
        self.latest = 0
        self._chunks, self._text = Dechunker(), b""
        self.first = asyncio.Event()
        self.settled = asyncio.Event()  # its first event read, or it failed

    async def run(self, port: int, path: str, gate: asyncio.Semaphore) -> None:
        try:
            await self._read_stream(port, path, gate)
        finally:
            self.settled.set()  # refused or ended: nobody waits for its first event

    async def _read_stream(self, port: int, path: str, gate: asyncio.Semaphore) -> None:
        async with gate:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        try:
            while data := await reader.read(65536):
                self._events(self._chunks.feed(data))
        finally:
            writer.close()

    def _events(self, body: bytes) -> None:
        self._text += body
        while b"\n\n" in self._text:
            event, self._text = self._text.split(b"\n\n", 1)
            if event.startswith(b"id: "):
                self._read(int(event[4:event.index(b"\n")]))

    def _read(self, version: int) -> None:
        now = time.time()
        self.seen.setdefault(version, now)
        if version > self.latest:
            before, self.latest = self.latest, version
            self.first.set()
            self.settled.set()
            self.hall.reached(before, version)


class Hall:
    def __init__(self) -> None:
        self.count: Counter[int] = Counter()  # version -> readers that have read it or a newer one
        self.live = 0
        self.connected = False

    def reached(self, before: int, version: int) -> None:
        for v in range(before + 1, version + 1):
            self.count[v] += 1
            if self.connected and self.count[v] == self.live:
                print(f"all {v}", flush=True)


async def main(port: int, path: str, n: int) -> None:
    hall = Hall()
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    readers = [Reader(hall) for _ in range(n)]
    tasks = [asyncio.create_task(r.run(port, path, gate)) for r in readers]
    firsts = [asyncio.create_task(r.settled.wait()) for r in readers]
    await asyncio.wait(firsts, timeout=CONNECT_SECONDS)
    ok = sum(r.first.is_set() for r in readers)
    hall.live, hall.connected = ok, True
    print(f"connected {ok} {n - ok}", flush=True)
    loop = asyncio.get_running_loop()
    while (line := await loop.run_in_executor(None, sys.stdin.readline)) and line.strip() != "dump":
        pass
    print(json.dumps({"arrivals": [r.seen for r in readers if r.first.is_set()], "failed": n - ok}), flush=True)
    for task in (*tasks, *firsts):
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
