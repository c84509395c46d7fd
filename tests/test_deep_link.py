"""A deep link's page names its server (ui/shell/deep_link.py): the HTML of a GET of ``/<page>`` (under any base)
carries Streamlit's setting for the server's address before Streamlit's script, uncompressed for the proxy to
compress, with its length right; every other response passes through as it was.

The middleware wraps a small Starlette app that stands for Streamlit's server, as it wraps Streamlit's in app.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from ui.shell.deep_link import SCRIPT, DeepLinkBase

PAGE = '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Streamlit</title>' \
       '<script type="module" src="./static/js/index.js"></script></head><body>' + "<!-- padding -->" * 200 + \
       '<div id="root"></div></body></html>'


def _behind(request) -> Response:
    if request.url.path.endswith(".json"):
        return PlainTextResponse("{}", media_type="application/json")
    if request.url.path.startswith("/_stcore/"):
        return PlainTextResponse("ok")
    if request.headers.get("if-none-match") == '"v1"':
        return Response(status_code=304, headers={"etag": '"v1"'})
    return HTMLResponse(PAGE, headers={"etag": '"v1"'})


@pytest.fixture
def client() -> TestClient:
    # Streamlit's server compresses its responses itself: the middleware sits outside that, as in app.py.
    app = Starlette(routes=[Route("/{path:path}", _behind, methods=["GET", "POST", "HEAD"])],
                    middleware=[Middleware(DeepLinkBase), Middleware(GZipMiddleware, minimum_size=100)])
    return TestClient(app)


@pytest.mark.parametrize("path", ["/causal-mask", "/walkthrough", "/attention/one-query"])
def test_a_deep_links_page_names_its_server_before_streamlits_script(client, path):
    answer = client.get(path, params={"lang": "id"}, headers={"accept-encoding": "gzip"})
    assert answer.status_code == 200
    assert "content-encoding" not in answer.headers  # left to the proxy in front (deploy/haproxy.py)
    assert int(answer.headers["content-length"]) == len(answer.content)
    page = answer.text
    assert page.count(SCRIPT.decode()) == 1
    assert page.index(SCRIPT.decode()) < page.index('<script type="module"')
    assert page.replace(SCRIPT.decode(), "") == PAGE  # nothing else changed


def test_the_setting_is_the_address_one_level_up_and_keeps_a_hosts_own():
    assert b'new URL(".", location.href)' in SCRIPT  # /base/page -> /base/, as Streamlit's own second try
    assert b"Object.assign(window.__streamlit || {}" in SCRIPT


@pytest.mark.parametrize("path", ["/", "/attention/", "/_stcore/health", "/follow/abcdefghijkl", "/download/notebook",
                                  "/static/js/index.js", "/favicon.png", "/causal-mask/extra"])
def test_other_paths_pass_through_as_they_were(client, path):
    answer = client.get(path, headers={"accept-encoding": "gzip"})
    assert SCRIPT.decode() not in answer.text
    if answer.headers.get("content-type", "").startswith("text/html"):
        assert answer.headers.get("content-encoding") == "gzip"  # compressed behind, as it was


def test_only_a_gets_html_is_changed(client):
    assert SCRIPT.decode() not in client.post("/causal-mask").text
    assert client.head("/causal-mask").status_code == 200
    not_modified = client.get("/causal-mask", headers={"if-none-match": '"v1"'})
    assert not_modified.status_code == 304 and not_modified.content == b""


def test_the_app_wraps_streamlit_in_it():
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text()
    assert "Middleware(DeepLinkBase)" in source.split('if __name__ == "__main__":')[1]
