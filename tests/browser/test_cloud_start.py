"""The Community Cloud way: plain ``streamlit run app.py``, and a deep link as the very first visit.

Until st.navigation has run once in a server process, Streamlit scans pages/ the legacy way;
without ui/script.py's entry files that first visitor got a "Page not found" dialog."""

from __future__ import annotations

from tests.browser.harness import ROOT, Server, wait_idle
from ui.chapter import page_title
from ui.inputs.matrix import from_rows
from ui.sharing.codec import encode_state


def test_first_visitor_of_a_fresh_server_opens_a_deep_link_without_a_dialog(browser):
    server = Server(ROOT / "app.py", env={"ATTENTION_HOSTED": "1"}, launcher="streamlit")
    matrix = from_rows(["cloudA", "cloudB", "cloudC"], [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], max_tokens=8, max_dim=8)
    link, _ = encode_state(matrix, {"causal-mask": {"seed": 4242}})
    context = browser.new_context(viewport={"width": 1400, "height": 1800})
    try:
        server.wait_healthy(timeout=120)
        page = context.new_page()
        page.goto(f"{server.url}/causal-mask?s={link}")  # nobody has visited this server before
        page.wait_for_selector("h1")
        wait_idle(page)
        page.wait_for_timeout(1000)  # a dialog sent with the first run would be on screen by now
        assert page.inner_text("h1").strip() == page_title("causal-mask")
        body = page.inner_text("body")
        assert "Page not found" not in body and page.locator('[role="dialog"]').count() == 0
        assert "Traceback" not in body
        assert page.get_by_role("spinbutton", name="Seed").input_value() == "4242"  # the link's controls
        assert "3 tokens × 2 dimensions" in page.inner_text('[data-testid="stSidebar"]')  # and its matrix
        assert "/causal-mask?s=" in page.url
    finally:
        context.close()
        server.stop()
