"""The projection and the presenter console: the deck they share, and two sessions in step.

Plain Python for the deck (the room store has its own tests: tests/test_rooms.py); AppTest for two
sessions of one process (the projection and its console), which share the process's rooms as two
browser windows would.
Browser tests (tests/browser/test_projection.py) check the same in Chromium, with timings.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import APP, BY_ID, printed_tensors
from tests.lecture_apptest import open_console, step_on, texts, token_of, walk_app, walk_select
from ui.inputs.matrix import book_matrix, random_matrix
from ui.lecture import store
from ui.lecture.deck import Deck, DeckError
from ui.lecture.walkthrough import encode, load_bundled
from ui.state import Key
from ui.words.content import page_text
from ui.words.i18n import LANGUAGES, WALK_CONTEXT, translate

# The room store itself (both stores, one contract): tests/test_rooms.py.


# ----- the deck ------------------------------------------------------------------------------------


def a_deck(**changes) -> Deck:
    deck = Deck.of(4, 4, book_matrix(), {"one-query": {"query": 2}}, None, 1_700_000_000.0, 45)
    return Deck(**{**deck.__dict__, **changes})


def test_a_deck_survives_its_json():
    deck = a_deck()
    assert Deck.from_json(deck.to_json()) == deck
    state = deck.state()
    assert state.matrix == book_matrix() and state.controls == {"one-query": {"query": 2}}
    big = Deck.of(0, None, random_matrix(200, 64, 5), {}, encode('[[step]]\npage = "one-query"\nstep = "scores"'),
                  None, 50)
    assert Deck.from_json(big.to_json()).state().matrix == random_matrix(200, 64, 5)  # travels as its recipe


def hostile_documents() -> list[str]:
    good = json.loads(a_deck().to_json())
    changed = [{**good, "position": -1}, {**good, "position": 10_000}, {**good, "position": True},
               {**good, "position": 1.5}, {**good, "arrived": "3"}, {**good, "budget_min": 0},
               {**good, "budget_min": 10_000}, {**good, "clock_start": "now"}, {**good, "clock_start": -5},
               {**good, "shared": "%%%"}, {**good, "shared": "A" * 50_000}, {**good, "walkthrough": 5},
               {**good, "walkthrough": "x" * 40_000}, {**good, "v": 2}, {**good, "extra": 1},
               {k: v for k, v in good.items() if k != "shared"}, {**good, "notes_shared": "yes"},
               {**good, "notes_shared": None}, {k: v for k, v in good.items() if k != "notes_shared"}]
    return [json.dumps(d) for d in changed] + ["", "[]", "{", '{"v": 1, "position": NaN}', "[" * 5000, "null"]


@pytest.mark.parametrize("document", hostile_documents())
def test_a_hostile_room_document_is_refused_with_a_reason(document):
    with pytest.raises(DeckError):
        Deck.from_json(document)


# ----- the projection and its console, two sessions of one process -----------------------------------


def projection_follows(projection: AppTest) -> None:
    """What the projection does when its listener heard the console move: one run of the projection."""
    projection.run()
    assert not projection.exception, projection.exception


def test_the_console_and_the_projection_move_together():
    projection = walk_app(lecture="1")
    token = token_of(projection)
    console = open_console(token)
    assert "console" not in console.query_params  # the token left the address
    walk = load_bundled()
    assert walk.steps[0].note in texts(console) and walk.steps[1].note in texts(console)  # this note, the next
    console.button(key="step_next:walk").click().run()
    assert step_on(console) == "2"
    projection_follows(projection)
    assert step_on(projection) == "2"
    projection.button(key="step_next:walk").click().run()  # the clicker in the projection's window
    assert step_on(projection) == "3"
    console.run()
    assert step_on(console) == "3" and walk.steps[2].note in texts(console)
    # The step list jumps: step 4, on another page.
    console.radio(key=f"{Key.CONSOLE_STEPS_PREFIX}2").set_value(3).run()  # one list per step: at step 3
    projection_follows(projection)
    assert step_on(projection) == "4" and page_text("one-query").title in texts(projection)


def test_a_control_changed_in_the_console_shows_on_the_projection():
    projection = walk_app(lecture="1", walk="4")
    console = open_console(token_of(projection))
    assert step_on(console) == "4"  # the console opens where the projection is
    before = printed_tensors(projection)
    walk_select(console, "one-query", "query").set_value(4).run()
    projection_follows(projection)
    assert walk_select(projection, "one-query", "query").value == 4
    after = printed_tensors(projection)
    assert after and after != before and after == printed_tensors(console)  # "one" asks now, on both screens


def test_a_token_opens_one_console_only():
    projection = walk_app(lecture="1")
    token = token_of(projection)
    open_console(token)
    second = AppTest.from_file(APP, default_timeout=120)
    second.query_params["console"] = token
    second.run()  # (a browser's first run is /walkthrough itself; AppTest's is the home page)
    assert any("has been used" in w.value for w in second.warning)
    assert "console" not in second.query_params and Key.ROOM not in second.session_state
    second.switch_page(BY_ID["walkthrough"].file).run()
    second.button(key="step_next:walk").click().run()  # it walks alone
    projection.run()
    assert step_on(projection) == "1"
    assert token_of(projection) != token  # the projection offers a fresh token for the next console


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_projection_never_shows_a_speaker_note(lang):
    projection = walk_app(lecture="1", lang=lang)
    walk = load_bundled()
    for k, step in enumerate(walk.steps):
        if k % 4 == 0 or k == len(walk.steps) - 1:  # a spread of steps over every page of the walkthrough
            projection.query_params["walk"] = str(k + 1)
            projection.session_state[Key.WALK_POSITION].position = k
            projection.run()
            assert not projection.exception
            shown = texts(projection)
            note = translate(step.note, lang, WALK_CONTEXT)
            assert note not in shown and step.note not in shown, (lang, k + 1)
            assert page_text(step.page, lang).title in shown  # the step's own page is on


def test_the_projection_folds_its_details_until_asked():
    projection = walk_app(lecture="1", walk="4")
    intro = page_text("one-query").intro
    assert intro not in texts(projection)
    projection.button(key=Key.DETAILS_BUTTON).click().run()
    assert intro in texts(projection)
    projection.button(key=Key.DETAILS_BUTTON).click().run()
    assert intro not in texts(projection)


def test_the_console_keeps_the_talks_clock_and_shares_it():
    projection = walk_app(lecture="1")
    console = open_console(token_of(projection))
    assert 'class="talk-clock"' not in texts(console)
    console.button(key=Key.CONSOLE_CLOCK).click().run()
    console.number_input(key=Key.CONSOLE_BUDGET).set_value(90).run()
    assert not console.exception and not console.error
    clock = texts(console)
    assert 'class="talk-clock"' in clock and 'data-budget="90"' in clock and "{minutes} min ahead" in clock
    projection_follows(projection)
    member = projection.session_state[Key.ROOM].record
    assert member.budget_min == 90 and member.clock_start is not None  # the deck carries the clock


def test_a_matrix_loaded_in_the_console_shows_on_the_projection():
    projection = walk_app(lecture="1", walk="9")
    console = open_console(token_of(projection))
    loaded = random_matrix(5, 4, 7)
    console.session_state[Key.MATRIX] = loaded  # as the sidebar's editor leaves it (tested on its own elsewhere)
    console.run()
    projection_follows(projection)
    assert projection.session_state[Key.MATRIX] == loaded
    assert not projection.exception and step_on(projection) == "9"


def test_the_projections_stale_echo_of_a_control_does_not_undo_the_consoles_change():
    """The projection takes the console's new query. Its browser, which has not drawn that run yet, asks for its
    next run (a timed fragment) with the widget's old value: that is no change made on the projection, and the
    console's choice stands on both screens."""
    projection = walk_app(lecture="1", walk="4")
    console = open_console(token_of(projection))
    console.run()
    drawn = walk_select(projection, "one-query", "query")  # the widget the projection's browser still has
    assert drawn.value == 1
    walk_select(console, "one-query", "query").set_value(4).run()
    projection_follows(projection)
    taken = walk_select(projection, "one-query", "query")
    assert taken.value == 4
    taken.id = drawn.id  # the browser's request: the old widget, at its old value
    taken.set_value(1).run()
    console.run()
    assert walk_select(projection, "one-query", "query").value == 4
    assert walk_select(console, "one-query", "query").value == 4
    assert printed_tensors(projection) == printed_tensors(console)


def test_a_console_move_made_before_it_saw_the_projections_last_word_is_kept():
    """The projection tells the room when it has drawn a step (a new version of the same deck). A console
    that moves before its poll saw that version must keep its own move, not take the room's older step."""
    projection = walk_app(lecture="1", walk="4")
    console = open_console(token_of(projection))
    console.button(key="step_next:walk").click().run()
    projection_follows(projection)  # it draws step 5 and says so: a version the console has not seen
    assert step_on(projection) == "5"
    console.button(key="step_next:walk").click().run()  # the lecturer presses again at once
    assert step_on(console) == "6"
    projection_follows(projection)
    assert step_on(projection) == "6"


def test_a_window_that_has_not_seen_anothers_move_never_undoes_it():
    """The projection holds a change of its own it has not sent (here a matrix; in a browser, a step's
    own control values it took after the page ran) when the console moves on. Its next publish is over a
    version it has not seen: the store refuses it (compare and set), and the projection merges instead.
    Before, it sent its whole deck and put the console's step back (a clicker press lost in CI)."""
    projection = walk_app(lecture="1", walk="4")
    console = open_console(token_of(projection))
    console.run()
    loaded = random_matrix(6, 3, 11)
    projection.session_state[Key.MATRIX] = loaded  # the projection's own change, not yet published...
    console.button(key="step_next:walk").click().run()  # ...when the console moves to step 5
    assert step_on(console) == "5"
    projection_follows(projection)  # publishes first, then follows: both changes are kept
    assert step_on(projection) == "5" and projection.session_state[Key.MATRIX] == loaded
    console.run()  # the console's poll takes the merged deck
    assert step_on(console) == "5" and console.session_state[Key.MATRIX] == loaded


def test_a_console_whose_publish_is_refused_runs_again_and_publishes_its_move(monkeypatch):
    """Publishes are compare-and-set. Here the projection publishes just after the console looked at the room, twice,
    so both the console's publishes of its PageDown in that run (before its page, and after it) are refused by the
    store. Nothing else would run the console again (its listener hears no news of its own, nor a deck only marked
    as drawn), so a refusal reruns it at once: that run merges and publishes, and the projection moves."""
    projection = walk_app(lecture="1", walk="4")
    console = open_console(token_of(projection))
    console.run()
    lecturer = projection.session_state[Key.ROOM].record
    rooms = store.rooms()
    publish, raced = rooms.publish, []

    def publish_after_the_projection(room, secret, document, expected=None):
        if secret != lecturer.secret and len(raced) < 2:  # the console's first two: the projection's come first
            version, current = rooms.read(room)
            raced.append(publish(room, lecturer.secret, current, expected=version))
        return publish(room, secret, document, expected=expected)

    monkeypatch.setattr(rooms, "publish", publish_after_the_projection)
    console.button(key="step_next:walk").click().run()
    assert len(raced) == 2 and None not in raced  # the projection's publishes went first: the console's refused
    assert step_on(console) == "5"
    assert Deck.from_json(rooms.read(lecturer.room)[1]).position == 4  # step 5 is the fifth: index 4
    projection_follows(projection)
    assert step_on(projection) == "5"


def test_a_merge_keeps_each_windows_own_changes_and_theirs_wins_where_both_changed():
    base = a_deck()
    mine = a_deck(position=4, arrived=4, budget_min=90)  # this window changed the talk's length
    theirs = a_deck(position=5, arrived=4)  # the other moved a step
    merged = mine.merged(base, theirs)
    assert (merged.position, merged.budget_min) == (5, 90)
    both = a_deck(position=6, arrived=6).merged(base, theirs)  # both moved: the published move stands
    assert both.position == 5 and both.arrived == 4
    assert a_deck(position=6).merged(None, theirs) == theirs  # a window that never saw the room takes it
    assert base.merged(base, theirs) == theirs  # nothing of its own: theirs, whole


def test_the_other_windows_echo_of_a_step_does_not_undo_a_press_made_meanwhile():
    """The console drew the step the projection published and published it again, its controls now applied
    (arrived); the projection's next PageDown, taken meanwhile, stands (a lost press in CI)."""
    base = a_deck(position=11, arrived=10)  # the projection's own publish: step 12, not yet drawn
    echo = a_deck(position=11, arrived=11)  # the console drew it
    pressed = a_deck(position=12, arrived=11)  # the projection drew it too, then took the next press
    merged = pressed.merged(base, echo)
    assert (merged.position, merged.arrived) == (12, 11)
    assert a_deck(position=11, arrived=11).merged(base, echo) == echo  # nothing moved: the echo, whole


def test_each_step_shown_takes_its_full_set_of_values_and_the_console_says_when_they_differ():
    """A change the lecturer makes on a step stays on that step, and the console says the numbers now differ
    from the walkthrough's (one click puts them back); leaving the step and coming back shows the walkthrough's
    values again: nothing carries over to a later step (the drift of the lecturer's report, finding 3)."""
    projection = walk_app(lecture="1", walk="5")
    console = open_console(token_of(projection))
    fresh = {k: printed_tensors(walk_app(walk=str(k))) for k in (5, 6)}
    assert printed_tensors(console) == fresh[5] and "The live values are not" not in texts(console)
    walk_select(console, "one-query", "query").set_value(0).run()  # the lecturer asks for "Your"
    assert printed_tensors(console) != fresh[5]
    said = texts(console)
    assert "The live values are not the walkthrough's" in said and "is x(1) “Your” (the walkthrough's: x(2)" in said
    console.button(key=Key.CONSOLE_DRIFT_RESET).click().run()  # one click back
    assert printed_tensors(console) == fresh[5] and "The live values are not" not in texts(console)
    walk_select(console, "one-query", "query").set_value(0).run()
    console.button(key="step_next:walk").click().run()  # the next step, on the same page
    projection_follows(projection)
    assert printed_tensors(console) == fresh[6] == printed_tensors(projection)
    assert "The live values are not" not in texts(console)



def test_the_walkthroughs_buttons_keep_their_keys_when_the_lecture_enters_another_section():
    """The walkthrough's Back and Next keep one key on every page: a button keyed by its section was unmounted and
    mounted again at each new section, and a press sent meanwhile was lost (CI). Its PageDown and PageUp are no
    buttons at all: the clicker keeps them as state (ui/steps/clicker.py; tests/test_clicker.py)."""
    at = walk_app(walk="7")  # the last step of 3.3.1
    keys = {b.key for b in at.button if (b.key or "").startswith("step_")}
    at.button(key="step_next:walk").click().run()
    assert step_on(at) == "8" and page_text("all-queries").title in texts(at)  # 3.3.2 now
    assert {b.key for b in at.button if (b.key or "").startswith("step_")} == keys \
        == {"step_back:walk", "step_next:walk"}
