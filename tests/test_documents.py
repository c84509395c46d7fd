"""The room's documents as types (ui/lecture/documents.py): each structure refuses a document of the wrong shape with
the project's own error and message, a bad case each here, and 200 random hostile documents each.

The structures: a deck, its poll, its spotlight, the picture of the projected step, a student's exploration, an
entry of the lesson record, a row of the rooms' file and a light page's answer. A hostile document is any JSON value,
a good document with one field replaced by any JSON value (or left out, or one added), or text that is not JSON at
all. Each is either a document the app can use, or refused with the error its reader raises, with a message; nothing
else escapes (no KeyError, no TypeError, no RecursionError).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import asdict, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from attention.causal import causal_attention_step_by_step
from attention.data import book_inputs
from ui.follow import answer as follow_answer
from ui.follow.answer import AnswerSent, Refused
from ui.inputs.matrix import book_matrix
from ui.lecture import lesson
from ui.lecture.deck import Deck, DeckError, Poll
from ui.lecture.documents import Mismatch, encode
from ui.lecture.explorations import MAX_NOTE, Exploration, ExplorationError, Spotlight
from ui.lecture.lesson import ExplorationEntry, PollEntry, entry_of, lesson_csv
from ui.lecture.picture import Picture, PictureError, picture_of
from ui.lecture.sqlite_rows import COLUMNS, room_of

EXPLORATION = Exploration.of("causal-mask", "weights", book_matrix(), {"seed": 5}, "a note",
                             ((0.5, None), (0.25, 0.75)), True)
POLL = Poll(1, 18, "one-query", "score", fields=(("q", 2), ("token", "journey"), ("first", "Your")))
DECK = replace(Deck.of(18, 18, book_matrix(), {}, None, None, 50), poll=POLL,
               spotlight=Spotlight.of(3, 2, 18, EXPLORATION))
PICTURE = picture_of("causal-mask", "masked_scores", 18, 33, causal_attention_step_by_step(book_inputs()),
                     "masked_scores", ["Your", "journey", "starts", "with", "one", "step"], None)
GOOD_DECK = json.loads(DECK.to_json())
GOOD_PICTURE = json.loads(json.dumps(PICTURE.to_data()))
GOOD_EXPLORATION = json.loads(EXPLORATION.to_json())
GOOD_ENTRY = json.loads(encode(ExplorationEntry(1, 19, "causal-mask", "weights", 2, "a note", "abc")))
GOOD_ROW = {"id": "r" * 12, "drivers": b"\x01" * 32, "document": "{}", "version": 1, "touched": 0.0, "token": None,
            "token_until": 0.0, "poll": 0, "taking": 0, "answers": "{}", "taken": 1, "senders": '{"ssssssssssss":1}',
            "sent": '[[1,1,"{}"]]', "record": '["poll,1"]'}
GOOD_ANSWER = {"poll": 1, "text": "0.95"}


# ----- a bad case for each structure -------------------------------------------------------------------------------

def test_the_good_documents_are_read_back_as_they_were_written():
    assert Deck.from_json(DECK.to_json()) == DECK
    assert Deck.from_json(replace(DECK, picture=PICTURE).to_json()).picture == PICTURE
    assert Deck.from_json(replace(DECK, by="w1-_Zq", unchanged=True).to_json()).by == "w1-_Zq"
    assert Deck.from_json(replace(DECK, unchanged=True).to_json()).unchanged
    assert Exploration.from_json(EXPLORATION.to_json()) == EXPLORATION
    assert entry_of(json.dumps(GOOD_ENTRY)) == ExplorationEntry(1, 19, "causal-mask", "weights", 2, "a note", "abc")
    assert room_of(row(GOOD_ROW), 10.0).senders == {"s" * 12: 1}
    assert answer_body(json.dumps(GOOD_ANSWER)) == AnswerSent(1, "0.95")


def test_a_deck_whose_clock_is_true_is_refused_as_no_time():
    with pytest.raises(DeckError, match="clock is not a time"):
        Deck.from_json(json.dumps({**GOOD_DECK, "clock_start": True}))


def test_a_deck_whose_publisher_is_no_token_is_refused_and_one_without_a_publisher_is_read():
    for by in ("x" * 17, "a b", "<script>", 5, True):
        with pytest.raises(DeckError, match="shared state is damaged"):
            Deck.from_json(json.dumps({**GOOD_DECK, "by": by}))
    with pytest.raises(DeckError, match="shared state is damaged"):
        Deck.from_json(json.dumps({**GOOD_DECK, "unchanged": 1}))
    assert Deck.from_json(json.dumps({k: v for k, v in GOOD_DECK.items() if k != "by"})).by is None


def test_a_poll_with_a_prompt_value_that_is_not_finite_or_too_many_options_is_refused():
    for poll in ({**GOOD_DECK["poll"], "fields": [["q", 1e400]]}, {**GOOD_DECK["poll"], "options": ["0"] * 65}):
        with pytest.raises(DeckError, match="question is too large or damaged"):
            Deck.from_json(json.dumps({**GOOD_DECK, "poll": poll}))


def test_a_spotlight_whose_note_is_over_its_cap_is_refused():
    spotlight = {**GOOD_DECK["spotlight"], "note": "x" * (MAX_NOTE + 1)}
    with pytest.raises(DeckError, match="exploration on the projector is damaged"):
        Deck.from_json(json.dumps({**GOOD_DECK, "spotlight": spotlight}))


def test_a_projected_steps_picture_whose_hidden_cells_are_true_or_whose_int_overflows_int64_is_refused():
    for change in ({"hidden": [True] * 36}, {"dtype": "int64", "values": [2**63] * 36}):
        with pytest.raises(PictureError):
            Picture.from_data({**GOOD_PICTURE, **change})
    with pytest.raises(DeckError, match="projected step is damaged"):
        Deck.from_json(json.dumps({**GOOD_DECK, "picture": {**GOOD_PICTURE, "hidden": [True] * 36}}))


def test_an_exploration_whose_picture_holds_true_for_a_number_is_refused_with_the_pictures_message():
    with pytest.raises(ExplorationError, match="picture is damaged"):
        Exploration.from_json(json.dumps({**GOOD_EXPLORATION, "preview": [[True]]}))


def test_a_lesson_record_entry_with_a_count_as_text_is_skipped_and_logged(caplog):
    poll = PollEntry(1, 6, "one-query", "What is ω(2,1)?", "0.9544", 3, 2, [("0.9544", 2, True, None)], [])
    forged = {**json.loads(encode(poll)), "total": "3"}
    with caplog.at_level(logging.WARNING, logger="attention_app"):
        rows = lesson_csv([encode(poll), json.dumps(forged)]).splitlines()
    assert len(rows) == 1 + 3 and "could not be read" in caplog.text  # the header and the good entry's three rows


def test_an_entry_whose_prompt_holds_a_lone_surrogate_is_written_and_read_back():
    """A token's name may hold one (a link carries any text), and it is in the poll's prompt."""
    poll = PollEntry(1, 6, "one-query", "ω(2,1) of \ud800?", "0.9544", 1, 1, [("0.9544", 1, True, None)], [])
    assert entry_of(encode(poll)) == poll


def test_a_row_whose_senders_number_is_a_float_is_no_room():
    assert room_of(row({**GOOD_ROW, "senders": '{"ssssssssssss":1.0}'}), 10.0) is None


def test_an_answer_whose_poll_is_true_is_refused_with_the_pages_message():
    with pytest.raises(Refused) as refused:
        answer_body(json.dumps({"poll": True, "text": "1"}))
    assert refused.value.status == 400 and refused.value.message


# ----- 200 hostile documents each ------------------------------------------------------------------------------------

# any character, a lone surrogate too (a token's name may hold one, and Python's json writes it)
TEXT = st.text(st.characters(exclude_categories=()), max_size=20)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner,
                                                                                max_size=4), max_leaves=12)


def hostile(good: dict) -> st.SearchStrategy[str]:
    """Any JSON value; the good document with one field replaced, left out or added; text that is not JSON."""
    replaced = st.builds(lambda k, v: {**good, k: v}, st.sampled_from(sorted(good)), JSON)
    left_out = st.sampled_from(sorted(good)).map(lambda k: {n: v for n, v in good.items() if n != k})
    added = st.builds(lambda k, v: {**good, k: v}, TEXT.filter(lambda k: k not in good),
                      JSON)
    documents = st.one_of(JSON, replaced, left_out, added)
    as_json = st.builds(lambda d, ascii_only: json.dumps(d, allow_nan=True, ensure_ascii=ascii_only), documents,
                        st.booleans())
    return st.one_of(as_json, as_json, TEXT, st.just("[" * 50_000))


def in_deck(field: str) -> st.SearchStrategy[str]:
    """A good deck with its ``field`` (the poll, the spotlight) hostile."""
    return hostile(GOOD_DECK[field]).map(lambda part: json.dumps({**GOOD_DECK, field: _loaded(part)}))


def _loaded(text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text  # not JSON: it stands in the deck as a text


def refused_or_read(read, error: type[Exception], document) -> None:
    try:
        read(document)
    except error as exc:
        assert str(exc), "a refusal says why"


@settings(max_examples=200)
@given(hostile(GOOD_DECK))
def test_a_hostile_deck_is_refused_with_a_deck_error(document):
    refused_or_read(Deck.from_json, DeckError, document)


@settings(max_examples=200)
@given(in_deck("poll"))
def test_a_hostile_poll_is_refused_with_a_deck_error(document):
    refused_or_read(Deck.from_json, DeckError, document)


@settings(max_examples=200)
@given(in_deck("spotlight"))
def test_a_hostile_spotlight_is_refused_with_a_deck_error(document):
    refused_or_read(Deck.from_json, DeckError, document)


@settings(max_examples=200)
@given(hostile(GOOD_PICTURE))
def test_a_hostile_picture_is_refused_with_a_picture_error(document):
    refused_or_read(lambda text: Picture.from_data(_loaded(text)), PictureError, document)


@settings(max_examples=200)
@given(hostile(GOOD_EXPLORATION))
def test_a_hostile_exploration_is_refused_with_an_exploration_error(document):
    refused_or_read(Exploration.from_json, ExplorationError, document)


@settings(max_examples=200)
@given(hostile(GOOD_ENTRY))
def test_a_hostile_lesson_record_entry_is_refused_and_the_record_still_reads(document):
    refused_or_read(entry_of, Mismatch, document)
    assert lesson_csv([document]).startswith(",".join(lesson.COLUMNS))


@settings(max_examples=200)
@given(st.sampled_from(sorted(GOOD_ROW)), JSON | st.binary(max_size=40) | st.text(max_size=40))
def test_a_hostile_row_of_the_rooms_file_is_no_room(column, value):
    found = room_of(row({**GOOD_ROW, column: value}), 10.0)  # a room, or None: never an exception
    assert found is None or asdict(found)


@settings(max_examples=200)
@given(hostile(GOOD_ANSWER))
def test_a_hostile_answer_is_refused_with_the_pages_message(document):
    refused_or_read(answer_body, Refused, document)


# ----- helpers -----------------------------------------------------------------------------------------------------

def row(values: dict) -> tuple:
    return tuple(values[name] for name in COLUMNS.split(", "))


def answer_body(body: str) -> AnswerSent:
    """What the answer route reads of a JSON request's body (its own function, on a request built here)."""
    data = body.encode("utf-8", "surrogatepass")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]

    async def receive() -> dict:
        return {"type": "http.request", "body": data, "more_body": False}

    request = Request({"type": "http", "method": "POST", "headers": headers}, receive)
    return asyncio.run(follow_answer._body(request, "en"))
