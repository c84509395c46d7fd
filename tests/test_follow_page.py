"""A following student's light page (ui/follow/page.py, ``GET /follow/<room>``), called through Starlette's TestClient:
its language, its words (the catalog's, none left in English on a translated page), its refusals and its size."""

from __future__ import annotations

import hashlib
import re
from html import escape, unescape
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.english import english_runs
from ui.follow import page as follow
from ui.inputs.matrix import book_matrix
from ui.lecture.deck import Deck
from ui.lecture.memory_rooms import MemoryRooms
from ui.words.content import app_text
from ui.words.i18n import LANGUAGES

ROOMS = MemoryRooms()
ROOM, _ = ROOMS.create(Deck.of(5, 5, book_matrix(), {}, None, None, 50).to_json())
MAX_FIRST_LOAD = 25_000  # bytes of HTML + JS + CSS, uncompressed: the follower's whole first load
# Every word the page shows or says, by its key (templates with their fields left for the script to fill).
KEYS = ("follow_title", "follow_reconnecting", "follow_waiting", "follow_explore", "follow_tensor",
        "follow_chart", "follow_formula", "follow_table", "poll_asks", "code_that_ran", "poll_send", "follow_sending",
        "follow_offline")
TEMPLATES = {"follow_line": {"line": "{line}"}, "follow_poll": {"prompt": "{prompt}"}}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(Starlette(routes=follow.routes(lambda: ROOMS)))


def visible_words(html: str) -> str:
    """What a student can read or hear of the page: its text, and the words its script shows (data-* attributes)."""
    said = " ".join(unescape(v) for k, v in re.findall(r'data-([a-z]+)="([^"]*)"', html)
                    if k not in ("stream", "root", "state", "answer", "verdict"))  # addresses, the state
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\{\w+\}", " ", unescape(re.sub(r"<[^>]+>", " ", body)) + " " + said)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_page_speaks_the_students_language(client, lang):
    response = client.get(f"/follow/{ROOM}?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    html = response.text
    assert f'<html lang="{lang}">' in html
    assert f"<title>{escape(app_text('follow_title', lang=lang))}</title>" in html
    for key in KEYS:
        assert escape(app_text(key, lang=lang)) in html, key
    for key, fields in TEMPLATES.items():
        assert escape(app_text(key, lang=lang, **fields)) in html, key
    assert f'data-stream="../room/{ROOM}/events?lang={lang}"' in html
    assert f'data-answer="../room/{ROOM}/answer?lang={lang}"' in html
    assert re.search(r'<div id="say" class="vh" aria-live="polite"></div>', html)  # there, and empty, from the start


def test_no_english_is_left_on_a_korean_page(client):
    en, ko = (visible_words(client.get(f"/follow/{ROOM}?lang={lang}").text) for lang in ("en", "ko"))
    assert english_runs(ko, "ko") == []
    assert english_runs(en, "ko"), "the check finds the English page's prose"
    english = set(re.findall(r"[A-Za-z]{3,}", en))
    assert english and not english & set(re.findall(r"[A-Za-z]{3,}", ko))


def test_a_missing_or_unknown_language_follows_the_browser_then_english(client):
    assert '<html lang="ko">' in client.get(f"/follow/{ROOM}", headers={"Accept-Language": "ko-KR,en;q=0.5"}).text
    assert '<html lang="vi">' in client.get(f"/follow/{ROOM}?lang=xx", headers={"Accept-Language": "fr, vi"}).text
    page = client.get(f"/follow/{ROOM}?lang=<b>", headers={"Accept-Language": "fr"}).text
    assert '<html lang="en">' in page and "<b>" not in page


@pytest.mark.parametrize("room", ["short", "x" * 13, "abcdefghijk!", "abcdefghij%C3%A9", "abcdefghijk%3C"])
def test_a_malformed_room_is_404_in_the_students_language(client, room):
    response = client.get(f"/follow/{room}?lang=id")
    assert response.status_code == 404
    assert response.text == app_text("follow_malformed", lang="id")


def test_a_room_that_does_not_exist_says_it_is_closed_and_opens_no_stream(client):
    """A well-formed link to a room that ended (or never was): the page says so where its line would be, in the
    student's language, instead of "Reconnecting" for ever against a stream that is refused each time."""
    response = client.get("/follow/AAAAAAAAAAAA?lang=ko")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert '<html lang="ko">' in html
    line = re.search(r'<p id="line"[^>]*>([^<]*)</p>', html)
    assert line and unescape(line.group(1)) == app_text("follow_no_room", lang="ko")
    assert 'data-stream=""' in html
    assert app_text("follow_reconnecting", lang="ko") not in unescape(html)
    assert "set-cookie" not in response.headers  # no student id for a room that is not there


def test_the_script_and_stylesheet_are_kept_a_year_under_their_content_hash(client):
    html = client.get(f"/follow/{ROOM}").text
    found = re.findall(r'(?:src|href)="\.\./follow-static/([^"]+)"', html)
    assert sorted(n.rsplit(".", 1)[1] for n in found) == ["css", "js"]
    for name in found:
        response = client.get(f"/follow-static/{name}")
        assert response.status_code == 200
        cache = response.headers["cache-control"]
        assert "immutable" in cache and "max-age=31536000" in cache
        assert name.split(".")[1] == hashlib.sha256(response.content).hexdigest()[:12]
    assert client.get("/follow-static/follow.000000000000.js").status_code == 404


def test_no_inline_script_and_a_policy_that_forbids_one(client):
    response = client.get(f"/follow/{ROOM}")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", response.text))
    script = next(a for a in follow.ASSETS.values() if a.name.endswith(".js")).body.decode()
    assert "eval(" not in script and "innerHTML" not in script and "new Function" not in script


def test_the_script_has_no_words_of_its_own():
    """Every word comes from the server (data-* attributes): no string literal in the script is prose."""
    script = next(a for a in follow.ASSETS.values() if a.name.endswith(".js")).body.decode()
    code = re.sub(r"//[^\n]*", "", script)
    literals = re.findall(r'"([^"\\]*)"', code)
    literals = [s for s in literals if s != "use strict"]
    assert literals and not [s for s in literals if re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", s)]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_first_load_is_small(client, lang):
    html = client.get(f"/follow/{ROOM}?lang={lang}").content
    total = len(html) + sum(len(a.body) for a in follow.ASSETS.values())
    assert total < MAX_FIRST_LOAD, f"{total} bytes"


def test_the_app_serves_the_page_beside_streamlit():
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text()
    assert "follow_page.routes()" in source.split('if __name__ == "__main__":')[1]


def test_explore_opens_in_the_same_tab():
    """The light page's "Explore this step" takes this tab to the app (its Rejoin link brings the tab back)."""
    html = follow.render("abcdefghijkl", "en")
    (link,) = [line for line in html.splitlines() if 'id="explore"' in line]
    assert "target=" not in link and "noopener" not in link
