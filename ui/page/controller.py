"""The page controller: the :class:`Page` a page script is handed by :func:`start_page`, its step-through, its
Check yourself panel, its guarded computation (the last result that worked, on bad settings) and its download.

The controls it inherits are controls.py's; the walkthrough's driver is driver.py's, the header header.py's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import streamlit as st

from attention import Trace

from .. import announce, state
from ..check import panel as check
from ..check import state as check_state
from ..check.questions import Live
from ..inputs import state as matrix_state
from ..inputs.matrix import InputMatrix, book_matrix
from ..script import PageEnded, ensure_frame, rerun_alone
from ..sharing import offer
from ..sharing.export import MAX_EXPORT_ELEMENTS, trace_to_csv
from ..sharing.notebook import NotebookSpec, has_notebook
from ..state import Key
from ..steps import state as step_state
from ..steps import stepper
from ..words.content import PageText, app_text, page_text
from ..words.i18n import explain
from .controls import PageControls
from .driver import Driver, _driver
from .header import draw_flash

__all__ = ["Page", "start_page"]

T = TypeVar("T")
REMEMBER_UP_TO = 100_000  # inputs larger than this are not kept per page for the last-good fallback


@dataclass
class Page(PageControls):
    page_id: str
    matrix: InputMatrix
    text: PageText
    stage: Any = None  # in step mode: the place above the controls where the step is drawn
    driver: Driver | None = None  # a walkthrough step drives the page: its controls and its step
    live: Live | None = field(default=None, repr=False)  # the questions' live state (set by step_through)
    _computations: int = field(default=0, repr=False)
    _large: bool = field(default=False, repr=False)  # a computation's steps are over what a session keeps of a run
    _exported: list[tuple[int, str, Trace]] = field(default_factory=list, repr=False)  # (computation, prefix, trace)
    _download: Any = field(default=None, repr=False)  # where the one download button is drawn
    _departed: bool = field(default=False, repr=False)  # a control read so far is not at its default (the book's)
    values: dict[str, Any] = field(default_factory=dict, repr=False)  # each control read so far: its value

    # ----- step-through ------------------------------------------------------------------------
    def step_through(self, result: Any, *, labels: list[str] | None = None,
                     key_labels: list[str] | None = None, **given: Any) -> None:
        """In step mode, show the computation one step at a time, and nothing else of the page below.

        ``labels`` name the tokens (the input matrix's by default), ``key_labels`` the keys when they differ.
        ``given``: the settings the page's questions need (the query, the heads...). The result and these are
        the page's questions' live state (``check_yourself``, and a class poll on a walkthrough step).
        """
        self.live = Live(result, tuple(self.labels), self.inputs, given, book=self._book_live(result, given))
        if not self._fixed:  # a fixed state is not the page's live one
            check_state.set_live(self.page_id, None if self._large else self.live)
        if self.driver is None:  # a lecture's step is said as the lecture's move (ui/steps/stepper.py)
            announce.note_result(result, labels or self.labels, given)
        if self.stage is None:
            return
        position = None
        if self.driver is not None:  # the walkthrough decides which step is shown, and → goes on to its next
            position = self.driver.position
            if self.driver.projection:  # the section, in the step's slim line
                position = replace(position, title=self.text.title)
        draw = functools.partial(_stage, self.page_id, self.text.steps, result, labels or self.labels, position,
                                 key_labels, self._spec_of())
        with self.stage:
            # A page's own steps: its ← → rerun the step alone, not the controls above it. The walkthrough's
            # windows move by the lecture's state; a run too large to keep is not kept for the step's rerun either.
            if position is None and not self._large:
                shown = bool(stepper.slides(self.text.steps, result))
                if shown:
                    rerun_alone(draw)
            else:
                shown = draw()
        if shown:
            self.end()

    def _book_live(self, result: Any, given: dict[str, Any]) -> Live | None:
        """The page's live state at the book's matrix and settings, while the learner's differ: a learner who types
        the value the book prints is told so (else a right answer from the book reads as wrong). A page run at
        the book's state keeps its result for every session of this process; the walkthrough's steps ask no
        questions."""
        if self.driver is not None:
            return None
        if not self._departed and self.matrix == book_matrix():
            _book_lives()[self.page_id] = Live(result, tuple(self.labels), self.inputs, given)
            return None
        return _book_lives().get(self.page_id)

    def end(self) -> None:
        """Draw nothing more of this page; the frame (ui/shell/frame.py) still writes the address bar."""
        raise PageEnded

    # ----- check yourself -----------------------------------------------------------------------
    def check_yourself(self) -> None:
        """The Check yourself panel after the page's content: questions on what ``step_through`` was given."""
        if self.live is not None and self.driver is None:  # a walkthrough step asks its questions as class polls
            check.check_yourself(self.page_id, self.text, self.live)

    # ----- computation ---------------------------------------------------------------------------
    def compute(self, run: Callable[[], T]) -> T:
        """Run ``run()``; on bad settings explain, and show the last settings that worked.

        When there is nothing to show at all, the rest of the page is not drawn.
        """
        slot, self._computations = self._computations, self._computations + 1
        try:
            result = run()
            # Over the download's cap nothing of the run stays in the session (its questions' live state, its last
            # good computation): at GPT-2's size its steps are 80 MB, kept for each learner as long as they stay.
            if not self._large and _elements(result) > MAX_EXPORT_ELEMENTS:
                self._large = True
                state.forget_good(self.page_id)  # an earlier, smaller computation's closure would hold this one too
        except (ValueError, TypeError) as exc:
            st.error(app_text("cannot_compute", error=explain(exc, state.language())), icon="⚠️")
            result = None if self._fixed else self._last_good(slot)  # never the session's own under a student's
        else:
            if self.matrix.num_tokens * self.matrix.dim <= REMEMBER_UP_TO and not self._large and not self._fixed:
                state.remember_good(self.page_id, slot, run)
        if result is None:
            self.end()
        if self.stage is None:  # a step-through shows the steps, not a download
            self._offer_download(result)
        return result

    def _last_good(self, slot: int) -> Any:
        previous = state.last_good(self.page_id, slot)
        if previous is None:
            return None
        st.info(app_text("showing_last_good"))
        try:
            return previous()
        except (ValueError, TypeError):
            return None

    def notebook_spec(self, step: str | None = None) -> NotebookSpec:
        """The page's state as the notebook takes it: the matrix and every control read so far."""
        return self._spec_of()(step)

    def _spec_of(self) -> Callable[[str | None], NotebookSpec]:
        """What :meth:`notebook_spec` makes, without the page: a step's part keeps it until the page's next run."""
        return functools.partial(NotebookSpec.of, self.page_id, self.matrix, dict(self.values))

    def _offer_download(self, result: Any) -> None:
        """One CSV of every recorded step of every computation of the page, built only when clicked, and the page
        as a notebook (``ui/sharing/offer.py``) beside it.

        A page that computes twice (3.1, 3.5.2) still has one row: the second computation redraws
        it in place with both, each step named after its computation (``1.weights``, ``2.trace.keep``).
        """
        traces = _traces_of(result)
        if not traces:
            return
        if self._download is None:
            self._download = st.empty()
        with self._download.container(horizontal=True, vertical_alignment="center"):
            self._csv_button(traces)
            if has_notebook(self.page_id):
                offer.notebook_button(self.notebook_spec())

    def _csv_button(self, traces: list[tuple[str, Trace]]) -> None:
        self._exported.extend((self._computations, prefix, t) for prefix, t in traces)
        several = len({n for n, _, _ in self._exported}) > 1  # steps of several computations: numbered
        exported = [(f"{n}.{prefix}" if several else prefix, t) for n, prefix, t in self._exported]
        size = sum(_elements(t) for _, t in exported)
        if size > MAX_EXPORT_ELEMENTS:
            # The deferred download would keep every tensor alive for the session: not at this size.
            st.caption(app_text("too_large_to_download", size=f"{size:,}"))
            return

        def build() -> str:
            parts = [trace_to_csv(t, prefix=p) for p, t in exported]
            return parts[0] + "".join(part.split("\n", 1)[1] for part in parts[1:])

        st.download_button(
            app_text("download_results"), data=build, file_name=f"{self.page_id}-results.csv", mime="text/csv",
            key=f"{Key.DOWNLOAD_PREFIX}{self.page_id}:{self._computations}", on_click="ignore",
            icon=":material/download:",
        )


def _stage(page_id: str, steps: tuple, result: Any, labels: list[str], position: stepper.Position | None,
           key_labels: list[str] | None, spec_of: Callable[[str | None], NotebookSpec]) -> bool:
    """The step on screen, with its navigation; a page's own steps offer the page as a notebook at that step (the
    walkthrough offers the whole walk). False if the page has no step to show."""
    shown = stepper.step_through(page_id, steps, result, labels, position, key_labels)
    if shown and position is None and has_notebook(page_id):
        names = [s.text.name for s in stepper.slides(steps, result)]
        current = step_state.current_step(page_id)
        offer.notebook_button(spec_of(current if current in names else names[0]))
    return shown


def _traces_of(result: Any) -> list[tuple[str, Trace]]:
    """The traces a result holds: itself, or the Trace fields of a result record."""
    if isinstance(result, Trace):
        return [("", result)]
    if hasattr(result, "__dataclass_fields__"):
        return [(f"{name}.", value) for name, value in vars(result).items() if isinstance(value, Trace)]
    return []


def _elements(result: Any) -> int:
    """How many numbers the steps of a result's traces hold."""
    return sum(step.tensor.numel() for _, trace in _traces_of(result) for step in trace)


@st.cache_resource
def _book_lives() -> dict[str, Live]:
    """Each page's questions' live state at the book's matrix and settings, once a session ran it
    (Page._book_live)."""
    return {}


def start_page(page_id: str) -> Page:
    """The page's controller, with its flash message and step-through toggle (the header is app.py's).

    A page inside the walkthrough shows its title small and no explanation: the walkthrough's
    speaker note says what the step is about. On the projection its title is in the step's one
    line, and everything the page draws after the step (its controls) is folded away by
    ui/shell/projection.css unless the lecturer asked for the details.
    """
    ensure_frame()
    announce.begin()  # what this run shows, for a screen reader: said at its end if it changed (app.py after_page)
    walk = _driver.get()  # handed over by the walkthrough running this page (driven_by), else None
    projection = walk is not None and walk.projection
    text = page_text(page_id)
    if walk is not None and not projection:
        st.header(text.title)
    draw_flash(opened=projection)  # the projection has no header; a plain walkthrough's header said it already
    stage = None
    if text.steps:
        if walk is None:
            _step_mode_toggle(page_id)
        if step_state.step_mode(page_id, walk is not None):  # the step goes here, above the page's controls
            stage = st.container(key=_stage_key(walk, projection))
    matrix = walk.fixed.matrix if walk is not None and walk.fixed is not None else matrix_state.get_matrix()
    return Page(page_id, matrix, text, stage, driver=walk)


def _stage_key(walk: Driver | None, projection: bool) -> str | None:
    """The projection's stage: what the page draws after it is folded (ui/shell/projection.css) unless
    the lecturer asked for the details. Elsewhere the stage needs no key."""
    if not projection:
        return None
    return Key.STAGE_DETAILS if walk.details else Key.STAGE


def _step_mode_toggle(page_id: str) -> None:
    state.mirrored(st.toggle, app_text("step_mode"), f"{Key.STEP_MODE_PREFIX}{page_id}", step_state.step_mode(page_id),
                   lambda on: step_state.set_step_mode(page_id, bool(on)), help=app_text("step_mode_help"))
