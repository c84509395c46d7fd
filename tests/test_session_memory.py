"""What a learner's session keeps between runs: nothing that holds a run's results.

A hosted demo holds every learner's session in one process. A page object refers to everything the page computed
(at GPT-2's size, 12 heads of 1024 x 1024 weights: 80 MB), so a widget callback that captured it kept a whole run's
results alive for the life of the session; `make bench-latency` measured 112 MB a session.
"""

from __future__ import annotations

import gc

from tests.apptest import open_page
from ui.inputs.matrix import random_matrix
from ui.keys import Key
from ui.page import Page
from ui.sharing.codec import encode_state


def _pages_alive() -> set[int]:
    gc.collect()
    return {id(o) for o in gc.get_objects() if isinstance(o, Page)}


def test_a_session_on_a_large_input_keeps_nothing_of_its_run():
    """300 tokens of 300 dims: a small input (90,000 numbers) whose 12 heads' weights are large (1,080,000). The
    session keeps no page object (a last good computation's closure holds the page's script, and with it the
    page) and no live state for the questions."""
    before = _pages_alive()
    link, _ = encode_state(random_matrix(300, 300, 0), {"weight-splits": {"d_out": 300, "num_heads": 12}})
    at = open_page("weight-splits", params={"s": link})
    assert not at.exception
    assert "300" in [str(n.value) for n in at.sidebar.number_input]  # the page ran on the link's matrix
    assert _pages_alive() - before == set(), "a callback or the session state still refers to the page"
    assert at.session_state[Key.LIVE] == ("weight-splits", None)


def test_a_book_sized_page_keeps_its_live_state_for_the_class_poll():
    at = open_page("weight-splits")
    assert not at.exception
    page_id, live = at.session_state[Key.LIVE]
    assert page_id == "weight-splits" and live is not None and tuple(live.inputs.shape) == (6, 3)


def test_a_page_whose_second_computation_is_large_keeps_neither():
    """3.1 computes twice: the RNN, then self-attention. At 400 tokens of 250 dims (100,000 numbers, the most a page
    keeps a last good computation for) the RNN's steps are 113,632 numbers and attention's 520,000: the RNN's last
    good computation, kept at first, goes, since its closure holds the page's script, where attention lands too."""
    before = _pages_alive()
    link, _ = encode_state(random_matrix(400, 250, 0), {"long-sequences": {"hidden": 32}})
    at = open_page("long-sequences", params={"s": link})
    assert not at.exception
    assert _pages_alive() - before == set(), "a last good computation still holds the page"
