"""Drawing: a trace's named tensors become charts, printed tensors and code excerpts.

``charts`` builds Vega-Lite specs from plain data (no Streamlit), ``source`` finds the lines of
the ``attention`` package that computed a step, and ``show`` draws them. Page scripts import the
``show_*`` functions from here.
"""

from .show import (
    PRINTED_SELECTOR,
    breakable,
    folded,
    narrow_screen,
    per_head,
    print_tensor,
    printed_in,
    script_component,
    show_chart,
    show_comparisons,
    show_formula,
    show_heads,
    show_matrix,
    show_row,
    show_shapes,
    show_source,
    show_step,
    show_step_code,
    show_table,
    show_tensor,
    show_vector,
    side_by_side,
    step_heading,
    tensor_text,
)

__all__ = [
    "PRINTED_SELECTOR", "breakable", "folded",
    "narrow_screen", "per_head", "print_tensor", "printed_in", "script_component", "show_chart", "show_comparisons",
    "show_formula", "show_heads",
    "show_matrix", "show_row", "show_shapes", "show_source", "show_step", "show_step_code", "show_table", "show_tensor",
    "show_vector", "side_by_side", "step_heading", "tensor_text",
]
