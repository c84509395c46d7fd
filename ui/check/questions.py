"""Check yourself: every section's questions, each answer computed from the page's live result.

A page hands its typed result (a Trace, or a record such as ``HeadsResult``) and the
settings it used to :func:`ui.check.panel.check_yourself`, as a :class:`Live`. Each
:class:`Question` has one short function from that ``Live`` to an :class:`Answer`: the
right value, the values to fill its words with, and the values that known mistakes give
(unscaled instead of scaled, row instead of column...). Nothing here is hard-coded: edit the
matrix or a control and every answer follows. Plain Python (no Streamlit); the words live in
the pages' content files as ``[questions.<id>]`` tables (``prompt``, ``feedback_<mistake>``,
``option_<id>``, ``unavailable_<reason>``, ``reveal_title``, ``tolerance``).

Kinds: ``number`` (checked to the content's tolerance), ``choice`` (pick one), ``shape``,
``predict`` (pick one; the page's hidden result is drawn beside the guess once committed),
``task`` (the learner sets the page's controls; the live module is checked) and ``mapping``
(Exercise 3.1: how each of v2's weights goes into v1; v1 is built that way and run).

The questions live beside this module, by section (self_attention.py: 3.1 to 3.4; causal_and_heads.py: 3.5 and
3.6), what a question is in question_types.py and how an answer is judged in judging.py; this module gathers the
registry, in the chapter's order, and the names the panel and the lecture's polls use.
"""

from __future__ import annotations

from .causal_and_heads import CAUSAL_AND_HEADS
from .judging import answer_for, judge, shown_answer, signature
from .question_types import (
    CHOICE,
    GENERIC,
    KINDS,
    MAPPING,
    NUMBER,
    PREDICT,
    ROLES,
    SHAPE,
    TASK,
    Answer,
    Live,
    Question,
    Unavailable,
    Verdict,
)
from .self_attention import SELF_ATTENTION

__all__ = [
    "KINDS", "QUESTIONS", "ROLES", "Answer", "Live", "Question", "Unavailable", "Verdict", "answer_for", "completed",
    "judge", "shown_answer", "signature",
    "CHOICE", "GENERIC", "MAPPING", "NUMBER", "PREDICT", "SHAPE", "TASK",
]

# ----- the registry: page id -> its questions, in order -------------------------------------------------------

QUESTIONS: dict[str, tuple[Question, ...]] = {**SELF_ATTENTION, **CAUSAL_AND_HEADS}


def completed(page_id: str, done: set[str] | frozenset[str]) -> bool:
    """Whether every question of a page (that has questions) was answered correctly at least once."""
    questions = QUESTIONS.get(page_id, ())
    return bool(questions) and all(q.id in done for q in questions)
