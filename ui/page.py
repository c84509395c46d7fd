"""The page controller: a page's header, its controls, and its guarded computation.

A page script calls :func:`start_page`, draws its controls through the returned
:class:`Page`, asks it to ``compute`` with the ``attention`` package, and draws
the result with :mod:`ui.draw`. It does no tensor math and holds no words: the
words come from the page's content file (:mod:`ui.words.content`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import streamlit as st
import torch

from attention import NORMALISATIONS, AttentionConfig, Trace
from attention.explore import RunOptions

from . import announce, draw, state
from .check import panel as check
from .check import state as check_state
from .check.questions import Live
from .inputs import state as matrix_state
from .inputs.matrix import InputMatrix, book_matrix
from .script import PageEnded, ensure_frame
from .settings import limits
from .sharing import link, offer
from .sharing.export import MAX_EXPORT_ELEMENTS, trace_to_csv
from .sharing.notebook import NotebookSpec, has_notebook
from .state import Key
from .steps import state as step_state
from .steps import stepper
from .words.content import PageText, app_text, page_text, reader_number
from .words.i18n import explain, translate

__all__ = ["Driver", "LaterSettings", "ModuleSettings", "Page", "draw_explanation", "draw_flash", "draw_header",
           "driven_by", "normalisation_name", "start_page"]

T = TypeVar("T")
REMEMBER_UP_TO = 100_000  # inputs larger than this are not kept per page for the last-good fallback


@dataclass(frozen=True)
class ModuleSettings:
    """The controls of a page that builds an attention module (3.5.3 to the efficient page)."""

    d_out: int
    num_heads: int
    qkv_bias: bool
    batch_size: int
    causal: bool
    dropout: float
    training: bool
    seed: int

    def run(self) -> RunOptions:
        return RunOptions(batch_size=self.batch_size, training=self.training, seed=self.seed)


@dataclass(frozen=True)
class LaterSettings:
    """The causal mask (3.5.1) and dropout (3.5.2), offered on a page of an earlier section."""

    causal: bool
    dropout: float
    training: bool
    seed: int  # the dropout seed (the page's own seed where it has one for its weights)


@dataclass(frozen=True)
class Driver:
    """A walkthrough step driving the page: which step it shows and how to move on (``position``), in which
    view, and the log of what the page did with the step's control values (ui/lecture/walk.py builds it)."""

    position: stepper.Position
    projection: bool = False  # drawn on the projection: a slim line, the step, the rest folded
    details: bool = False  # the projection shows its explanation and controls too
    log: state.WalkLog = field(default_factory=state.WalkLog)
    quiet: bool = False  # the controls take their values without a widget (a student's exploration, projected)
    fixed: Fixed | None = None  # new: a state of its own (a student's exploration on the projector), not the session's


@dataclass(frozen=True)
class Fixed:
    """A page's state held apart from the session's: the matrix and the page's control values. A page driven with
    it draws no control and writes nothing of the session's (the lecture's own state stays as it was)."""

    matrix: InputMatrix
    controls: dict[str, Any]


_driver: ContextVar[Driver | None] = ContextVar("driver", default=None)


@contextmanager
def driven_by(driver: Driver) -> Iterator[None]:
    """While the walkthrough runs a page script: the page's :func:`start_page` is handed ``driver``."""
    token = _driver.set(driver)
    try:
        yield
    finally:
        _driver.reset(token)


@dataclass
class Page:
    page_id: str
    matrix: InputMatrix
    text: PageText
    stage: Any = None  # in step mode: the place above the controls where the step is drawn
    driver: Driver | None = None  # a walkthrough step drives the page: its controls and its step
    live: Live | None = field(default=None, repr=False)  # the questions' live state (set by step_through)
    _computations: int = field(default=0, repr=False)
    _exported: list[tuple[int, str, Trace]] = field(default_factory=list, repr=False)  # (computation, prefix, trace)
    _download: Any = field(default=None, repr=False)  # where the one download button is drawn
    _departed: bool = field(default=False, repr=False)  # a control read so far is not at its default (the book's)
    values: dict[str, Any] = field(default_factory=dict, repr=False)  # each control read so far: its value

    # ----- the shared input ------------------------------------------------------------------
    @property
    def inputs(self) -> torch.Tensor:
        return self.matrix.tensor()

    @property
    def labels(self) -> list[str]:
        return self.matrix.labels()

    def attention_config(self, settings: ModuleSettings, *, d_out: int | None = None,
                         context_length: int | None = None) -> AttentionConfig:
        """The module's shape: d_in and (by default) context_length from the matrix, the rest from the controls."""
        return AttentionConfig(
            d_in=self.matrix.dim, d_out=settings.d_out if d_out is None else d_out,
            context_length=self.matrix.num_tokens if context_length is None else context_length,
            dropout=settings.dropout, num_heads=settings.num_heads, qkv_bias=settings.qkv_bias, causal=settings.causal,
        )

    def module_controls(self, *, heads: str | None, d_out: int = 2, d_out_label: str = "d_out",
                        d_out_max: int = 64, heads_label: str | None = None, heads_default: int = 2,
                        dropout: bool = True) -> ModuleSettings:
        """The controls every module page shares, in four columns.

        ``heads``: "count" (any number of heads), "divisors" (only divisors of d_out) or None (one head).
        """
        c1, c2, c3, c4 = self.control_columns(4)
        with c1:
            width = self.d_out(d_out, label=d_out_label, max_value=d_out_max)
            seed = self.seed(123)
        with c2:
            if heads == "count":
                num_heads = int(self.control("num_heads", 2, st.number_input, heads_label or app_text("num_heads"),
                                             min_value=1, max_value=limits().max_heads))
            else:
                num_heads = self.heads(width, default=heads_default) if heads == "divisors" else 1
            qkv_bias = self.qkv_bias()
        with c3:
            batch_size = self.batch_size()
            causal = self.causal(default=True)
        with c4:
            p, training = self.dropout(0.0) if dropout else (0.0, False)
        return ModuleSettings(width, num_heads, qkv_bias, batch_size, causal, p, training, seed)

    # ----- controls ------------------------------------------------------------------------------
    @property
    def quiet(self) -> bool:
        """The controls are not drawn (a following student's device, until they open them): their values are
        the stored ones, checked as a widget would check them."""
        return self.driver is not None and self.driver.quiet

    @property
    def _fixed(self) -> bool:
        """The page runs on a state held apart from the session's (ui.page.Fixed)."""
        return self.driver is not None and self.driver.fixed is not None

    def stored(self) -> dict[str, Any]:
        """The page's control values as the page reads them: a fixed state's, the walkthrough's, or the learner's."""
        if self._fixed:
            return self.driver.fixed.controls
        return state.page_controls(self.page_id, self.driver is not None)

    def control(self, name: str, default: Any, widget: Callable[..., Any], label: str, **kw: Any) -> Any:
        value = state.control(self.page_id, name, default, widget, label, store=self.stored(),
                              walk=self.driver.log if self.driver is not None else None, draw=not self.quiet, **kw)
        self._departed = self._departed or value != default
        self.values[name] = value
        return value

    def control_columns(self, spec: int | list[int]) -> list[Any]:
        """Columns for a row of controls; where the controls are quiet, nothing is drawn (no empty row)."""
        if self.quiet:
            return [nullcontext()] * (spec if isinstance(spec, int) else len(spec))
        return st.columns(spec)

    def query_token(self, default: int = 1, label: str | None = None) -> int:
        n, labels = self.matrix.num_tokens, self.labels
        return int(self.control(
            "query", min(default, n - 1), st.selectbox, label or app_text("query_token"), options=list(range(n)),
            format_func=lambda i: f"x({i + 1}) “{labels[i]}”", valid=lambda v: isinstance(v, int) and 0 <= v < n,
            help=app_text("query_token_help"),
        ))

    def normalisation(self, *, horizontal: bool = False) -> str:
        """How scores become weights (3.3): one of attention's NORMALISATIONS."""
        return str(self.control("normalisation", "softmax", st.radio, app_text("normalisation"),
                                options=list(NORMALISATIONS), horizontal=horizontal,
                                format_func={m: normalisation_name(m) for m in NORMALISATIONS}.__getitem__))

    def causal(self, default: bool) -> bool:
        return bool(self.control("causal", default, st.toggle, app_text("causal"), help=app_text("causal_help")))

    def words(self, said: str | BaseException) -> str:
        """What the package says (a variant's description, why it cannot run) in the page's language."""
        lang = state.language()
        return explain(said, lang) if isinstance(said, BaseException) else translate(said, lang)

    def number(self, value: float, spec: str = ".2f") -> str:
        """A number as the reader's language writes it: 0.92, or 0,92 in Indonesian and Vietnamese."""
        return reader_number(value, spec)

    def stepped(self, name: str, default: float, label: str, *, low: float, high: float, step: float,
                help: str | None = None) -> float:
        """A slider over ``low``, ``low + step``, ... ``high`` whose shown values are written in the reader's
        convention: "0,50" in Indonesian and Vietnamese, beside prose that writes 0,5 (a plain slider formats
        its numbers in the browser, always with a point)."""
        count = round((high - low) / step)
        options = [round(low + i * step, 6) for i in range(count + 1)]
        lang = state.language()
        return float(self.control(name, default, st.select_slider, label, options=options, help=help,
                                  format_func=lambda v: reader_number(v, ".2f", lang),
                                  valid=lambda v: v in options))

    def dropout(self, default: float = 0.0) -> tuple[float, bool]:
        p = self.stepped("dropout", default, app_text("dropout"), low=0.0, high=0.9, step=0.05,
                         help=app_text("dropout_help"))
        training = self.control("training", True, st.toggle, app_text("training"), help=app_text("training_help"))
        return float(p), bool(training)

    def later_controls(self, *, seed: int | None = None) -> LaterSettings:
        """The causal mask and dropout on a page the chapter reaches before 3.5: folded under "from
        later sections", so a first reading meets only what the section has taught. Open from the
        start when one of them is in use (a shared link, or left on), so nothing changes unseen.

        ``seed``: the page's own seed, which dropout then uses too; else a dropout seed of its own.
        """
        stored = self.stored()
        in_use = bool(stored.get("causal")) or bool(stored.get("dropout"))
        fold = nullcontext() if self.quiet else st.expander(app_text("later_controls"), expanded=in_use,
                                                            icon=":material/update:")
        with fold:
            c1, c2 = self.control_columns(2)
            with c1:
                causal = self.causal(default=False)
                if seed is None:
                    seed = self.seed(123, app_text("dropout_seed"), help=app_text("dropout_seed_help"))
            with c2:
                p, training = self.dropout(0.0)
        return LaterSettings(causal, p, training, seed)

    def seed(self, default: int, label: str | None = None, name: str = "seed", help: str | None = None) -> int:
        return int(self.control(name, default, st.number_input, label or app_text("seed"), min_value=0,
                                max_value=2**31 - 1, step=1, help=help or app_text("seed_help")))

    def d_out(self, default: int = 2, *, label: str = "d_out", max_value: int = 64) -> int:
        return int(self.control("d_out", default, st.number_input, label, min_value=1, max_value=max_value,
                                step=1, help=app_text("d_out_help")))

    def heads(self, d_out: int, default: int = 2) -> int:
        """A head count that divides ``d_out``: only divisors are offered.

        When a new d_out no longer takes the chosen count, the nearest count it takes is chosen
        (4 heads, d_out 4 -> 3: 3 heads), and the page says so.
        """
        options = [h for h in range(1, min(d_out, limits().max_heads) + 1) if d_out % h == 0]
        chosen = self.stored().get("num_heads", default)
        wanted = chosen if isinstance(chosen, int) and not isinstance(chosen, bool) else default
        fallback = min(options, key=lambda h: (abs(h - wanted), h))
        heads = int(self.control("num_heads", fallback, st.select_slider, app_text("num_heads"), options=options,
                                 valid=lambda v: v in options, help=app_text("num_heads_help", d_out=d_out)))
        if wanted not in options and wanted != heads and not self.quiet:
            st.caption(app_text("heads_adjusted", old=wanted, new=heads, d_out=d_out))
        return heads

    def batch_size(self) -> int:
        return int(self.control("batch", 2, st.number_input, app_text("batch_size"), min_value=1,
                                max_value=limits().max_batch))

    def qkv_bias(self, label: str = "qkv_bias") -> bool:
        return bool(self.control("qkv_bias", False, st.toggle, label))

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
            check_state.set_live(self.page_id, self.live)
        if self.driver is None:  # a lecture's step is said as the lecture's move (ui/steps/stepper.py)
            announce.note_result(result, labels or self.labels, given)
        if self.stage is None:
            return
        position = None
        if self.driver is not None:  # the walkthrough decides which step is shown, and → goes on to its next
            position = self.driver.position
            if self.driver.projection:  # the section, in the step's slim line
                position = replace(position, title=self.text.title)
        with self.stage:
            shown = stepper.step_through(self.page_id, self.text.steps, result, labels or self.labels, position,
                                         key_labels)
            if shown and self.driver is None and has_notebook(self.page_id):  # the walkthrough offers the whole walk
                names = [s.text.name for s in stepper.slides(self.text.steps, result)]
                current = step_state.current_step(self.page_id)
                offer.notebook_button(self.notebook_spec(current if current in names else names[0]))
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
        except (ValueError, TypeError) as exc:
            st.error(app_text("cannot_compute", error=explain(exc, state.language())), icon="⚠️")
            result = None if self._fixed else self._last_good(slot)  # never the session's own under a student's
        else:
            if self.matrix.num_tokens * self.matrix.dim <= REMEMBER_UP_TO and not self._fixed:
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
        return NotebookSpec.of(self.page_id, self.matrix, self.values, step)

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
        size = sum(step.tensor.numel() for _, t in exported for step in t)
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


def normalisation_name(method: str) -> str:
    """How a normalisation is called on screen."""
    return {"sum": app_text("normalisation_sum"), "softmax_naive": app_text("normalisation_softmax_naive"),
            "softmax": app_text("normalisation_softmax")}[method]


def _traces_of(result: Any) -> list[tuple[str, Trace]]:
    """The traces a result holds: itself, or the Trace fields of a result record."""
    if isinstance(result, Trace):
        return [("", result)]
    if hasattr(result, "__dataclass_fields__"):
        return [(f"{name}.", value) for name, value in vars(result).items() if isinstance(value, Trace)]
    return []


def draw_header(page_id: str) -> None:
    """Title, explanation and formula from the page's content file.

    app.py draws it outside the page's fragment: it changes only with the page, the language and
    lecture mode (each a whole-app rerun), so a page control does not make the browser rebuild it
    (the formula alone is a couple of hundred KaTeX nodes). In lecture mode the explanation is the
    page's one-line idea, the full text one click away. A message about the link or the room comes first, above
    the title: under the explanation it was below the fold of a phone (a bad room link looked like a join).
    """
    draw_flash()
    text = page_text(page_id)
    st.title(text.title)
    if state.lecture_mode() and text.idea:
        st.markdown(f"**{text.idea}**")
        with st.expander(app_text("full_explanation")):
            draw_explanation(page_id)
    else:
        draw_explanation(page_id)


def draw_flash(opened: bool = True) -> None:
    """The page's queued message (``state.flash(..., where="page")``), if any, once; with ``opened``, that a shared
    link was opened, while its state is unchanged (on every full run: one place per run draws it)."""
    flashed = state.take_flash("page")
    if flashed:
        getattr(st, flashed[0])(flashed[1])
    if opened and link.link_opened():  # "the shared link was opened": a reload of one's own page hides it (page.js)
        with st.container(key=Key.LINK_OPENED):
            st.success(app_text("link_opened"))


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
        st.subheader(text.title)
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


def draw_explanation(page_id: str) -> None:
    """The page's explanation and formula, from its content file."""
    text = page_text(page_id)
    st.markdown(text.intro)
    if text.formula:
        draw.show_formula(text.formula)


def _step_mode_toggle(page_id: str) -> None:
    state.mirrored(st.toggle, app_text("step_mode"), f"{Key.STEP_MODE_PREFIX}{page_id}", step_state.step_mode(page_id),
                   lambda on: step_state.set_step_mode(page_id, bool(on)), help=app_text("step_mode_help"))
