"""What every chart spec built here shares: the Vega-Lite schema, the text sizes of a laptop and of a projection,
the grey of a hidden cell, and axis labels that name one position each.

Apart from the builders (chart_heatmap.py, chart_grids.py) and the cells' records (chart_cells.py) so that each
of them takes these from one place: a heatmap, a grid of heads, bars and a poll's answers then read alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["MASKED_COLOUR", "SCHEMA", "TEXT_SIZES", "positional_labels", "styled"]

MASKED_COLOUR = "#cfcfcf"


def positional_labels(labels: Sequence[str]) -> list[str]:
    """The tokens as axis labels that name one position each: a repeated token gets its position.

    Vega-Lite draws one band per distinct label, so "the cat sat on the mat" would lose a row and a
    column if the two "the" were the same label: ``["the (1)", "cat", "sat", "on", "the (5)", "mat"]``.
    Every chart builder labels its axes through this.
    """
    labels = [str(label) for label in labels]
    counts = Counter(labels)
    named = [f"{label} ({i + 1})" if counts[label] > 1 else label for i, label in enumerate(labels)]
    if len(set(named)) < len(named):  # "x (5)" given as a token, beside a fifth "x": number every position
        named = [f"{label} ({i + 1})" for i, label in enumerate(labels)]
    return named


SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"

# Text sizes (px) on a laptop and projected in a lecture hall: at least 20 px, readable from the back of a
# 60-seat room at 1280x720 (the projection scales its charts up to its column, never below these).
TEXT_SIZES = {
    False: {"cell": 11, "axis": 11, "axis_title": 12, "legend": 11, "title": 13},
    True: {"cell": 20, "axis": 20, "axis_title": 20, "legend": 20, "title": 22},
}


def styled(spec: dict, lecture: bool = False) -> dict:
    """The spec with the text sizes of the mode (a Vega-Lite ``config``; cells grow in lecture mode)."""
    size = TEXT_SIZES[lecture]
    spec["config"] = {
        "text": {"fontSize": size["cell"]},
        "axis": {"labelFontSize": size["axis"], "titleFontSize": size["axis_title"]},
        "legend": {"labelFontSize": size["legend"], "titleFontSize": size["legend"]},
        "title": {"fontSize": size["title"]},
        "header": {"labelFontSize": size["title"]},
    }
    return spec
