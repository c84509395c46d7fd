"""Lecture windows in AppTest, shared by the lecture suites (tests/test_console.py, test_class.py, test_polls.py).

The walkthrough's projection, its presenter console and a class's students are AppTest sessions of one
process: they share the process's rooms (one per process: ui/lecture/store.py) as browser windows on one server
would. Test modules import these helpers from here, never from one another.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.apptest import APP, BY_ID
from ui.lecture.walkthrough import encode
from ui.state import Key
from ui.words.content import app_text

# ----- the walkthrough and its presenter console ---------------------------------------------------


def walk_app(text: str | None = None, **params: str) -> AppTest:
    """A session on the walkthrough page: its own walkthrough ``text`` (else the bundled one) and query ``params``."""
    at = AppTest.from_file(APP, default_timeout=120)
    if text is not None:
        at.query_params["wt"] = encode(text)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(BY_ID["walkthrough"].file).run()
    assert not at.exception, at.exception
    return at


def token_of(projection: AppTest) -> str:
    """The one-time token the projection holds for its console (in its page, as the browser has it)."""
    (body,) = [h.proto.body for h in projection.get("html") if h.proto.body.startswith('<div class="console-opener"')]
    return body.split('data-token="', 1)[1].split('"', 1)[0]


def open_console(token: str, lang: str = "en") -> AppTest:
    """The presenter console a projection's ``token`` opens, on the walkthrough page, in ``lang``."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["console"] = token
    at.query_params["lang"] = lang
    at.switch_page(BY_ID["walkthrough"].file).run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    """Every word the session drew: markdown, captions, headings, messages, buttons, html."""
    parts = [e.value for kind in ("markdown", "caption", "title", "header", "subheader", "info", "warning", "error",
                                  "success") for e in getattr(at, kind)]
    parts += [b.label for b in at.button] + [h.proto.body for h in at.get("html")]
    return "\n".join(parts)


def walk_select(at: AppTest, page: str, name: str):
    """The selectbox of the walkthrough's control ``name`` on ``page`` (its key gains a round each time the server
    put other values in the page's controls: ui/page/state.py put_walk_values)."""
    prefix = f"{Key.WALK_CONTROL_PREFIX}{page}:{name}"
    (found,) = [s for s in at.selectbox if s.key == prefix or s.key.startswith(prefix + "#")]
    return found


def step_on(at: AppTest) -> str:
    """The walkthrough step the session is on (1-based), as its address says it."""
    return at.query_params["walk"]


# ----- a lecture's room and its class ------------------------------------------------------------


def lecture(**params: str) -> tuple[AppTest, str]:
    """A projection with its room (?room=new), and the room's id from its address."""
    projection = walk_app(lecture="1", room="new", **params)
    room = projection.query_params["room"]
    assert room != "new" and len(room) == 12
    return projection, room


def student(room: str, page: str | None = None, **params: str) -> AppTest:
    """A student's device in the app as a student of ``room`` who explores (the light page's "Explore this step",
    ``away=1``: the server sends ``?room=`` without it to the light page), on the home page or ``page``."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["room"] = room
    at.query_params["away"] = "1"
    for key, value in params.items():
        at.query_params[key] = value
    if page is not None:
        at.switch_page(BY_ID[page].file)
    at.run()
    assert not at.exception, at.exception
    return at


def press_next(at: AppTest) -> None:
    """The Next (or PageDown) of whichever page the walkthrough's step is on."""
    (button,) = [b for b in at.button if (b.key or "").startswith("step_next:")]
    button.click().run()
    assert not at.exception, at.exception


def send(at: AppTest, note: str = "", step: str | None = None) -> str:
    """The student sends what is on their screen; what they are told."""
    if step is not None:
        at.selectbox(key=Key.SPOTLIGHT_STEP).set_value(step)
    at.text_input(key=Key.SPOTLIGHT_NOTE).set_value(note)
    at.button(key=f"FormSubmitter:{Key.SPOTLIGHT_FORM}-{app_text('spotlight_send_button')}").click().run()
    assert not at.exception, at.exception
    return texts(at)


def poll(at: AppTest) -> None:
    """One poll of a window: one more run of its session, which must not raise."""
    at.run()
    assert not at.exception, at.exception
