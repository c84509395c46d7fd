"""The controls every page shares (the query, the normalisation, the causal mask, dropout, the module's shape, the
seed...), each a widget whose value survives page switches, and the settings they make.

Apart from the controller (controller.py): :class:`PageControls` is what a page script calls to draw its controls,
and the :class:`ui.page.Page` it is handed inherits them.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import streamlit as st
import torch

from attention import NORMALISATIONS, AttentionConfig
from attention.explore import RunOptions

from .. import announce, state
from ..settings import limits
from ..words.content import app_text, reader_number
from ..words.i18n import explain, translate
from . import state as page_state

__all__ = ["LaterSettings", "ModuleSettings", "PageControls", "normalisation_name"]


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


class PageControls:
    """A page's controls, on its matrix and its stored values (the learner's, the walkthrough's, or a state held
    apart): the part of :class:`ui.page.Page` a page script draws its controls with."""

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
        """The controls are not drawn (a student's exploration, shown on the projection): their values are
        the stored ones, checked as a widget would check them."""
        return self.driver is not None and self.driver.quiet

    @property
    def _fixed(self) -> bool:
        """The page runs on a state held apart from the session's (ui.page.Fixed)."""
        return self.driver is not None and self.driver.fixed is not None

    def stored(self) -> dict[str, Any]:
        """The page's control values as the page reads them: a fixed state's, the walkthrough's, or the learner's."""
        return self._finder()()

    def _finder(self) -> Callable[[], dict[str, Any]]:
        """What :meth:`stored` reads, found again without the page: a widget's callback is kept in the session until
        the next run, with all it refers to, and a page refers to its results (80 MB a session at GPT-2's size)."""
        if self._fixed:
            controls = self.driver.fixed.controls
            return lambda: controls
        page_id, walked = self.page_id, self.driver is not None
        return lambda: page_state.page_controls(page_id, walked)

    def control(self, name: str, default: Any, widget: Callable[..., Any], label: str, **kw: Any) -> Any:
        value = page_state.control(self.page_id, name, default, widget, label, store=self._finder(),
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
        if self.driver is None:  # a lecture's step is said as the lecture's move
            announce.note("dropout", announce.dropout_sentence(float(p), bool(training)))
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


def normalisation_name(method: str) -> str:
    """How a normalisation is called on screen."""
    return {"sum": app_text("normalisation_sum"), "softmax_naive": app_text("normalisation_softmax_naive"),
            "softmax": app_text("normalisation_softmax")}[method]

