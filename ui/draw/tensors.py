"""A trace's steps as text: tensors printed as PyTorch prints them, tables of words and tensors, the shape tracer,
and the methods that should agree.

Apart from the charts (show.py): a printed tensor is one HTML element styled like Streamlit's code
(ui/shell/results.css), and the page's tests read it back (``printed_in``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape, unescape

import pandas as pd
import streamlit as st
import torch

from attention import Trace
from attention.trace import Step

from .. import state
from ..words.content import app_text
from ..words.i18n import fill, translate
from .printed import tensor_text

__all__ = ["PRINTED_SELECTOR", "meaning", "print_tensor", "printed_in", "show_comparisons", "show_shapes",
           "show_table", "show_tensor", "show_tensors"]

PRINTED_SELECTOR = ".printed-tensor pre code"  # a printed tensor's text on the page (browser tests, benchmarks)
_PRINTED = re.compile(r'<div class="printed-tensor"[^>]*>(?:<p>.*?</p>)?<pre[^>]*>\s*<code>(.*?)</code></pre></div>',
                      re.DOTALL)


def print_tensor(tensor: torch.Tensor, caption_html: str = "") -> None:
    """The tensor as PyTorch prints it, under an optional caption (HTML, escaped by the caller), drawn
    as one HTML element.

    Lines stay as PyTorch wrapped them (never wrapped again by the browser), and the font scales so
    that the widest line fits the box (``--chars``, ui/shell/results.css); below a readable size the box
    scrolls sideways by itself, with a shadow on the side that has more. One element where a caption
    and an ``st.code`` would be two: 2.6 instead of 3.7 ms on every rerun (``make bench-elements``),
    and 3.4.1 prints twelve tensors.
    """
    st.html(_tensor_html(tensor, caption_html))


def _tensor_html(tensor: torch.Tensor, caption_html: str = "") -> str:
    text = tensor_text(tensor)
    lines = text.splitlines()
    chars = max(map(len, lines), default=1)
    head = f"<p>{caption_html}</p>" if caption_html else ""
    return (f'<div class="printed-tensor" style="--chars: {chars}; --lines: {len(lines)}">{head}<pre tabindex="0">'
            f"<code>{escape(text)}</code></pre></div>")


def printed_in(html_body: str) -> list[str]:
    """The tensors that :func:`print_tensor` printed in an HTML element's body, as the learner reads them."""
    return [unescape(text) for text in _PRINTED.findall(html_body)]


def show_tensor(trace: Trace, name: str, *, label: str | None = None) -> None:
    """A step printed as PyTorch prints it, under its name, shape and meaning (or a bold ``label``)."""
    print_tensor(trace.step(name).tensor, _caption(trace, name, label))


def show_tensors(trace: Trace, names: Sequence[str]) -> None:
    """Steps printed side by side, as one element: a row that stacks where a tensor would be narrower than 400 px,
    as ``side_by_side``'s columns do (ui/shell/results.css). Columns of printed tensors were a block, a column and a
    tensor each, all drawn again on every run: 3.4.1's three rows of them were 19 elements, now 3."""
    row = "".join(_tensor_html(trace.step(name).tensor, _caption(trace, name)) for name in names)
    st.html(f'<div class="tensor-row">{row}</div>')


def _caption(trace: Trace, name: str, label: str | None = None) -> str:
    if label:
        return f"<strong>{escape(label)}</strong>"
    step = trace.step(name)
    return f"<code>{escape(name)}</code> {escape(step.shape_text())}: {escape(meaning(step))}"


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
