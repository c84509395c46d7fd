"""The tests' Chromium: Playwright's own switches kept, and no window of the address bar's pop-ups started.

Chromium keeps only the last ``--disable-features`` on its command line, and the harness adds one of its own
(tests/browser/harness.py says why): it must still turn off every feature Playwright turns off.
"""

from __future__ import annotations

import subprocess


def _features(command: list[str]) -> list[set[str]]:
    return [set(a.split("=", 1)[1].split(",")) for a in command if a.startswith("--disable-features=")]


def test_the_browser_keeps_playwrights_disabled_features_and_loads_no_address_bar_popup(browser):
    page = browser.new_page()
    try:
        page.goto("data:text/html,<p>a page</p>")
        session = page.context.browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        shown = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True, check=True)
    finally:
        page.close()
    browsers = [line.split() for line in shown.stdout.splitlines()
                if "--remote-debugging-pipe" in line and "--type=" not in line]
    assert browsers, "no Chromium started by Playwright was found"
    for command in browsers:
        switches = _features(command)
        assert len(switches) >= 2, "the harness's --disable-features is not on the browser's command line"
        playwrights, last = switches[0], switches[-1]
        assert "WebUIOmniboxPopup" in last, "the harness's --disable-features is not the last one: it does nothing"
        assert playwrights <= last, f"Playwright's disabled features lost: {sorted(playwrights - last)}"
    assert not [t["url"] for t in targets if t["type"] == "browser_ui"]
