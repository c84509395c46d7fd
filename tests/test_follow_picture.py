"""A projected step as data a room carries (ui/lecture/picture.py), and the deck that carries it (deck.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import torch

from attention import Trace
from attention.causal import causal_attention_step_by_step
from attention.data import book_inputs
from ui.draw.printed import tensor_text
from ui.inputs.matrix import book_matrix
from ui.lecture.deck import Deck, DeckError
from ui.lecture.explorations import Spotlight
from ui.lecture.picture import MAX_VALUES, Picture, PictureError, picture_of
from ui.lecture.state import picture_for

TOKENS = ["Your", "journey", "starts", "with", "one", "step"]
TRACE = causal_attention_step_by_step(book_inputs())


def _picture(step: str = "masked_scores", at: int = 20) -> Picture:
    found = picture_of("causal-mask", step, at, 33, TRACE, step, TOKENS, None)
    assert found is not None
    return found


def _through_json(data: dict) -> dict:
    return json.loads(json.dumps(data, allow_nan=False))


@pytest.mark.parametrize("step", ["scores", "masked_scores", "masked_weights", "mask", "context"])
def test_a_picture_reads_back_as_itself_and_its_tensor_prints_as_the_projections(step):
    picture = _picture(step)
    again = Picture.from_data(_through_json(picture.to_data()))
    assert again == picture
    assert torch.equal(again.tensor(), TRACE[step]) or again.tensor().dtype == torch.bool
    assert tensor_text(again.tensor()) == tensor_text(TRACE[step])  # -inf and all: the same text
    assert again.size() <= 1_000  # the book's matrix: a small part of a room's document


def test_the_masked_scores_carry_their_hidden_cells_and_the_code_that_computed_them():
    picture = _picture("masked_scores")
    assert picture.hidden is not None and sum(picture.hidden) == 15  # six causal tokens hide 15 cells
    assert picture.dims == ("query", "key") and picture.shape == (6, 6) and picture.code and picture.qualname
    assert "-inf" in json.dumps(picture.to_data())


HOSTILE = [
    {"values": [True] * 36}, {"values": ["1e999"] + [0.0] * 35}, {"values": [1e400] * 36}, {"values": [0.0] * 35},
    {"values": [0.0] * (MAX_VALUES + 1)}, {"shape": [6, -6]}, {"shape": [6, 6, 1]}, {"dims": ["query", 7]},
    {"dtype": "complex64"}, {"index": 33}, {"index": True}, {"total": -1}, {"hidden": [1] * 35},
    {"hidden": ["yes"] * 36}, {"rows": ["x" * 500]}, {"code": "x" * 50_000}, {"page": ""}, {"name": None},
    {"keys": "Your"}, {"extra": 1}, {"page": "../../etc/passwd"},
]


@pytest.mark.parametrize("change", HOSTILE)
def test_a_damaged_or_hostile_picture_is_refused(change):
    data = {**_through_json(_picture().to_data()), **change}
    with pytest.raises(PictureError):
        Picture.from_data(data)


def test_a_picture_too_large_for_a_room_is_not_made():
    trace = Trace()
    trace.add("values", torch.randn(70, 60), ("token", "d_out"))
    assert picture_of("causal-mask", "values", 0, 33, trace, "values", [str(i) for i in range(70)], None) is None
    with pytest.raises(PictureError):
        Picture.from_data({**_through_json(_picture().to_data()), "values": [0.12345678901] * 2_025,
                           "shape": [45, 45], "hidden": None})


def _deck(position: int = 20) -> Deck:
    return Deck.of(position, position, book_matrix(), {}, None, None, 50)


def test_a_deck_carries_its_picture_and_is_written_as_before_without_one():
    plain = _deck()
    assert "picture" not in json.loads(plain.to_json())
    pictured = replace(plain, shown=True, picture=_picture())
    again = Deck.from_json(pictured.to_json())
    assert again.picture == pictured.picture and again == plain  # a mark of the publish, not part of the deck
    assert Deck.from_json(plain.to_json()).picture is None


def test_a_deck_whose_picture_is_damaged_or_of_another_step_is_refused():
    data = json.loads(replace(_deck(), picture=_picture()).to_json())
    for picture in ({**data["picture"], "values": "none"}, {**data["picture"], "index": 3}):
        with pytest.raises(DeckError):
            Deck.from_json(json.dumps({**data, "picture": picture}))


def test_a_merged_deck_never_carries_the_other_windows_picture():
    """A console's publish is merged with the projection's newer deck: its picture was of the projection's draw."""
    base, theirs = _deck(), replace(_deck(), shown=True, picture=_picture())
    mine = replace(base, notes_shared=True)
    assert mine.merged(base, theirs).picture is None and mine.merged(None, theirs).picture is None
    assert mine.merged(base, theirs).notes_shared


def test_a_publish_that_changes_nothing_drawn_carries_the_rooms_picture_on():
    """The console asks a poll, starts the clock or shares its notes on the step the projection drew: its publish
    carries the room's picture on, or the class's pages would lose the step's numbers until the projection's next
    full run. A move, another matrix or an exploration put on the projector is drawn anew: no picture carried."""
    last = replace(_deck(), shown=True, picture=_picture())
    asked = replace(_deck(), notes_shared=True, clock_start=5.0)
    assert picture_for(asked, None, False, last) == last.picture
    assert picture_for(_deck(21), None, False, replace(last, position=21)) is None  # the picture is of step 20
    assert picture_for(_deck(21), None, False, last) is None
    assert picture_for(replace(asked, shared=last.shared + "x"), None, False, last) is None
    spot = Spotlight(1, 1, 20, "causal-mask", None, last.shared)
    assert picture_for(replace(asked, spotlight=spot), None, False, last) is None
    assert picture_for(asked, None, False, None) is None
    assert picture_for(asked, None, False, replace(last, picture=None)) is None
