"""A room's deck as a following student's light page shows it, in the student's language: :func:`view`.

The projection publishes what it drew as language-neutral data (the deck's :class:`~ui.lecture.picture.Picture`); the
server words it here once per (version, language) and every subscriber of that language gets the same bytes
(ui/lecture/feed.py). The words come from the catalogs, spoken in ``lang`` on this thread only
(:func:`ui.state.speaking`); the chart is the Vega-Lite spec the app draws for that step (ui/draw/stepchart.py),
rendered to SVG on the server with vl-convert, and the printed tensor is the app's own text (ui/draw/printed.py).
Nothing here needs a Streamlit run: it runs in a worker thread of the server.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from urllib.parse import urlencode

import vl_convert
from latex2mathml.converter import convert as latex_to_mathml

from ..check.questions import NUMBER, SHAPE
from ..draw import charts, stepchart
from ..draw.printed import tensor_text
from ..draw.show import READER_NUMBERS
from ..lecture.address import AWAY_PARAM, ROOM_PARAM
from ..lecture.deck import Deck, Poll
from ..lecture.picture import Picture
from ..lecture.poll import option_names, question_of
from ..lecture.records import WALK_PAGE
from ..lecture.walkthrough import FILE_PARAM, WalkStep, WalkthroughError, decode, load_bundled
from ..sharing.codec import PARAM
from ..state import speaking
from ..words.content import app_text, page_text
from ..words.i18n import WALK_CONTEXT, decimal_comma, translate

__all__ = ["VEGA_LITE", "view"]

VEGA_LITE = "6.4"  # the schema ui/draw/chart_spec.py writes (v6), as vl-convert names its bundled versions
BAR_STEP = 52  # px a bar: a value printed with four decimals (0.2379) fits above it
CACHED_VIEWS = 64  # a few rooms' newest versions in four languages


def view(deck_json: str, version: int, lang: str, room: str) -> dict[str, Any]:
    """What a following student's light page shows of ``room``'s deck (``version``), in ``lang``: a JSON-able dict
    whose keys are the page's contract. The deck is read with every check a room's document gets (DeckError)."""
    return dict(_view(deck_json, version, lang, room))  # a copy: the cached one is every subscriber's


# Keyed by the room and the document too, not only (version, lang): two rooms share version numbers.
@functools.lru_cache(maxsize=CACHED_VIEWS)
def _view(deck_json: str, version: int, lang: str, room: str) -> dict[str, Any]:
    with speaking(lang):  # every word below, the walkthrough's check of its steps' names included, on this thread
        return _worded(Deck.from_json(deck_json), version, lang, room)


def _worded(deck: Deck, version: int, lang: str, room: str) -> dict[str, Any]:
    steps = _walk_steps(deck.walkthrough)
    index, picture = deck.position, deck.picture
    total = len(steps) if steps else (picture.total if picture is not None else index + 1)
    walk_step = steps[index] if index < len(steps) else None
    page = picture.page if picture is not None else walk_step.page if walk_step is not None else None
    words = page_text(page, lang) if page is not None else None
    name = picture.name if picture is not None else walk_step.step if walk_step is not None else None
    text = next((s for s in words.steps if s.name == name), None) if words is not None else None
    chart = _chart(picture, lang) if picture is not None else None
    return {"version": version, "lang": lang, "index": index, "total": total,
            "line": _plain(app_text("step_of", lang, k=index + 1, n=total)),
            "section": words.title if words is not None else None,
            "caption": text.caption if text is not None else None,
            "formula": _mathml(text.formula) if text is not None and text.formula else None,
            "tensor": tensor_text(picture.tensor()) if picture is not None else None,
            "chart": None if chart is None else chart[0], "table": None if chart is None else chart[1],
            "code": picture.code if picture is not None else None,
            "note": _note(deck, walk_step, lang),
            "explore": _explore(deck, lang, room),
            "poll": _poll(deck, lang),
            "picture": picture is not None}


def _note(deck: Deck, step: WalkStep | None, lang: str) -> str | None:
    """The step's speaker note, in ``lang``, once the lecturer shares the notes with the class (the console's
    switch); never while a question is open on the step, which the note could answer."""
    if not deck.notes_shared or step is None or not step.note or deck.asked() is not None:
        return None
    return translate(step.note, lang, WALK_CONTEXT)


def _walk_steps(packed: str | None) -> tuple[WalkStep, ...]:
    """The lecture's walkthrough: the bundled one, or the lecturer's own the deck carries."""
    try:
        return (load_bundled() if packed is None else decode(packed)).steps
    except WalkthroughError:
        return ()


def _plain(markdown: str) -> str:
    """A catalog's line without its markdown emphasis ("Step **7** of 33"): the light page writes text."""
    return re.sub(r"\*\*(.+?)\*\*", r"\1", markdown)


def _mathml(latex: str) -> str | None:
    """The step's formula as MathML, which every browser draws without a script; None where the converter cannot
    read it (the page then shows no formula rather than a broken one)."""
    try:
        return latex_to_mathml(latex, display="block")
    except Exception:  # the converter raises its own many kinds for TeX it does not know  # noqa: BLE001
        return None


def _chart(picture: Picture, lang: str) -> tuple[str, dict | None] | None:
    """The step's chart as SVG, and its numbers as one table for a screen reader; None where the step is only
    printed."""
    spec = stepchart.step_chart(picture.step, picture.dims, picture.tensor().float().numpy(), picture.rows,
                                picture.keys, hidden=picture.array(picture.hidden),
                                dropped=picture.array(picture.dropped))
    if spec is None:
        return None
    spec = _on_a_phone(spec)
    if decimal_comma(lang):  # as the app draws it for this reader (ui/draw/show.py show_chart): 0,9995
        spec = {**spec, "config": {**spec.get("config", {}), "locale": READER_NUMBERS}}
    svg = vl_convert.vegalite_to_svg(spec, vl_version=VEGA_LITE, allowed_base_urls=[])
    return svg, _table(charts.tables(spec))


def _on_a_phone(spec: dict) -> dict:
    """The spec laid out for a light page, where nothing gives it a container's width: a bar as wide as its label
    (Vega-Lite's default band of 20 px put each value over its neighbours'), and the vertical axis's title (a bar's
    value, a heatmap's query) written across, above the axis: turned on its side it was hard to read, and a Korean
    word lay on its back."""
    config = spec.get("config", {})
    across = {"titleAngle": 0, "titleAlign": "right", "titleAnchor": "end", "titleBaseline": "bottom", "titleX": 0,
              "titleY": -6}
    spec = {**spec, "config": {**config, "axisY": {**config.get("axisY", {}), **across}}}
    if "width" not in spec and "facet" not in spec:
        spec["width"] = {"step": BAR_STEP}
    return spec


def _table(tables: list[charts.Table]) -> dict | None:
    """The chart's tables as one: a grid of heads' tables follow one another, each row headed by its head."""
    if not tables:
        return None
    first = tables[0]
    rows = [[row, *cells] for row, cells in first.rows] if len(tables) == 1 else \
        [[f"{app_text('head_label')} {h} · {row}", *cells] for h, t in enumerate(tables, 1) for row, cells in t.rows]
    caption = first.caption.removesuffix(f" {app_text('head_label')} 1") if len(tables) > 1 else first.caption
    return {"caption": caption, "columns": [first.corner, *first.columns], "rows": rows}


def _explore(deck: Deck, lang: str, room: str) -> str:
    """The full app at this step's state: the walkthrough page (named: the app's first page is its home) at the
    step, with the lecture's matrix and controls (?s=) and its own walkthrough if the lecturer's (?wt=), in the
    student's language, as a student of ``room`` who explores (``away=1``: the app joins them so, and they may send
    what they find)."""
    params = {"walk": deck.position + 1, PARAM: deck.shared}
    if deck.walkthrough is not None:
        params[FILE_PARAM] = deck.walkthrough
    return f"./{WALK_PAGE}?" + urlencode({**params, "lang": lang, ROOM_PARAM: room, AWAY_PARAM: "1"})


def _poll(deck: Deck, lang: str) -> dict | None:
    """The question put to the class on this step, worded in ``lang`` with the values it was asked with."""
    asked = deck.asked()
    if asked is None:
        return None
    questions = page_text(asked.page, lang).questions
    words = questions.get(asked.question)
    if words is None:
        return None
    try:
        prompt = words("prompt", **dict(asked.fields))
    except (KeyError, IndexError, ValueError):  # fields that do not fill the prompt (a damaged deck): no question
        return None
    return {"number": asked.number, "prompt": prompt, "revealed": asked.revealed, **_input(asked, lang)}


def _input(asked: Poll, lang: str) -> dict:
    """What the light page needs to draw the answer's input, worded in the language spoken: a typed number or
    shape with its hint, or the choices by id with their names. Never the answer: every student gets this view."""
    question = question_of(asked)
    typed = question.kind in (NUMBER, SHAPE)
    names = {} if typed else option_names(asked, question)
    return {"kind": question.kind if typed else "choice", "label": app_text("your_answer", lang),
            "placeholder": app_text(f"placeholder_{question.kind}" if typed else "choose", lang),
            "options": [{"value": o, "label": names.get(o, o)} for o in asked.options] if not typed else []}
