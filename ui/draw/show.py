"""Drawing helpers: a trace's steps as heatmaps, bars, printed tensors, tables and source.

They take plain records from the ``attention`` package (traces, steps, comparisons)
and draw them; they compute nothing but the chart data.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html import escape, unescape
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st
import torch

from attention import Trace
from attention.trace import Step

from .. import state
from ..state import Key
from ..words.content import app_text
from ..words.i18n import decimal_comma, fill, translate
from . import charts, stepchart
from .printed import tensor_text
from .source import excerpt

__all__ = [
    "PRINTED_SELECTOR", "breakable", "narrow_screen", "per_head", "print_tensor", "printed_in", "show_chart",
    "show_comparisons", "show_formula", "show_heads", "show_matrix",
    "show_row", "show_shapes", "show_source", "show_step", "show_step_code", "show_table", "show_tensor",
    "show_vector", "side_by_side", "step_heading", "tensor_text",
]


@functools.cache
def script_component(name: str, script: Path):
    """A component that is only a script (read once per process): what a browser keeps as state and sends with every
    request, drawn with ``height=0``."""
    return st.components.v2.component(name, js=script.read_text(encoding="utf-8"))


def side_by_side(name: str, spec: int | Sequence[int] = 2) -> list:
    """Columns of results (charts, printed tensors) that stack, one under the other, where the page is
    too narrow for them side by side (ui/shell/style.css): on a 1024 px laptop, or beside a sidebar
    widened for 8 dimensions. ``name`` tells the blocks of one page apart (a container key)."""
    return st.container(key=f"{Key.RESULTS_PREFIX}{name}").columns(spec)


# The level of a chart's heading: 2 on a page, 3 under a step's heading (show_step)
_chart_level: contextvars.ContextVar[int] = contextvars.ContextVar("chart_level", default=2)

# Vega's number locale for a language that writes a decimal comma (Indonesian, Vietnamese)
READER_NUMBERS = {"number": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["", ""]}}


def show_chart(spec: dict, width: str = "content") -> None:
    """Draw a Vega-Lite spec from ui.draw.charts.

    Its named datasets (lists of records) go to Streamlit as Arrow tables, which it sends as they
    are; a list of records would go through a pandas DataFrame first, on every chart of every rerun.
    """
    datasets = {name: pa.Table.from_pylist(rows) for name, rows in spec.get("datasets", {}).items()}
    if decimal_comma(state.language()):  # cell labels, axes, legends and tooltips: 0,9995 and 99.980.000
        spec = {**spec, "config": {**spec.get("config", {}), "locale": READER_NUMBERS}}
    # Read, not seen, before the chart: its heading (H2, or H3 under a step's heading) and its values as tables.
    _read_not_seen(charts.heading(spec), _chart_level.get(), "".join(map(_table_html, charts.tables(spec))),
                   css="chart-heading")
    st.vega_lite_chart(spec={**spec, "datasets": datasets} if datasets else spec, width=width)


def _read_not_seen(heading: str, level: int, after: str = "", css: str = "") -> None:
    """A heading (and what follows it) a screen reader finds and jumps to, not shown on screen (``.sr-only``);
    focusable, for "Skip to the results" (ui/shell/page.js)."""
    st.html(f'<div class="sr-only"><h{level} class="{css}" tabindex="-1">{escape(heading)}</h{level}>{after}</div>')


def _table_html(table: charts.Table) -> str:
    """A chart's values as an HTML table with row and column headers, for a screen reader: not on
    screen (``sr-only``, ui/shell/style.css), after the chart in the reading order."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in [table.corner, *table.columns])
    body = "".join(f'<tr><th scope="row">{escape(row)}</th>{"".join(f"<td>{escape(c)}</td>" for c in cells)}</tr>'
                   for row, cells in table.rows)
    return (f"<table><caption>{escape(table.caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


_SPACE = re.compile(r"\\q?quad(?![A-Za-z])")
_OPEN = re.compile(r"\\(left|right|begin|end)(?![A-Za-z])")


def breakable(latex: str) -> str:
    """A formula of several equations (``a = b \\quad c = d``) whose lines may break between them, never inside one.

    Each equation becomes a group (KaTeX breaks a line only between top-level atoms, and a group is one), with a
    break allowed after the space that separates it from the next. On a phone (ui/shell/style.css) the display
    then wraps: 3.4.1's five equations are 648 px on one line, and a phone has 358."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        ch = latex[i]
        if ch == "\\" and i + 1 < len(latex) and latex[i + 1] in "{}":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        opened = _OPEN.match(latex, i)  # \left( ... \right) and \begin{..} ... \end{..} are one piece too
        if opened:
            depth += 1 if opened.group(1) in ("left", "begin") else -1
            i = opened.end()
            continue
        match = _SPACE.match(latex, i) if depth == 0 else None
        if match:
            parts.append((latex[start:i], match.group()))
            start = i = match.end()
            continue
        i += 1
    if not parts:
        return latex
    last = latex[start:]
    return "".join(f"{{{part.strip()}}} {space}\\allowbreak " for part, space in parts) + f"{{{last.strip()}}}"


def show_formula(latex: str) -> None:
    """A page's or a step's formula, its equations allowed to wrap on a narrow screen."""
    st.latex(breakable(latex))


def narrow_screen() -> bool:
    """A phone or a small tablet (its browser says "Mobi"): grids of charts become one column.

    Streamlit tells the server nothing of the screen's width; the user agent is what a phone's
    browser declares (MDN's advice for this). Every chart also shrinks to its column in the browser
    (ui/shell/style.css), so a wrong guess costs size, never a chart cut off.
    """
    return "Mobi" in (st.context.headers.get("User-Agent") or "")


def _numpy(t: torch.Tensor | None) -> np.ndarray | None:
    return None if t is None else t.detach().cpu().float().numpy()


PRINTED_SELECTOR = ".printed-tensor pre code"  # a printed tensor's text on the page (browser tests, benchmarks)
_PRINTED = re.compile(r'<div class="printed-tensor"[^>]*>(?:<p>.*?</p>)?<pre[^>]*>\s*<code>(.*?)</code></pre></div>',
                      re.DOTALL)


def print_tensor(tensor: torch.Tensor, caption_html: str = "") -> None:
    """The tensor as PyTorch prints it, under an optional caption (HTML, escaped by the caller), drawn
    as one HTML element.

    Lines stay as PyTorch wrapped them (never wrapped again by the browser), and the font scales so
    that the widest line fits the box (``--chars``, ui/shell/style.css); below a readable size the box
    scrolls sideways by itself, with a shadow on the side that has more. One element where a caption
    and an ``st.code`` would be two: 2.6 instead of 3.7 ms on every rerun (``make bench-elements``),
    and 3.4.1 prints twelve tensors.
    """
    text = tensor_text(tensor)
    lines = text.splitlines()
    chars = max(map(len, lines), default=1)
    head = f"<p>{caption_html}</p>" if caption_html else ""
    st.html(f'<div class="printed-tensor" style="--chars: {chars}; --lines: {len(lines)}">{head}<pre tabindex="0">'
            f"<code>{escape(text)}</code></pre></div>")


def printed_in(html_body: str) -> list[str]:
    """The tensors that :func:`print_tensor` printed in an HTML element's body, as the learner reads them."""
    return [unescape(text) for text in _PRINTED.findall(html_body)]


def show_tensor(trace: Trace, name: str, *, label: str | None = None) -> None:
    """A step printed as PyTorch prints it, under its name, shape and meaning (or a bold ``label``)."""
    step = trace.step(name)
    caption = (f"<strong>{escape(label)}</strong>" if label
               else f"<code>{escape(name)}</code> {escape(step.shape_text())}: {escape(meaning(step))}")
    print_tensor(step.tensor, caption)


def show_matrix(
    trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str], *, kind: str = "weights",
    index: tuple[int, ...] = (), title: str | None = None, row_title: str | None = None, col_title: str | None = None,
    printed: bool = True, pattern: bool = False, swappable: bool = False,
) -> None:
    """A heatmap of a 2-D slice of a step (``index`` picks batch/head), with its printed tensor.

    Cells the computation hid are hatched and labelled "masked" wherever the step carries the mask
    (:meth:`Trace.hidden_in`: not the weights before the mask), and cells dropout zeroed are
    labelled "dropped". ``pattern`` draws a picture of fixed width, values in the tooltip;
    ``swappable`` keeps one spec whatever the step shows (:func:`ui.draw.charts.heatmap`).
    """
    tensor = trace[name][index] if index else trace[name]
    show_chart(charts.heatmap(_numpy(tensor), rows, cols, title=title or name, kind=kind,
                              masked=_numpy(trace.hidden_in(name, index)),
                              dropped=_numpy(trace.dropped_in(name, index)), row_title=row_title, col_title=col_title,
                              lecture=state.lecture_mode(), pattern=pattern, swappable=swappable))
    if printed:
        with st.expander(app_text("printed_tensor", name=name, shape=tuple(tensor.shape))):
            print_tensor(tensor)


def show_heads(trace: Trace, rows: Sequence[str], cols: Sequence[str], *, batch: int = 0, name: str | None = None,
               kind: str = "weights", swappable: bool = False) -> None:
    """One heatmap per head of a (batch, head, query, key) step (the applied weights unless ``name``),
    batch element ``batch``; hidden cells hatched where the step carries the mask."""
    step = trace.step(name) if name else trace.applied_weights
    per_head = step.tensor[batch]  # (heads, queries, keys)
    hidden = _numpy(trace.hidden_in(step.name, (batch, 0)))
    show_chart(charts.head_grid(_numpy(per_head), rows, cols, masked=hidden, lecture=state.lecture_mode(), kind=kind,
                                title=step.name if swappable else "", swappable=swappable,
                                columns=1 if narrow_screen() else 4))


def show_vector(trace: Trace, name: str, labels: Sequence[str], *, title: str | None = None,
                value_title: str | None = None, domain: tuple[float, float] | None = None) -> None:
    """A 1-D step as one bar per token; a key the step hides is labelled "masked", not drawn as 0."""
    show_chart(charts.bars(_numpy(trace[name]), labels, title=title or name, value_title=value_title,
                           domain=domain, masked=_numpy(trace.hidden_in(name)), lecture=state.lecture_mode()),
               width="stretch")


def show_row(trace: Trace, name: str, row: int, labels: Sequence[str], *, title: str,
             value_title: str | None = None, domain: tuple[float, float] | None = (0, 1)) -> None:
    """One row of a 2-D step as bars (e.g. one query's weights)."""
    show_chart(charts.bars(_numpy(trace[name])[row], labels, title=title,
                           value_title=value_title or app_text("axis_weight"), domain=domain,
                           lecture=state.lecture_mode()), width="stretch")


def show_table(records: Sequence[dict]) -> None:
    """Rows of words and tensors; a tensor is printed as PyTorch prints it (4 decimals), without the
    ``tensor(...)`` around it, and long cells wrap instead of pushing columns off the screen."""
    def cell(value: object) -> object:
        return tensor_text(value)[len("tensor("):-1] if isinstance(value, torch.Tensor) else value

    st.table(pd.DataFrame([{key: cell(value) for key, value in row.items()} for row in records]))


def show_shapes(trace: Trace, names: Sequence[str] | None = None) -> None:
    """The shape tracer: every step's shape, axes and meaning."""
    head = {"step": app_text("shapes_step"), "shape": app_text("shapes_shape"), "axes": app_text("shapes_axes"),
            "meaning": app_text("shapes_meaning")}
    rows = [{head["step"]: s.name, head["shape"]: str(s.shape), head["axes"]: s.shape_text(),
             head["meaning"]: meaning(s)} for s in trace if names is None or s.name in names]
    st.table(pd.DataFrame(rows).set_index(head["step"]))


def meaning(step: Step) -> str:
    """What a step means, in the reader's language (the package says it in English)."""
    return fill(step.meaning, step.fields, state.language())


def show_comparisons(trace: Trace, tol: float = 1e-5) -> None:
    """Each pair of methods that should agree, with their largest difference."""
    for c in trace.comparisons:
        lang = state.language()
        words = dict(a=translate(c.label_a, lang), b=translate(c.label_b, lang), diff=f"{c.max_abs_diff:.3g}")
        st.markdown(app_text("comparison_agree", **words) if c.agrees(tol) else app_text("comparison_differ", **words))


@contextmanager
def folded(label: str, what: str, *, expanded: bool = False, heading: bool = False) -> Iterator[bool]:
    """An expander whose contents are drawn only while it is open (Streamlit's lazy expander).

    Yields whether to draw. A closed section costs the browser nothing on a rerun: a code
    listing is hundreds of highlighted spans that React would otherwise rebuild on every edit.
    Opening it reruns the page (or only the page's fragment) and draws the contents. ``what``
    names the section, so it stays open across reruns, steps and languages. ``heading``: an H2 of the label
    before it, not seen (Check yourself, the code that ran).
    """
    if heading:  # a section of the page a screen reader can jump to, though the expander's label is a button
        _read_not_seen(label, 2)
    box = st.expander(label, expanded=expanded, key=state.fold_key(what), on_change="rerun")
    if box.open:
        with box:
            yield True
    else:
        yield False


def step_heading(caption: str) -> None:
    """A step's caption as the step's heading (an H2), drawn as the bold line it was: a screen reader can jump to
    it, and focus goes to it when a lecture moves (ui/shell/page.js). Its `code` and **bold** are kept."""
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(caption))
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    st.html(f'<h2 class="step-heading" tabindex="-1">{text}</h2>')


def show_source(*objects: object) -> None:
    """The package's own source for the step on screen (what ran is what is shown)."""
    with folded(app_text("code_that_ran"), "source", heading=True) as shown:
        if not shown:
            return
        sources = [(obj, source) for obj in objects if (source := _source(obj)) is not None]
        # what the lines that are not the book's do; the "# new:" note only where a class marks some (m14)
        st.caption(app_text("code_records"))
        if any("# new:" in source for _, source in sources):
            st.caption(app_text("code_new_marker"))
        wrap = narrow_screen()  # a phone wraps long lines instead of scrolling each one sideways
        for obj, source in sources:
            st.caption(f"`{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}`")
            st.code(source, language="python", wrap_lines=wrap)


@functools.lru_cache(maxsize=256)
def _source(obj: object) -> str | None:
    """An object's source, read once per process (the package does not change while it runs)."""
    try:
        return inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return None


WEIGHT_LIKE = stepchart.WEIGHT_LIKE


def per_head(trace: Trace, name: str) -> bool:
    """Whether :func:`show_step` draws this step as a grid of heads, one heatmap per head."""
    return stepchart.grid_of_heads(trace.step(name).dims)


def show_step(trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str] | None = None) -> None:
    """Any recorded step, drawn by its axes: a heatmap for (query, key), per head when it has heads,
    bars for a vector over the tokens, a heatmap of values for (token, width); always printed.

    ``rows`` name the queries (and tokens), ``cols`` the keys (the same tokens unless cross-attention). It is
    drawn under the step's heading (an H2): its chart's heading is an H3.
    """
    level = _chart_level.set(3)
    try:
        _show_step(trace, name, rows, rows if cols is None else cols)
    finally:
        _chart_level.reset(level)


def _show_step(trace: Trace, name: str, rows: Sequence[str], cols: Sequence[str]) -> None:
    step = trace.step(name)
    spec = stepchart.step_chart(name, step.dims, _numpy(step.tensor), rows, cols, hidden=_numpy(trace.hidden_in(name)),
                                dropped=_numpy(trace.dropped_in(name)), lecture=state.lecture_mode(),
                                columns=1 if narrow_screen() else 4)
    if spec is not None:  # bars take the column's width; a heatmap its cells'
        show_chart(spec, width="stretch" if len(step.dims) == 1 else "content")
    show_tensor(trace, name)


def show_step_code(trace: Trace, name: str, *, lines: bool = True, whole: bool = True) -> None:
    """The lines that computed a step (``lines``), and the whole function they belong to, those lines marked, in
    a fold (``whole``: a widget, which a drawing shared between sessions cannot hold)."""
    code = excerpt(trace.step(name).where, name)
    if code is None:
        return
    if lines:
        st.caption(app_text("step_code", function=code.qualname))
        st.code(code.snippet(), language="python", wrap_lines=True)
    if not whole:
        return
    with folded(app_text("code_that_ran"), "step_source", heading=True) as shown:
        if shown:
            st.code(code.marked(app_text("code_step_marker")), language="python", line_numbers=True)
