from __future__ import annotations

import pytest

from tests.browser.harness import CHROMIUM_ARGS, ROOT, Server, chromium_path, sized_page

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


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    with sized_page(browser, 1400, 2200) as pg:
        yield pg
