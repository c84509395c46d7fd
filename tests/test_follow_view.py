"""A projected step travels in the room as a Picture, and the server words it per language (ui/follow)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from attention import simple_attention_for_query
from attention.causal import causal_attention_step_by_step
from attention.data import book_inputs
from tests.apptest import printed_tensors
from tests.lecture_apptest import lecture, press_next
from ui.draw.printed import tensor_text
from ui.follow import render
from ui.inputs.matrix import book_matrix
from ui.lecture import store
from ui.lecture.deck import Deck, Poll
from ui.lecture.picture import picture_of
from ui.lecture.walkthrough import load_bundled
from ui.state import speaking
from ui.words.content import app_text, page_text
from ui.words.i18n import WALK_CONTEXT, decimal_comma, translate

ROOM = "abcdefghijkl"  # a room's id, as the feed hands it to the render


def _room_deck(room: str) -> tuple[int, str]:
    found = store.rooms().read(room)
    assert found is not None
    return found


@pytest.mark.parametrize("first", [17])
def test_the_projection_publishes_the_step_it_drew_and_the_view_prints_the_same_tensor(first):
    """3.4.2's v2 steps (17 and 18): a replay keyed by the step's short name once showed v1's numbers under v2."""
    projection, room = lecture(walk=str(first))
    for walk in (first, first + 1):
        version, document = _room_deck(room)
        deck = Deck.from_json(document)
        assert deck.shown and deck.position == walk - 1
        assert deck.picture is not None and deck.picture.page == "self-attention-classes"
        assert deck.picture.name == load_bundled().steps[walk - 1].step
        shown = render.view(document, version, "en", ROOM)
        assert shown["picture"] is True
        assert printed_tensors(projection) == [shown["tensor"]]
        if walk == first:
            press_next(projection)


# ----- the view in each language, from a deck that carries a picture (no Streamlit run) ----------------------------

LANGS = ("en", "id", "vi", "ko")
TOKENS = ["Your", "journey", "starts", "with", "one", "step"]


def _causal_deck(position: int, step: str) -> str:
    """The bundled walkthrough's step on 3.5.1 (causal-mask), as the projection would publish it."""
    trace = causal_attention_step_by_step(book_inputs())
    picture = picture_of("causal-mask", step, position, len(load_bundled().steps), trace, step, TOKENS, None)
    assert picture is not None
    return replace(Deck.of(position, position, book_matrix(), {}, None, None, 50), shown=True,
                   picture=picture).to_json()



def test_explore_opens_the_app_at_the_step_as_a_student_of_the_room_who_explores():
    """The light page's "Explore this step": the walkthrough at the step, the lecture's state, and the room with
    away=1 (the server sends ?room= without it back to the light page), each room its own link."""
    document = _causal_deck(21, "masked_weights")
    params = parse_qs(urlsplit(render.view(document, 9, "ko", ROOM)["explore"]).query)
    assert params["room"] == [ROOM] and params["away"] == ["1"] and params["lang"] == ["ko"]
    assert params["walk"] == ["22"] and params["s"]
    other = parse_qs(urlsplit(render.view(document, 9, "ko", "mnopqrstuvwx")["explore"]).query)
    assert other["room"] == ["mnopqrstuvwx"]  # the same deck in another room: that room's link


def _svg_words(svg: str) -> list[str]:
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def test_a_heatmap_step_is_an_svg_chart_with_its_table_and_the_tensor_as_the_app_prints_it():
    document = _causal_deck(21, "masked_weights")
    shown = render.view(document, 9, "en", ROOM)
    assert shown["picture"] is True and shown["index"] == 21 and shown["total"] == 33
    assert shown["chart"].startswith("<svg") and "masked" in _svg_words(shown["chart"])
    trace = causal_attention_step_by_step(book_inputs())
    assert shown["tensor"] == tensor_text(trace["masked_weights"])
    table = shown["table"]
    assert table["columns"] == [table["columns"][0], *TOKENS] and [r[0] for r in table["rows"]] == TOKENS
    assert table["rows"][0][1:] == ["1.0000"] + ["masked"] * 5
    assert shown["formula"].startswith("<math") and shown["code"] and shown["poll"] is None
    assert shown["explore"].startswith("./walkthrough?walk=22&s=")  # the walkthrough by name: "./" is the home page
    assert shown["explore"].endswith(f"&lang=en&room={ROOM}&away=1")
    assert set(shown) == {"version", "lang", "index", "total", "line", "section", "caption", "formula", "tensor",
                          "chart", "table", "code", "note", "explore", "poll", "picture"}
    json.dumps(shown, allow_nan=False)  # what the stream sends


@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_view_speaks_the_students_language_wherever_the_catalog_has_a_translation(lang):
    document = _causal_deck(20, "masked_scores")
    en, shown = render.view(document, 3, "en", ROOM), render.view(document, 3, lang, ROOM)
    assert shown["tensor"] == en["tensor"] and shown["lang"] == lang  # the numbers are the projection's
    step = next(s for s in page_text("causal-mask", lang).steps if s.name == "masked_scores")
    assert shown["section"] == page_text("causal-mask", lang).title and shown["caption"] == step.caption
    assert shown["line"] == app_text("step_of", lang, k=21, n=33).replace("**", "")
    # Every word the catalog words otherwise in this language is not left in English: the texts, the table's
    # headers and cells, and the words drawn in the chart.
    for key in ("step_of", "cell_masked", "axis_query", "axis_key", "a11y_kind_weights"):
        english, translated = app_text(key, "en", k=21, n=33), app_text(key, lang, k=21, n=33)
        if english == translated:
            continue
        assert english.replace("**", "") not in (shown["line"], *shown["table"]["rows"][1], *_svg_words(shown["chart"]))
        assert english not in shown["table"]["columns"][0].split(" \\ ")
    for field in ("section", "caption"):
        assert shown[field] != en[field] or page_text("causal-mask", "en").title == page_text("causal-mask", lang).title
    assert shown["table"]["caption"] != en["table"]["caption"]
    assert set(_svg_words(en["chart"])) != set(_svg_words(shown["chart"]))
    if decimal_comma(lang):  # the chart's numbers as this language writes them, as the app's chart does
        assert "0,4656" in _svg_words(shown["chart"]) and "0,4656" in shown["table"]["rows"][1]
    assert shown["explore"].endswith(f"&lang={lang}&room={ROOM}&away=1")


@pytest.mark.parametrize("lang", LANGS)
def test_the_question_put_to_the_class_is_worded_in_the_students_language_and_a_deck_without_picture_has_its_line(lang):
    fields = {"q": 2, "token": "journey", "first": "Your"}
    asked = Poll(1, 5, "one-query", "score", fields=tuple(fields.items()))
    deck = replace(Deck.of(5, 5, book_matrix(), {}, None, None, 50), poll=asked)
    shown = render.view(deck.to_json(), 2, lang, ROOM)
    prompt = page_text("one-query", lang).questions["score"]("prompt", **fields)
    assert shown["poll"] == {"number": 1, "prompt": prompt, "revealed": False, "kind": "number", "options": [],
                             "label": app_text("your_answer", lang),
                             "placeholder": app_text("placeholder_number", lang)}
    assert shown["picture"] is False and shown["chart"] is None and shown["tensor"] is None
    assert shown["section"] == page_text("one-query", lang).title and shown["index"] == 5

    broken = replace(deck, poll=replace(asked, fields=()))  # fields that do not fill the prompt: no question shown
    assert render.view(broken.to_json(), 3, lang, ROOM)["poll"] is None


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_choice_polls_view_names_its_options_and_never_carries_the_answer(lang):
    from ui.lecture.right import Right

    labels = (("0", "x(1) “Your”"), ("1", "x(2) “journey”"))
    asked = Poll(1, 5, "one-query", "top_key", fields=(("q", 2), ("token", "journey")), options=("0", "1"),
                 labels=labels)
    deck = replace(Deck.of(5, 5, book_matrix(), {}, None, None, 50), poll=asked)
    shown = render.view(deck.to_json(), 4, lang, ROOM)["poll"]
    assert shown["kind"] == "choice" and shown["placeholder"] == app_text("choose", lang)
    assert shown["options"] == [{"value": "0", "label": "x(1) “Your”"}, {"value": "1", "label": "x(2) “journey”"}]
    revealed = replace(deck, poll=replace(asked, revealed=True, right=Right("1", (("self", "1"),))))
    view = render.view(revealed.to_json(), 5, lang, ROOM)
    assert view["poll"]["revealed"] is True and "right" not in json.dumps(view)


@pytest.mark.parametrize("lang", LANGS)
def test_the_speaker_note_reaches_the_class_only_when_shared_and_never_under_an_open_question(lang):
    step = load_bundled().steps[5]
    deck = Deck.of(5, 5, book_matrix(), {}, None, None, 50)
    assert render.view(deck.to_json(), 2, lang, ROOM)["note"] is None  # the lecturer's own
    shared = replace(deck, notes_shared=True)
    assert render.view(shared.to_json(), 3, lang, ROOM)["note"] == translate(step.note, lang, WALK_CONTEXT)
    asked = replace(shared, poll=Poll(1, 5, "one-query", "score",
                                      fields=(("q", 2), ("token", "journey"), ("first", "Your"))))
    assert render.view(asked.to_json(), 4, lang, ROOM)["note"] is None  # it could answer the question


def _bars_deck() -> str:
    """3.3.1's softmax weights of "journey", a bar per key, as the projection would publish them (step 6)."""
    trace = simple_attention_for_query(book_inputs(), 1)
    picture = picture_of("one-query", "weights_softmax", 5, len(load_bundled().steps), trace, "weights_softmax",
                         TOKENS, None)
    assert picture is not None
    return replace(Deck.of(5, 5, book_matrix(), {}, None, None, 50), shown=True, picture=picture).to_json()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_bar_charts_values_stand_apart_and_its_axis_title_reads_across_on_a_light_page(lang):
    """Each bar's value (four decimals) has room above its bar, and the value axis's title is not turned on its side
    (a Korean word turned by 90 degrees lies on its back)."""
    svg = render.view(_bars_deck(), 9, lang, ROOM)["chart"]
    labels = re.findall(r'<text text-anchor="middle" transform="translate\(([\d.]+),[\d.-]+\)"[^>]*'
                        r'font-size="([\d.]+)px"[^>]*>(\d\.\d{4})</text>', svg)
    assert [v for *_, v in labels] == ["0.1385", "0.2379", "0.2333", "0.1240", "0.1082", "0.1581"]
    for (x1, size, v1), (x2, _, v2) in zip(labels, labels[1:], strict=False):
        half_widths = 0.6 * float(size) * (len(v1) + len(v2)) / 2  # a digit is about 0.55 em in a sans-serif
        assert float(x2) - float(x1) >= half_widths, (v1, v2)
    with speaking(lang):
        title = app_text("axis_value")
    [turned] = re.findall(r'<text[^>]*transform="([^"]*)"[^>]*>' + re.escape(title) + "</text>", svg)
    assert "rotate" not in turned
