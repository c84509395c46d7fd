"""The class's old link sent to the light page (ui/shell/join.py): ``GET /?room=<id>`` on any of the app's pages is
``303`` to ``/follow/<id>`` (its language kept), and nothing else is touched: an explorer's ``away=1``, a lecturer's
``?room=new``, a console's and a seated projection's addresses, Streamlit's own paths, the app's routes.

The middleware wraps a small Starlette app that stands for everything behind it, as it wraps Streamlit's in app.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from ui.shell.join import JoinRedirect

ROOM = "abcdefghijkl"
SEAT = "s" * 32  # looks like a room's secret (ui/lecture/rooms.py is_secret)


def _behind(request) -> PlainTextResponse:
    return PlainTextResponse(f"app: {request.url.path}")


@pytest.fixture
def client() -> TestClient:
    app = Starlette(routes=[Route("/{path:path}", _behind, methods=["GET", "POST"])],
                    middleware=[Middleware(JoinRedirect)])
    return TestClient(app, follow_redirects=False)


@pytest.mark.parametrize("page", ["/", "/walkthrough", "/one-query", "/attention/", "/attention/dropout"])
def test_the_class_link_on_any_page_is_sent_to_the_light_page(client, page):
    answer = client.get(page, params={"room": ROOM, "walk": "4"})
    base = page.rsplit("/", 1)[0]
    assert answer.status_code == 303 and answer.headers["location"] == f"{base}/follow/{ROOM}"
    assert answer.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("lang,kept", [("ko", "?lang=ko"), ("vi", "?lang=vi"), ("xx", ""), ("<script>", "")])
def test_the_language_goes_along_when_it_is_one_of_the_apps(client, lang, kept):
    answer = client.get("/", params={"room": ROOM, "lang": lang})
    assert answer.status_code == 303 and answer.headers["location"] == f"/follow/{ROOM}{kept}"


@pytest.mark.parametrize("params", [
    {"room": ROOM, "away": "1"},  # an explorer from the light page: the app is theirs
    {"room": "new"},  # a lecturer opens a room
    {"room": ROOM, "seat": "console"},  # a presenter console, reloaded: the app says whether it keeps its seat
    {"room": "not a room"}, {"room": "x" * 5000}, {"room": "../follow/x"},  # no such room: the app says so
    {"s": "abc"}, {},  # no room at all
])
def test_other_addresses_reach_the_app(client, params):
    answer = client.get("/walkthrough", params=params)
    assert answer.status_code == 200 and answer.text == "app: /walkthrough"


def test_two_rooms_in_one_address_are_no_class_link(client):
    answer = client.get(f"/?room={ROOM}&room=mnopqrstuvwx")
    assert answer.status_code == 200


@pytest.mark.parametrize("path", ["/_stcore/health", "/_stcore/stream", f"/follow/{ROOM}", f"/room/{ROOM}/events",
                                  "/follow-static/follow.js", "/download/notebook", "/app/static/logo.png",
                                  "/favicon.ico"])
def test_streamlits_paths_and_the_apps_routes_are_never_redirected(client, path):
    answer = client.get(path, params={"room": ROOM})
    assert answer.status_code == 200 and answer.text == f"app: {path}"


def test_only_a_get_is_redirected(client):
    assert client.post("/", params={"room": ROOM}).status_code == 200


def test_a_projection_reloaded_with_its_seat_reaches_the_app_and_one_without_is_sent_to_the_light_page(client):
    seated = client.get("/walkthrough", params={"lecture": "1", "room": ROOM},
                        headers={"cookie": f"attention_seat_{ROOM}={SEAT}"})
    assert seated.status_code == 200  # the app takes the seat back (ui/lecture/seat.py)
    for cookie in ("", f"attention_seat_{ROOM}=short", f"attention_seat_mnopqrstuvwx={SEAT}"):
        keyless = client.get("/walkthrough", params={"lecture": "1", "room": ROOM}, headers={"cookie": cookie})
        assert keyless.status_code == 303  # what the class sees is what it shows
    lecturers_own_tab = client.get("/", params={"room": ROOM}, headers={"cookie": f"attention_seat_{ROOM}={SEAT}"})
    assert lecturers_own_tab.status_code == 303  # the class's link, from the lecturer's browser: the light page


def test_the_app_wraps_streamlit_in_it():
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text()
    assert "middleware=[Middleware(JoinRedirect)," in source.split('if __name__ == "__main__":')[1]
