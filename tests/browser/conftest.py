from __future__ import annotations

import pytest

from tests.browser.harness import CHROMIUM_ARGS, ROOT, Server, chromium_path, sized_page
from tests.redis_server import redis_server_path, running_redis

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            if chromium_path() is None:
                item.add_marker(pytest.mark.skip(reason="Debian's chromium is not installed (make test installs it)"))


@pytest.fixture(scope="session")
def app_server():
    (ROOT / "artifacts").mkdir(exist_ok=True)
    server = Server(ROOT / "app.py")
    try:
        server.wait_healthy()
        yield server
    finally:
        server.stop()


# Playwright's defaults (30 s for a page to load or an element to be ready) are for a quiet machine: on a busy one a
# Streamlit page's first load alone took over 30 s. The waits are for a behaviour, not a speed; they cost time only
# when something is wrong.
ACTION_MS = 60_000
LOAD_MS = 120_000


class _PatientBrowser:
    """The session's Chromium, whose every new context and page waits as long as a busy machine needs."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        return _patient(self._browser.new_context(**options))

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        _patient(page.context)
        return page

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


def _patient(context):
    context.set_default_timeout(ACTION_MS)
    context.set_default_navigation_timeout(LOAD_MS)
    return context


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield _PatientBrowser(b)
        b.close()


@pytest.fixture
def page(browser):
    with sized_page(browser, 1400, 2200) as pg:
        yield pg


@pytest.fixture(scope="session")
def redis_replicas():
    """Two app servers sharing a real redis-server, started once per worker: each test opens rooms of its own."""
    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    with running_redis() as url:
        replicas = [Server(ROOT / "app.py", env={"ATTENTION_ROOMS": url}) for _ in range(2)]
        try:
            for replica in replicas:
                replica.wait_healthy()
            yield replicas[0], replicas[1]
        finally:
            for replica in replicas:
                replica.stop()


@pytest.fixture(params=["memory", "redis"])
def servers(request, app_server):
    """(the lecturer's server, the students' server): one server with the in-process store, or two
    replicas sharing a real redis-server (every move then crosses Redis)."""
    if request.param == "memory":
        return app_server, app_server
    return request.getfixturevalue("redis_replicas")
