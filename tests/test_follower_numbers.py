"""Every following student shows the projection's numbers, at every step of the walkthrough: its printed tensors, its
charts' cells (full-precision values, labels, masked cells) and the charts' screen-reader tables, compared exactly.

AppTest sessions of one process stand for the projection and the class (tests/lecture_apptest.py): followers of one
process share one computation and replay one drawing of each step (ui/page.py, ui/steps/stepper.py), the place
where a wrong number once slipped in (3.4.2's ``v1.context`` and ``v2.context`` shared a drawing). The same walk in
Chromium, on one server and on two replicas sharing Redis, is tests/browser/test_follower_numbers.py.
"""

from __future__ import annotations

from tests.apptest import BY_ID, printed_tensors, shown_numbers
from tests.lecture_apptest import (
    lecture,
    open_console,
    open_controls,
    poll,
    press_next,
    send,
    step_on,
    student,
    token_of,
)
from ui.lecture.walkthrough import load_bundled
from ui.state import Key
from ui.steps import stepper

STEPS = len(load_bundled().steps)


def same_numbers(projection, students, k: int) -> dict[str, list]:
    """Every student shows what the projection shows at step ``k``; what that is."""
    shown = shown_numbers(projection)
    assert shown["printed"], f"step {k}: the projection printed no tensor"
    for s in students:
        assert step_on(s) == str(k)
        assert shown_numbers(s) == shown, f"step {k}: a follower's numbers differ from the projection's"
    return shown


def fresh_drawings() -> None:
    """No drawing replayed from an earlier test: each test's class draws its own first."""
    stepper._shared_picture.clear()
    stepper._shared_words.clear()


def test_every_follower_shows_the_projections_numbers_at_all_33_steps():
    fresh_drawings()
    projection, room = lecture(walk="1")
    students = [student(room) for _ in range(2)]  # the second replays the first one's drawings
    seen = []
    for k in range(1, STEPS + 1):
        if k > 1:
            press_next(projection)
            for s in students:
                poll(s)
        seen.append(same_numbers(projection, students, k))
    assert sum(bool(s["charts"]) for s in seen) >= 20 and sum(bool(s["tables"]) for s in seen) >= 20
    # 3.4.2: v1's context vectors (seed 123), v2's (seed 789), and v1 given v2's weights, which agree with v2's
    v1, v2, v1_from_v2 = (seen[k - 1]["printed"] for k in (16, 17, 18))
    assert "0.2996" in v1[0] and "-0.0739" in v2[0] and v1_from_v2 == v2


def test_a_control_changed_mid_talk_reaches_every_follower_exactly():
    """The lecturer changes v2's seed on 3.4.2's v2 step (then the next step): the class shows the new numbers, and a
    student who joins after it draws the same."""
    fresh_drawings()
    projection, room = lecture(walk="17")
    early = student(room)
    same_numbers(projection, [early], 17)
    before = printed_tensors(projection)
    projection.number_input(key="walk:self-attention-classes:seed_v2").set_value(5).run()
    poll(early)
    assert printed_tensors(projection) != before
    late = student(room)
    same_numbers(projection, [early, late], 17)
    press_next(projection)
    for s in (early, late):
        poll(s)
    same_numbers(projection, [early, late], 18)


def test_a_projected_spotlight_shows_every_follower_the_projections_numbers():
    """A student explores 3.4.2 on their own seed and sends v2's context vectors; the console projects them: every
    follower shows the projection's numbers, which are the sender's."""
    fresh_drawings()
    projection, room = lecture(walk="16")
    token = token_of(projection)
    projection.button(key=Key.CONSOLE_OPENED).click().run()
    console = open_console(token)
    sender, watcher, other = student(room), student(room), student(room)
    open_controls(sender)
    sender.number_input(key="walk:self-attention-classes:seed_v2").set_value(42).run()
    sender.switch_page(BY_ID["self-attention-classes"].file).run()
    send(sender, "v2 on seed 42", step="v2.context")
    mine = printed_tensors(sender)
    console.run()
    console.button(key=f"{Key.SPOTLIGHT_PROJECT_PREFIX}1").click().run()
    assert not console.exception, console.exception
    for window in (projection, watcher, other):
        poll(window)
    shown = shown_numbers(projection)
    assert shown["printed"] and shown["printed"][0] in mine  # the sender's state, not the lecture's
    for s in (watcher, other):
        assert shown_numbers(s) == shown
