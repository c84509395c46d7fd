"""Page building blocks: header, controls, guarded computation, and drawing a Trace.

Pages call these and the ``attention`` package; they do no tensor math.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
import torch

from attention import NORMALISATIONS, Trace

from . import charts
from .content import page_text
from .export import MAX_EXPORT_ELEMENTS, trace_to_csv
from .frame import ensure_frame
from .matrix import InputMatrix
from .state import control, get_matrix, set_current_page, take_flash

__all__ = ["Page", "start_page"]

NORMALISATION_NAMES = {"sum": "divide by the sum", "softmax_naive": "naive softmax exp/sum",
                       "softmax": "torch.softmax"}


@dataclass
class Page:
    page_id: str
    matrix: InputMatrix

    def text(self, key: str, /, **values: Any) -> str:
        """This page's words (pages/content/<lang>/<page_id>.toml), ``values`` filled in."""
        return page_text(self.page_id)(key, **values)

    # ----- inputs and controls -------------------------------------------------
    @property
    def inputs(self) -> torch.Tensor:
        return self.matrix.tensor()

    @property
    def labels(self) -> list[str]:
        return self.matrix.labels()

    def control(self, name: str, default: Any, widget: Callable[..., Any], label: str, **kw: Any) -> Any:
        return control(self.page_id, name, default, widget, label, **kw)

    def query_token(self, default: int = 1, label: str = "Query token") -> int:
        n = self.matrix.num_tokens
        labels = self.labels
        index = self.control(
            "query",
            min(default, n - 1),
            st.selectbox,
            label,
            options=list(range(n)),
            format_func=lambda i: f"x({i + 1}) “{labels[i]}”",
            valid=lambda v: isinstance(v, int) and 0 <= v < n,
            help="Which token asks the question: its row of scores and weights is computed.",
        )
        return int(index)

    def normalisation(self, *, horizontal: bool = False) -> str:
        """How scores become weights (3.3): one of attention's NORMALISATIONS."""
        return str(self.control("normalisation", "softmax", st.radio, "Normalisation",
                                options=list(NORMALISATIONS), format_func=NORMALISATION_NAMES.get,
                                horizontal=horizontal))

    def causal(self, default: bool) -> bool:
        return bool(self.control("causal", default, st.toggle, "Causal mask",
                                 help="Hide later tokens from each query (3.5)."))

    def dropout(self, default: float = 0.0) -> tuple[float, bool]:
        p = self.control("dropout", default, st.slider, "Dropout rate p", min_value=0.0,
                         max_value=0.9, step=0.05,
                         help="Fraction of attention weights zeroed in training mode; survivors ×1/(1−p).")
        training = self.control("training", True, st.toggle, "Training mode (dropout active)",
                                help="In eval mode dropout does nothing.")
        return float(p), bool(training)

    def seed(self, default: int, label: str = "Seed", name: str = "seed") -> int:
        return int(self.control(name, default, st.number_input, label, min_value=0,
                                max_value=2**31 - 1, step=1,
                                help="torch.manual_seed before the weights are drawn."))

    def d_out(self, default: int = 2, *, label: str = "d_out", max_value: int = 64) -> int:
        return int(self.control("d_out", default, st.number_input, label, min_value=1,
                                max_value=max_value, step=1,
                                help="Width of the query, key and value vectors."))

    def heads(self, d_out: int, default: int = 2, max_heads: int = 16) -> int:
        options = [h for h in range(1, min(d_out, max_heads) + 1) if d_out % h == 0]
        fallback = default if default in options else options[-1 if default > options[-1] else 0]
        return int(self.control(
            "num_heads", fallback, st.select_slider, "Number of heads", options=options,
            valid=lambda v: v in options,
            help=f"Only divisors of d_out={d_out} are offered: each head gets d_out / heads dimensions.",
        ))

    # ----- computation -----------------------------------------------------------
    def compute(self, fn: Callable[..., Any], /, *args: Any, **params: Any) -> Any:
        """Run a package function; on bad input explain and fall back to the last good run."""
        key = f"_last_good:{self.page_id}:{getattr(fn, '__qualname__', fn)}"
        try:
            result = fn(*args, **params)
        except (ValueError, TypeError) as exc:
            st.error(f"**Cannot compute with these settings.** {exc}", icon="⚠️")
            last = st.session_state.get(key)
            if last is None:
                return None
            st.info("Showing the result of the last valid settings instead.")
            try:
                return fn(*last[0], **last[1])
            except (ValueError, TypeError):
                return None
        if sum(a.numel() for a in args if isinstance(a, torch.Tensor)) <= 100_000:
            st.session_state[key] = (args, params)  # large inputs are not duplicated per page
        self._offer_download(result)
        return result

    def _offer_download(self, result: Any) -> None:
        """A CSV of every recorded step; built only when the learner clicks."""
        if isinstance(result, Trace):
            traces = [("", result)]
        elif hasattr(result, "__dict__"):
            traces = [(f"{name}.", t) for name, t in vars(result).items() if isinstance(t, Trace)]
        else:
            traces = []
        if not traces:
            return
        size = sum(step.tensor.numel() for _, t in traces for step in t)
        if size > MAX_EXPORT_ELEMENTS:
            # The deferred download would keep every tensor alive for the session: not at this size.
            st.caption(f"These results hold {size:,} numbers: too many to offer as a CSV download.")
            return
        self._downloads = getattr(self, "_downloads", 0) + 1

        def build() -> str:
            parts = [trace_to_csv(t, prefix=p) for p, t in traces]
            return parts[0] + "".join(part.split("\n", 1)[1] for part in parts[1:])

        st.download_button(
            "Download these results (CSV)", data=build, file_name=f"{self.page_id}-results.csv",
            mime="text/csv", key=f"download:{self.page_id}:{self._downloads}", on_click="ignore",
            icon=":material/download:",
        )


def start_page(page_id: str) -> Page:
    """Title, explanation and formula (from the page's content file); returns the page's context."""
    ensure_frame()
    set_current_page(page_id)
    words = page_text(page_id)
    st.title(words.title)
    flashed = take_flash("page")
    if flashed:
        getattr(st, flashed[0])(flashed[1])
    st.markdown(words.intro)
    if words.formula:
        st.latex(words.formula)
    return Page(page_id, get_matrix())


# ----- drawing a Trace -----------------------------------------------------------------


def show_chart(spec: dict, width: str = "content") -> None:
    """Draw a Vega-Lite spec from ui.charts."""
    st.vega_lite_chart(spec=spec, width=width)


def to_numpy(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().float().numpy()


def tensor_text(t: torch.Tensor) -> str:
    """The tensor as PyTorch prints it (4 decimals), as in the book."""
    return repr(t.detach().cpu())


def show_tensor(trace: Trace, name: str, *, caption: str | None = None) -> None:
    step = trace.step(name)
    st.caption(caption or f"`{name}` {step.shape_text()}: {step.meaning}")
    # Vectors wrap; matrices keep their rows intact and scroll sideways when narrow.
    st.code(tensor_text(step.tensor), language="text", wrap_lines=step.tensor.dim() <= 1)


def show_matrix(
    trace: Trace,
    name: str,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    kind: str = "weights",
    index: tuple[int, ...] = (),
    title: str | None = None,
    row_title: str = "query",
    col_title: str = "key",
    masked_from: str | None = None,
    printed: bool = True,
) -> None:
    """A heatmap of a 2-D slice of a step (``index`` picks batch/head), with its printed tensor."""
    step = trace.step(name)
    tensor = step.tensor[index] if index else step.tensor
    masked = hidden_cells(trace, masked_from, index) if masked_from is not None else None
    chart = charts.heatmap(
        to_numpy(tensor), rows, cols, title=title or name, kind=kind, masked=masked,
        row_title=row_title, col_title=col_title,
    )
    show_chart(chart)
    if printed:
        with st.expander(f"Printed tensor `{name}` {tuple(tensor.shape)}"):
            st.code(tensor_text(tensor), language="text", wrap_lines=tensor.dim() <= 1)


def hidden_cells(trace: Trace, name: str, index: tuple[int, ...] = ()) -> np.ndarray | None:
    """Where a recorded score step is -inf (masked keys), as a boolean matrix; None if not recorded."""
    if name not in trace:
        return None
    scores = trace[name]
    scores = scores[index] if index and scores.dim() > 2 else scores
    return to_numpy(scores) == float("-inf")


def show_heads(weights: torch.Tensor, rows: Sequence[str], cols: Sequence[str], *,
               masked: np.ndarray | torch.Tensor | None = None) -> None:
    """One heatmap per head of a (heads, queries, keys) weights tensor, masked cells hatched."""
    if isinstance(masked, torch.Tensor):
        masked = masked.numpy()
    show_chart(charts.head_grid(to_numpy(weights), rows, cols, masked=masked))


def show_vector(trace: Trace, name: str, labels: Sequence[str], *, title: str | None = None,
                value_title: str = "value", domain: tuple[float, float] | None = None) -> None:
    step = trace.step(name)
    show_chart(
        charts.bars(to_numpy(step.tensor), labels, title=title or name, value_title=value_title,
                    domain=domain),
        width="stretch",
    )


def show_shapes(trace: Trace, names: Sequence[str] | None = None) -> None:
    rows = [
        {"step": s.name, "shape": str(s.shape), "axes": s.shape_text(), "meaning": s.meaning}
        for s in trace
        if names is None or s.name in names
    ]
    st.table(pd.DataFrame(rows).set_index("step"))


def show_comparisons(trace: Trace, tol: float = 1e-5) -> None:
    for c in trace.comparisons:
        ok = c.max_abs_diff <= tol
        badge = ":green-badge[agree]" if ok else ":red-badge[differ]"
        st.markdown(
            f"{badge} **{c.label_a}** vs **{c.label_b}**: largest absolute difference "
            f"`{c.max_abs_diff:.3g}`{' (the same up to float rounding)' if ok else ''}"
        )


def show_source(*objects: object, label: str = "The code that ran") -> None:
    """The package's own source for the step on screen (what ran is what is shown)."""
    with st.expander(label):
        for obj in objects:
            try:
                source = inspect.getsource(obj)  # type: ignore[arg-type]
            except (OSError, TypeError):
                continue
            module = getattr(obj, "__module__", "")
            st.caption(f"`{module}.{getattr(obj, '__qualname__', '')}`")
            st.code(source, language="python")


def show_row(trace: Trace, name: str, row: int, labels: Sequence[str], *, title: str,
             value_title: str = "weight", domain: tuple[float, float] | None = (0, 1)) -> None:
    """One row of a 2-D step as bars (e.g. one query's weights)."""
    values = to_numpy(trace[name])[row]
    show_chart(charts.bars(values, labels, title=title, value_title=value_title, domain=domain), width="stretch")
