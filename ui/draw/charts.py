"""Chart builders: plain data in, a Vega-Lite spec (a plain dict) out.

The specs are what Altair would produce, written directly: building and validating a
heatmap with Altair costs about 35 ms on the target CPU (schema validation and deep
copies), three heatmaps a rerun add ~100 ms, more than the minimal app's whole round
trip. The tests validate every spec against Altair's bundled Vega-Lite schema instead,
once, so the rules are still checked.

The data travels in named ``datasets`` and the spec itself depends only on the kind of
chart, its titles and its size class, never on the values or the labels: the axes are
sorted by a position column (``i``, ``j``) of the data, not by a list of labels. Streamlit
sends named datasets beside the spec, and when the spec of a chart is unchanged the browser
swaps the data into the chart already drawn instead of compiling and drawing a new one. So a
new seed, an edited cell, a renamed token or another d_out costs a data update per chart,
not a new chart. The step-through goes further (``swappable``): its charts carry their title and
kind in the data and pick the colour scale in the browser, so going from one step to the next
of the same shape (scores to weights) swaps data too.

Heatmaps write the value in each cell when there are few enough cells to
read, name the query and key tokens in the tooltip, draw weights on a colour
scale from 0 to their largest (a row of weights near 1/6 still shows its pattern; the legend says
the top), scores and values on a scale symmetric around 0 out to their largest magnitude, and draw
masked cells in hatched grey with a "masked" label so they never look like a weight of zero.
Matrices too large to read are averaged in blocks first, and the chart title says so.

The builders live beside this module, one concern each, and this module gathers their public names, so that
``from ui.draw.charts import heatmap`` and ``charts.tables(spec)`` read the same wherever the charts are drawn:
``chart_spec`` (the schema, text sizes, the masked grey, positional labels), ``chart_cells`` (what a heatmap
shows, cell by cell, and its accessible name), ``chart_heatmap`` (one heatmap's spec), ``chart_grids`` (grids
of heads, bars, a poll's answers) and ``chart_tables`` (a chart's heading and tables for a screen reader).
"""

from __future__ import annotations

from .chart_cells import KINDS, HeatmapData, heatmap_data, heatmap_name, hidden_note, kind_word
from .chart_cells import _painted as _painted  # tests/test_charts.py checks the colours the cells' text is on
from .chart_grids import POLL_COLOURS, answers_chart, bars, head_grid
from .chart_heatmap import MAX_CELLS_WITH_TEXT, PATTERN_WIDTH, heatmap
from .chart_spec import MASKED_COLOUR, positional_labels
from .chart_tables import Table, heading, tables

__all__ = ["HeatmapData", "heatmap_data", "heatmap", "head_grid", "bars", "positional_labels", "MAX_CELLS_WITH_TEXT",
           "Table", "tables", "heatmap_name", "hidden_note", "kind_word",
           "KINDS", "MASKED_COLOUR", "PATTERN_WIDTH", "POLL_COLOURS", "answers_chart", "heading"]
