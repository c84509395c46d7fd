"""The app's own download routes (ui/shell/downloads.py), called as a browser calls them: the notebook of a page's
state, the walkthrough's notebook, and the lesson's record; and every hostile address refused with a clear reason.

Starlette's TestClient calls the routes in this process, with the rooms of this process (tests/lecture_apptest.py's
lecture makes one): no server or browser is needed. The browser test that downloads while a lecture moves is
tests/browser/test_downloads.py.
"""

from __future__ import annotations

import csv
import io
import json
import re

import nbformat
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.lecture_apptest import lecture
from ui.inputs.matrix import InputMatrix, book_matrix
from ui.lecture import files
from ui.lecture.lesson import COLUMNS
from ui.lecture.seat import COOKIE_PREFIX
from ui.lecture.walkthrough import encode
from ui.sharing import offer
from ui.sharing.codec import encode_state
from ui.shell import downloads
from ui.state import Key
from ui.words.content import app_text

MATRIX = InputMatrix(("le", "chat", "dort"), [[0.1, -0.5, 0.3], [1.2, 0.4, -0.7], [0.0, 0.9, 0.25]])


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(Starlette(routes=downloads.routes()))


def notebook_of(response) -> dict:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(offer.MIME)
    assert response.headers["content-disposition"].startswith("attachment;")
    nb = nbformat.reads(response.text, as_version=4)
    nbformat.validate(nb)
    return json.loads(response.text)


def code(nb: dict) -> str:
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_a_pages_notebook_is_built_from_its_address(client):
    state, _ = encode_state(MATRIX, {"causal-mask": {"seed": 5, "d_out": 3, "causal": False}})
    nb = notebook_of(client.get("/download/notebook", params={"page": "causal-mask", "s": state, "lang": "ko"}))
    written = code(nb)
    assert "'chat'" in written and "seed = 5" in written and "d_out = 3" in written
    assert any("어텐션" in "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_walkthroughs_notebook_is_built_from_its_address_with_the_step_on_screen_marked(client):
    state, _ = encode_state(book_matrix(), {})
    nb = notebook_of(client.get("/download/walkthrough", params={"m": state, "at": "17", "lang": "en"}))
    marked = [c for c in nb["cells"] if 17 in c.get("metadata", {}).get("attention", {}).get("walk_steps", [])]
    assert len(marked) == 1 and "[0.43, 0.15, 0.89]" in code(nb)  # the step on screen; the book's first row
    assert "SelfAttention_v2" in code(nb)  # the bundled walkthrough reaches 3.4.2
    custom = '[[step]]\npage = "one-query"\nstep = "scores"\n'
    nb = notebook_of(client.get("/download/walkthrough", params={"m": state, "wt": encode(custom)}))
    assert "SelfAttention_v2" not in code(nb)  # one step of 3.3.1: none of 3.4.2's classes


@pytest.mark.parametrize(("path", "params", "status", "says"), [
    ("notebook", {"page": "nowhere", "s": "x"}, 400, "no notebook for the page"),
    ("notebook", {"page": "causal-mask"}, 400, "state is empty"),
    ("notebook", {"page": "causal-mask", "s": "%%%"}, 400, "characters that do not belong"),
    ("notebook", {"page": "causal-mask", "s": "eJzLSM3JyQcABiwCFQ"}, 400, "damaged"),
    ("notebook", {"page": "causal-mask", "s": "A" * 30_000}, 414, ""),
    ("walkthrough", {"wt": "!!"}, 400, "no [[step]]"),
    ("walkthrough", {"wt": encode("[[step]]\npage = 'nowhere'\nstep = 'x'\n")}, 400, ""),
    ("walkthrough", {"m": "A" * 9_000}, 400, "characters long"),
])
def test_a_hostile_address_is_refused_with_its_reason(client, path, params, status, says):
    response = client.get(f"/download/{path}", params=params)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/plain")
    assert says in response.text and "Traceback" not in response.text
    if status == 400:
        assert response.text.startswith(app_text("notebook_refused", error="").split("{")[0].strip())


def test_a_refusal_is_in_the_readers_language(client):
    response = client.get("/download/notebook", params={"page": "nowhere", "s": "x", "lang": "vi"})
    assert response.status_code == 400 and response.text.startswith("Không tạo được notebook")


def test_the_lesson_record_is_the_lecturers_and_only_theirs(client):
    projection, room = lecture(walk="4")
    secret = projection.session_state[Key.ROOM].record.secret
    ok = client.get("/download/lesson-record", params={"room": room}, cookies={COOKIE_PREFIX + room: secret})
    assert ok.status_code == 200 and ok.headers["content-type"].startswith("text/csv")
    assert next(csv.reader(io.StringIO(ok.text))) == list(COLUMNS)
    refused = [
        client.get("/download/lesson-record", params={"room": room}),  # no seat: a student's browser
        client.get("/download/lesson-record", params={"room": room}, cookies={COOKIE_PREFIX + room: "x" * 32}),
        client.get("/download/lesson-record", params={"room": "../etc"}, cookies={COOKIE_PREFIX + room: secret}),
        client.get("/download/lesson-record"),
    ]
    assert [r.status_code for r in refused] == [403] * 4
    assert all(r.text == app_text("download_no_seat") for r in refused)


def test_the_links_the_app_draws_are_the_routes_addresses():
    """A page's notebook link and the walkthrough's, as the app draws them, name these routes and carry the state."""
    from tests.apptest import open_page

    at = open_page("causal-mask")
    (link,) = [h.proto.body for h in at.get("html") if 'class="download-link"' in h.proto.body]
    address = re.search(r'href="([^"]+)"', link).group(1).replace("&amp;", "&")
    assert address.startswith("/download/notebook?page=causal-mask&s=") and 'download="causal-mask.ipynb"' in link
    response = TestClient(Starlette(routes=downloads.routes())).get(address)
    assert "seed = 789" in code(notebook_of(response))
    assert files.walkthrough_file({"at": "1"})[0] == "walkthrough.ipynb"
