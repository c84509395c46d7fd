"""CSV export of a page's results (tidy long form: one row per tensor element)."""

from __future__ import annotations

import csv
import io

import numpy as np

from attention import Trace

__all__ = ["trace_to_csv", "MAX_EXPORT_ELEMENTS"]

MAX_EXPORT_ELEMENTS = 500_000


def trace_to_csv(trace: Trace, *, prefix: str = "", max_elements: int = MAX_EXPORT_ELEMENTS) -> str:
    """Columns: step, shape, axes, index, value. Steps beyond the size budget are listed, not expanded."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["step", "shape", "axes", "index", "value"])
    budget = max_elements
    for step in trace:
        values = step.tensor.detach().cpu().float().numpy()
        shape = "x".join(map(str, values.shape)) or "scalar"
        axes = "|".join(step.dims)
        if values.size > budget:
            writer.writerow([prefix + step.name, shape, axes, "omitted: too large to export", ""])
            continue
        budget -= values.size
        for index in np.ndindex(values.shape):
            writer.writerow([prefix + step.name, shape, axes, ",".join(map(str, index)), f"{values[index]:.6g}"])
    return out.getvalue()
