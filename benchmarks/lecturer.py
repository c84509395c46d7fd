"""What the room benchmarks share: the lecturer's projection in Chromium, timed, and a deliberately slowed store.

The lecturer is a Chromium page on the projection (``/walkthrough?lecture=1&room=new&walk=1``): :func:`open_lecturer`
opens it in a new room, :func:`press` presses a key and times it until the projection shows the step, idle. A
MutationObserver in the page (:data:`RECORDER_JS`) notes the first moment each step was on its line and the page
idle. :class:`SlowProxy` holds each of Redis's replies back, which the follow times must show.

Used by benchmarks/bench_room.py and benchmarks/bench_failover_room.py (and the self-check of the first).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass

__all__ = ["LECTURER_PATH", "MOVE_TIMEOUT", "BrowserWindow", "SlowProxy", "open_lecturer", "open_window", "press",
           "until"]

MOVE_TIMEOUT = 20.0
LECTURER_PATH = "/walkthrough?lecture=1&room=new&walk=1"
PROJECTION_BAR = ".st-key-projection-bar"

# In a page: the first moment (epoch ms) each step was on the line and the page idle. A MutationObserver, not
# requestAnimationFrame: a window behind the lecturer's gets no animation frames, but its DOM still changes.
def recorder_js(drawn: str) -> str:
    """The recorder with its test of a drawn step (JavaScript, with ``line`` and ``m`` in scope): the app's own
    window is drawn once idle; a light page once its caption is the step's."""
    return """(selector) => {
  window.__shown = window.__shown || {};
  const look = () => {
    const line = document.querySelector(selector);
    const m = line && /Step\\s*(\\d+)\\s*of/.exec(line.textContent);
    const drawn = (() => { /* drawn */ })();
    if (m && drawn && !(m[1] in window.__shown)) window.__shown[m[1]] = performance.timeOrigin + performance.now();
  };
  if (!window.__recording) {
    window.__recording = true;
    new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                       characterData: true});
    look();
  }
}""".replace("/* drawn */", drawn)


RECORDER_JS = recorder_js("const app = document.querySelector('[data-testid=\"stApp\"]');"
                          " return app && app.dataset.testScriptState !== 'running'"
                          " && !document.querySelector('[data-stale=\"true\"]');")


@dataclass
class BrowserWindow:
    page: object
    selector: str

    async def shown(self) -> dict[int, float]:
        """Step -> the epoch second it was first shown, idle."""
        found = await self.page.evaluate("() => window.__shown || {}")
        return {int(k): v / 1000 for k, v in found.items()}


async def open_window(browser, url: str, selector: str, viewport: dict) -> BrowserWindow:
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector(selector, timeout=120_000)
    await page.evaluate(RECORDER_JS, selector)
    return BrowserWindow(page, selector)


async def until(check, timeout: float = MOVE_TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.02)
    return False


async def _has(window: BrowserWindow, k: int) -> bool:
    return k in await window.shown()


async def press(lecturer: BrowserWindow, key: str, k: int) -> tuple[float, float]:
    """The lecturer's key; (when it was pressed, seconds until the projection showed step k, idle)."""
    pressed = time.time()
    await lecturer.page.keyboard.press(key)
    await until(lambda: _has(lecturer, k))
    shown = (await lecturer.shown()).get(k)
    return pressed, (shown - pressed) if shown else float("nan")


async def open_lecturer(browser, base_url: str, path: str = LECTURER_PATH) -> BrowserWindow:
    """A projection in a new room (``room=new``), at its first step (``walk=``), settled."""
    lecturer = await open_window(browser, base_url + path, PROJECTION_BAR, {"width": 1280, "height": 720})
    first = int(path.split("walk=", 1)[1].split("&")[0]) if "walk=" in path else 1
    await until(lambda: _has(lecturer, first), 60)
    await lecturer.page.wait_for_function("() => new URL(location.href).searchParams.get('room') !== 'new'")
    await asyncio.sleep(1.0)
    return lecturer


class SlowProxy:
    """A TCP proxy in front of Redis that holds each reply ``delay`` seconds: a deliberately slowed store."""

    def __init__(self, target_port: int, delay: float):
        self.target_port, self.delay = target_port, delay
        self.server = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _client(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pipe(src, dst, delay: float) -> None:
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                while data := await src.read(65536):
                    if delay:
                        await asyncio.sleep(delay)
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer, 0.0), pipe(up_reader, writer, self.delay))

    async def stop(self) -> None:
        self.server.close()
