"""A projected step travels in the room as a Picture, and the server words it per language (ui/follow)."""

from __future__ import annotations

import pytest

from tests.apptest import printed_tensors
from tests.lecture_apptest import lecture, press_next
from ui.follow import render
from ui.lecture import store
from ui.lecture.deck import Deck
from ui.lecture.walkthrough import load_bundled


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
        shown = render.view(document, version, "en")
        assert shown["picture"] is True
        assert printed_tensors(projection) == [shown["tensor"]]
        if walk == first:
            press_next(projection)
