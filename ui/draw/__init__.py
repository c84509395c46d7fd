"""Drawing: a trace's named tensors become charts, printed tensors and code excerpts.

``charts`` builds Vega-Lite specs from plain data (no Streamlit; its parts are the ``chart_*`` modules), ``source``
finds the lines of the ``attention`` package that computed a step, and ``show`` draws them, with ``layout``,
``tensors``, ``formula`` and ``listing`` beside it for what sits around the charts. Page scripts import the
``show_*`` functions from here.
"""

from .formula import breakable, show_formula
from .layout import folded, narrow_screen, script_component, side_by_side, step_heading
from .listing import show_source, show_step_code
from .printed import tensor_text
from .show import per_head, show_chart, show_heads, show_matrix, show_row, show_step, show_vector
from .tensors import (
    PRINTED_SELECTOR,
    print_tensor,
    printed_in,
    show_comparisons,
    show_shapes,
    show_table,
    show_tensor,
    show_tensors,
)

__all__ = [
    "PRINTED_SELECTOR", "breakable", "folded",
    "narrow_screen", "per_head", "print_tensor", "printed_in", "script_component", "show_chart", "show_comparisons",
    "show_formula", "show_heads",
    "show_matrix", "show_row", "show_shapes", "show_source", "show_step", "show_step_code", "show_table", "show_tensor",
    "show_tensors", "show_vector", "side_by_side", "step_heading", "tensor_text",
]
