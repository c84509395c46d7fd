"""What a screen reader hears when the page changes: one polite live region per tab, fed by each run.

A page run notes what it shows, by kind (:func:`note`): the step on screen, the mask, the heads, the query's
weights, a question's feedback. At the run's end :func:`draw` compares with what the page
showed last and puts the sentences that changed in a hidden marker, with a count. ``ui/shell/page.js`` keeps one
``role="status"`` region in the document from the start (a region inserted already filled is seldom spoken), and
once the run has drawn, it speaks a marker whose count moved. A run longer than a moment says "Updating…" first.

A page's first run says nothing of its own: the new title and the focus on its heading say where the learner is.
"""

from __future__ import annotations

import re
from html import escape

import streamlit as st

from ..state import decimal_fields, helps
from ..words.content import app_text
from . import said
from . import state as say_state
from .said import dropout_sentence, heads_sentence, mask_sentence, step_sentence, weights_sentence

__all__ = ["begin", "draw", "dropout_sentence", "heads_sentence", "mask_sentence", "note", "note_result", "said",
           "step_sentence", "weights_sentence"]

ORDER = ("poll", "step", "mask", "dropout", "heads", "result")  # the order in which changes are said
CHECK = "check:"  # a question's verdict: its kind is "check:<question>#<press>" (ui/check/panel.py)

begin = say_state.begin
note = say_state.note
notice = say_state.notice


def note_result(result: object, labels: list[str], given: dict) -> None:
    """Note what a page's result shows: its mask, what dropout does (a page that gives ``training`` and ``p``; the
    shared dropout control says it itself, ui/page/controls.py) and where its query's weight goes."""
    if "training" in given:
        note("dropout", dropout_sentence(float(given.get("p", 0.0)), bool(given["training"])))
    for kind, sentence in (("mask", mask_sentence(result)), ("heads", heads_sentence(result, given)),
                           ("result", weights_sentence(result, labels, given))):
        if sentence:
            note(kind, sentence)


# The cell names are filled in the browser, from the grid's own cells: their templates keep their fields.
_SLOTS = {field: "{" + field + "}" for field in ("token", "column", "value")}


def draw(page_id: str) -> None:
    """The hidden marker page.js reads: the sentences that changed since this page's last run, and the word for a
    slow run, in the page's language."""
    now = say_state.noted()
    before = say_state.heard(page_id)
    say_state.set_heard(page_id, {**_verdicts_kept(before, now), **now})
    kinds = [*ORDER, *sorted(k for k in now if k not in ORDER)]  # then each question's feedback
    changed = [now[kind] for kind in kinds if kind in now and before is not None and before.get(kind) != now[kind]]
    if before is not None and "step" in before and "step" not in now:  # the whole page is back
        changed.insert(0, app_text("say_step_off"))
    changed[:0] = say_state.take_notices()  # what the page's notices say (inserted filled, they may not be heard)
    if changed:
        say_state.spoken(_plain(" ".join(changed)))
    data = {"n": say_state.count(), "page": page_id, "say": say_state.last_text(),
            "updating": app_text("say_updating"), "cell": app_text("a11y_cell_editor"),
            "grid": app_text("a11y_grid"), "cellname": app_text("a11y_cell_name", **_SLOTS),
            "cellof": app_text("a11y_cell_editor_of", **_SLOTS),
            "skip": app_text("a11y_skip_results"),
            "decimal": " ".join(f"st-key-{_class(key)}" for key in sorted(decimal_fields()))}
    attributes = " ".join(f'data-{name}="{escape(str(value))}"' for name, value in data.items())
    st.html(f'<div class="attention-say" hidden {attributes}>{_helps()}</div>')


def _verdicts_kept(before: dict[str, str] | None, now: dict[str, str]) -> dict[str, str]:
    """The verdicts said before that this run does not show (hidden while the inputs changed): kept as said, so a
    verdict shown again when the inputs come back is not said a second time. A new press of Check is a new kind."""
    asked = {kind.split("#")[0] for kind in now if kind.startswith(CHECK)}
    return {kind: text for kind, text in (before or {}).items()
            if kind.startswith(CHECK) and kind not in now and kind.split("#")[0] not in asked}


def _helps() -> str:
    """Each help text this run drew, as a description page.js gives its widget (``aria-describedby``): a tooltip
    is only seen. ``data-for`` is the class Streamlit gives the widget's box (its key, made a class name)."""
    return "".join(f'<span id="help-{_class(key)}" data-for="st-key-{_class(key)}">{escape(_plain(text))}</span>'
                   for key, text in helps().items())


def _class(key: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())  # as Streamlit's frontend makes a key a class name


def _plain(text: str) -> str:
    """Read, not seen: no Markdown marks."""
    return text.replace("**", "").replace("`", "")
