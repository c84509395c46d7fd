"""Shared helpers for real-browser tests and benchmarks: start a Streamlit server on a free
localhost port, launch Debian's chromium through Playwright, and wait for reruns to finish."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ui.chapter import PAGES
from ui.draw import PRINTED_SELECTOR
from ui.words.content import app_text
from ui.words.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
# Chromium's headless mode is the whole browser: every window (a test's context) also loads the address bar's pop-ups
# as WebUI pages, each in a renderer of its own, which no test looks at. Turned off, a lecture test (test_commands.py
# and test_polls.py, taking turns) used 86-88 CPU-seconds against 95-98 (2026-11-30). Chromium keeps only the last
# --disable-features, so the one here repeats Playwright's own (1.65); test_browser_flags.py checks it does.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,"
    "LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,"
    "TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    f"--disable-features={PLAYWRIGHT_DISABLED_FEATURES},WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``streamlit run`` in a child process, on 127.0.0.1 and a free port.

    ``launcher`` is how the server starts: ``ui.shell.serve`` (make run, Docker, which also preloads
    PyTorch) or ``streamlit`` (plain ``streamlit run``, as Streamlit Community Cloud starts an app).
    ``plain=True`` is the same as ``launcher="streamlit"``: the latency baseline, as Streamlit
    ships it, must not carry the app's modules in its heap."""

    def __init__(self, script: Path, env: dict[str, str] | None = None, plain: bool = False,
                 launcher: str = "ui.shell.serve", port: int | None = None):
        launcher = "streamlit" if plain else launcher
        self.port = port or free_port()
        env = dict(env or {})
        self.rooms_dir = None
        if "ATTENTION_ROOMS" not in env:  # never the repository's own rooms file: one of the server's own
            self.rooms_dir = tempfile.mkdtemp(prefix="attention-rooms-")
            env["ATTENTION_ROOMS"] = f"sqlite:///{self.rooms_dir}/rooms.sqlite3"
        self.url = f"http://127.0.0.1:{self.port}"
        self.started = time.perf_counter()
        self.log = open(ROOT / "artifacts" / f"server-{self.port}.log", "w") if (ROOT / "artifacts").is_dir() else (
            subprocess.DEVNULL)
        command = [sys.executable, "-m", launcher, *(["run"] if launcher == "streamlit" else [])]
        self.proc = subprocess.Popen(
            [*command, str(script), "--server.port", str(self.port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env={**os.environ, **env}, stdout=self.log, stderr=subprocess.STDOUT,
        )

    def wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("streamlit did not become healthy")

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.rooms_dir is not None:
            shutil.rmtree(self.rooms_dir, ignore_errors=True)


# A rerun has finished when the "Running..." status widget is gone and no element is stale.
# How long a test waits for what must happen. It bounds a failing test's time and measures no speed: a busy machine
# can take tens of seconds for what a quiet one does in one, and a passing test never waits it out.
PATIENT_MS = 60_000

IDLE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app) return false;
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  return true;
}"""


def wait_idle(page, timeout_ms: float = PATIENT_MS, settle_ms: int = 150) -> None:
    """Wait until the app is idle, and still idle ``settle_ms`` later (no rerun pending)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        page.wait_for_function(IDLE_JS, timeout=timeout_ms, polling="raf")
        page.wait_for_timeout(settle_ms)
        if page.evaluate(IDLE_JS):
            return
    raise TimeoutError("the app did not become idle")


CHARTS_DRAWN_JS = """() => Array.from(document.querySelectorAll('[data-testid="stVegaLiteChart"]')).every(c => {
    if (!c.getClientRects().length) return true;  // in a folded section: drawn when opened
    const svg = c.querySelector('svg'); return !!svg && svg.getBoundingClientRect().width > 0; })"""


def wait_charts(page, timeout_ms: float = PATIENT_MS) -> None:
    """Until every Vega chart on the page has drawn its SVG (Vega draws after the run ends), then a frame."""
    page.wait_for_function(CHARTS_DRAWN_JS, timeout=timeout_ms, polling="raf")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")


def wait_text(page, text: str, timeout_ms: float = PATIENT_MS, where: str = "body") -> None:
    page.wait_for_function("([t, w]) => (document.querySelector(w) || document.body).textContent.includes(t)",
                           arg=[text, where], timeout=timeout_ms, polling="raf")


def wait_progress_kept(page, page_id: str, question_id: str, timeout_ms: float = PATIENT_MS) -> None:
    """Wait until the browser's copy of Check yourself's progress holds ``question_id`` (ui/check/progress.js).

    The copy is written when the run that judged the answer reaches the browser, a moment after its verdict is on
    screen: a learner reloads seconds later, a test at once, so a test that reloads waits for it first."""
    page.wait_for_function("([p, q]) => { try { const s = JSON.parse(localStorage.getItem('attention-progress')"
                           " || '{}'); return Array.isArray(s[p]) && s[p].includes(q); } catch (e) { return false; } }",
                           arg=[page_id, question_id], timeout=timeout_ms)


def choose_option(page, selectbox, option: str, attempts: int = 3) -> None:
    """Open a selectbox and pick ``option``; a click that lands while the box is redrawn is tried again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    for attempt in range(attempts):
        selectbox.click()
        choice = page.get_by_role("option", name=option)
        try:
            choice.wait_for(state="visible", timeout=5_000)
        except PlaywrightTimeoutError:
            if attempt == attempts - 1:
                raise
            page.keyboard.press("Escape")
            wait_idle(page)
            continue
        choice.click()
        return


def chart_texts(page) -> list[str]:
    """Every text label drawn in the Vega charts (cell values, titles, axis labels)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.vega-embed svg text'))
        .map(t => t.textContent)""")


CODE_SELECTOR = f'[data-testid="stCode"] code, pre.listing code, {PRINTED_SELECTOR}'  # listings, printed tensors
CODE_TEXTS_JS = "sel => Array.from(document.querySelectorAll(sel)).map(c => c.textContent)"


def code_texts(page) -> list[str]:
    """Every printed tensor (ui/draw/tensors.py: print_tensor) and code listing on the page."""
    return page.evaluate(CODE_TEXTS_JS, CODE_SELECTOR)


SIDEBAR = '[data-testid="stSidebar"]'


def edit_matrix_cell(page, row: int, col: int, value: str, attempts: int = 3, where: str = SIDEBAR) -> None:
    """Edit the sidebar data editor: row 0..n-1, col 0 = token, 1 = d1, ... (keyboard navigation); ``where``: the
    editor's container (a phone's is on the page: ``[data-testid="stMain"]``)."""
    open_matrix_cell(page, row, col, value, attempts, where)
    page.keyboard.press("Enter")


def open_matrix_cell(page, row: int, col: int, value: str, attempts: int = 3, where: str = SIDEBAR) -> None:
    """Type ``value`` into a cell of the sidebar data editor, without committing it (Enter does).

    Every accepted edit remounts the app's editor (a new widget key), so wait for the app to be
    idle first, and select the cell again if the grid was replaced while we were walking to it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    editor = page.locator("input.gdg-input, textarea.gdg-input").first
    for attempt in range(attempts):
        wait_idle(page)
        canvas = page.locator(f'{where} [data-testid="stDataFrame"] canvas').first
        canvas.wait_for(state="visible")
        canvas.scroll_into_view_if_needed()  # below a long page list in the sidebar
        box = canvas.bounding_box()
        # Select a body cell of the first row, then walk to the wanted cell with the arrow keys.
        page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + 35 + 17)
        page.wait_for_timeout(100)
        for _ in range(4):  # to the leftmost column, the token names
            page.keyboard.press("ArrowLeft")
        for _ in range(col):
            page.keyboard.press("ArrowRight")
        for _ in range(row):
            page.keyboard.press("ArrowDown")
        page.wait_for_timeout(150)
        page.keyboard.press("Enter")  # open the cell editor
        try:
            editor.wait_for(state="visible", timeout=5000)
            break
        except PlaywrightTimeout:
            if attempt == attempts - 1:
                raise
            page.keyboard.press("Escape")
    page.keyboard.press("Control+a")
    page.keyboard.type(value)
    page.wait_for_timeout(100)  # let the grid take the typed value before committing it


@contextmanager
def sized_page(browser, width: int, height: int) -> Iterator:
    """A page in a browser context of its own, with a viewport of width x height CSS pixels."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


def url_of(server, page_id: str) -> str:
    """A page's address on ``server`` (the home page is the root)."""
    from ui.chapter import PAGES

    return server.url + ("/" if page_id == PAGES[0].page_id else f"/{page_id}")


def open_page(page, server, page_id: str) -> None:
    """Open a page in the browser tab and wait for it to settle."""
    page.goto(url_of(server, page_id))
    page.wait_for_selector("h1")
    wait_idle(page)


# The navigation's link to a path (the home page's is the root), clicked as a learner's click would be: Streamlit's
# own handler switches the page in the tab's session. (A click from a script: in lecture mode the sidebar is folded.)
_NAVIGATE_JS = """(path) => { const link = Array.from(document.querySelectorAll('[data-testid="stSidebarNav"] a'))
    .find(a => new URL(a.href).pathname === path); if (!link) return false; link.click(); return true; }"""


def navigate(page, page_id: str) -> None:
    """Open ``page_id`` from the navigation, in the tab's own session, and wait for it to settle: what a learner's
    click does. The app is not loaded again (a page switched this way cost 0.56 CPU-seconds on a 2-core machine,
    against 1.8 for one loaded with ``goto``); the session's state, language and lecture mode stay."""
    from ui.chapter import PAGES

    path = "/" if page_id == PAGES[0].page_id else f"/{page_id}"
    before = page.evaluate("() => document.querySelector('h1')?.textContent")
    assert page.evaluate(_NAVIGATE_JS, path), f"no link to {path} in the navigation"
    page.wait_for_function("([path, before]) => location.pathname === path && "
                           "(document.querySelector('h1')?.textContent || before) !== before",
                           arg=[path, before], timeout=PATIENT_MS)
    wait_idle(page)


def resize(page, size: tuple[int, int]) -> None:
    """The window at ``size`` (width, height), as a learner's resized window or another projector."""
    if page.viewport_size != {"width": size[0], "height": size[1]}:
        page.set_viewport_size({"width": size[0], "height": size[1]})


def steady(page, measure_js: str, interval_ms: int = 100, reads: int = 20) -> dict:
    """``measure_js``'s result once the layout has settled: two reads ``interval_ms`` apart agree (a chart redrawn
    after a run or for a new width shows as a change). After ``reads`` reads the last is returned: a layout that keeps
    changing is then measured as it is, and what it measures is the test's to judge."""
    found = page.evaluate(measure_js)
    for _ in range(reads):
        page.wait_for_timeout(interval_ms)
        again = page.evaluate(measure_js)
        if again == found:
            break
        found = again
    return found


# Every text the live region takes, in order (it is emptied before each new one: an empty text is not kept).
LISTEN_JS = """() => { window.__heard = []; const live = document.querySelector('.attention-live[role="status"]');
    new MutationObserver(() => { const t = live.textContent.trim(); if (t) window.__heard.push(t); })
      .observe(live, {childList: true, characterData: true, subtree: true}); }"""


# The same, from the page's load (a context's init script): what a page says while it loads is heard too.
LISTEN_FROM_LOAD_JS = """(() => { window.__heard = [];
    const attach = () => { const live = document.querySelector('.attention-live[role="status"]');
      if (!live) return false;
      new MutationObserver(() => { const t = live.textContent.trim(); if (t) window.__heard.push(t); })
        .observe(live, {childList: true, characterData: true, subtree: true});
      return true; };
    const wait = new MutationObserver(() => { if (attach()) wait.disconnect(); });
    document.addEventListener('DOMContentLoaded', () => {
      if (!attach()) wait.observe(document.documentElement, {childList: true, subtree: true}); }); })();"""


def heard(page, settle_ms: int = 600) -> list[str]:
    """What the live region said since the last call, "Updating…" left out (a slow run says it first)."""
    page.wait_for_timeout(settle_ms)
    said = page.evaluate("() => window.__heard.splice(0)")
    updating = {app_text("say_updating", lang=lang) for lang in LANGUAGES}
    return [t for t in said if t not in updating]


# ----- the keyboard alone (tests/browser/test_keyboard.py, test_screen_reader.py) -----

MOUSE_JS = """() => { window.__mouse = 0;
    for (const kind of ['mousedown', 'mouseup', 'pointerdown', 'pointerup', 'wheel', 'contextmenu'])
        window.addEventListener(kind, () => { window.__mouse += 1; }, true); }"""

# Where the focus is: the element's tag and role, the Streamlit widget key around it, and whether
# the browser shows its focus (:focus-visible).
FOCUS_JS = """() => { const e = document.activeElement;
    if (!e || e === document.body) return null;
    const keyed = e.closest('[class*="st-key-"]');
    return {tag: e.tagName, role: e.getAttribute('role'), testid: (e.closest('[data-testid]') || e).dataset.testid,
            key: keyed ? Array.from(keyed.classList).find(c => c.startsWith('st-key-')) : null,
            visible: e.matches(':focus-visible')}; }"""


def focus(page) -> dict | None:
    return page.evaluate(FOCUS_JS)


def focused_name(page) -> str:
    """The focused element's name as the browser's accessibility tree computes it: what a screen reader says."""
    cdp = page.context.new_cdp_session(page)
    try:
        found = cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})["result"]
        nodes = cdp.send("Accessibility.getPartialAXTree", {"objectId": found["objectId"], "fetchRelatives": False})
        return next((n.get("name", {}).get("value", "") for n in nodes["nodes"] if not n.get("ignored")), "")
    finally:
        cdp.detach()


def tab_to(page, wanted, *, backwards: bool = False, limit: int = 120) -> dict:
    """Press Tab (or Shift+Tab) until the focused element matches ``wanted(focus)``."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        where = focus(page)
        if where and wanted(where):
            return where
    raise AssertionError("Tab never reached the element")


def settled(page, key: str) -> dict:
    """After a rerun: idle, and the focus still on the widget ``key`` (not lost to the page)."""
    wait_idle(page)
    page.wait_for_timeout(200)
    where = focus(page)
    assert where and where["key"] == key, where
    return where


def printed(page) -> list[str]:
    """The printed tensors' texts, in page order."""
    return page.eval_on_selector_all(PRINTED_SELECTOR, "els => els.map(e => e.textContent)")


# A widget's descriptions as a screen reader reads them: the texts its aria-describedby points to.
DESCRIBED_JS = """(sel) => Array.from(document.querySelectorAll(sel))
    .map(e => (e.getAttribute('aria-describedby') || '').split(' ')
      .map(id => (document.getElementById(id) || {textContent: ''}).textContent).join(' '))"""


def described(page, box: str) -> list[str]:
    """The descriptions of the field and of the "?" help button in the widget box ``box`` (a CSS selector)."""
    return page.evaluate(DESCRIBED_JS, f'{box} input, {box} [data-testid="stTooltipIcon"] button')


# ----- axe-core (axe-playwright-python): tests/browser/test_accessibility.py, test_spotlight.py -----

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# Streamlit's own navigation markup: with sections, its <ul> holds <div>s that hold the <li>s. A minimal
# app shows the same (test_the_remaining_rules_are_streamlits_own), and CSS cannot change markup.
# Allowed only inside the sidebar's navigation, one <ul> and one <li> per page.
UPSTREAM = {"list": 1, "listitem": len(PAGES)}
NAV = '[data-testid="stSidebarNav"]'

IN_NAV_JS = """(targets) => targets.map(t => { const e = document.querySelector(t);
    return !!(e && e.closest('[data-testid="stSidebarNav"]')); })"""


def axe_run(axe, page) -> dict[str, list]:
    # Only the violations come back: axe then skips serialising its passes and "incomplete" lists, which took
    # two thirds of each view's time (2.3 s against 0.8 s per page, the same violations found).
    result = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return {v["id"]: [n["target"][0] for n in v["nodes"]] for v in result.response["violations"]}


def not_upstream(page, found: dict[str, list]) -> dict[str, list]:
    """The violations left once Streamlit's navigation markup (exactly UPSTREAM) is taken out."""
    left = {}
    for rule, targets in found.items():
        if rule in UPSTREAM and len(targets) == UPSTREAM[rule] and all(page.evaluate(IN_NAV_JS, targets)):
            continue
        left[rule] = targets
    return left
