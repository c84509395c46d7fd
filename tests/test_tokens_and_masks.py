"""Token identity is positional on every chart, and masked cells read "masked" on every page that masks.

- A chart draws one band per distinct label, so two tokens spelled alike must never share a label:
  every chart builder labels its axes through ``positional_labels`` ("the (1)", "the (5)").
- "Masked, not zero": wherever a step carries the causal mask, its hidden cells are labelled
  "masked" in the chart's data (heatmaps, per-head grids and one query's bars alike), and cells
  that dropout zeroed are labelled "dropped", not "masked".
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest import charts, open_page
from ui.chapter import PAGES
from ui.draw import charts as builders
from ui.inputs.matrix import from_rows
from ui.state import Key

SENTENCE = "the cat sat on the mat".split()


def axis_labels(records: list[dict]) -> dict[str, set]:
    """The distinct labels of each axis field a chart's records carry."""
    return {field: {r[field] for r in records} for field in ("row", "col", "token") if records and field in records[0]}


def test_positional_labels_keep_every_position():
    assert builders.positional_labels(SENTENCE) == ["the (1)", "cat", "sat", "on", "the (5)", "mat"]
    assert builders.positional_labels(["a", "b"]) == ["a", "b"]
    tricky = builders.positional_labels(["x (2)", "x", "x"])
    assert len(set(tricky)) == 3


@pytest.mark.parametrize("kind", ["heatmap", "head_grid", "bars"])
def test_every_chart_kind_draws_a_repeated_token_once_per_position(kind):
    n = len(SENTENCE)
    values = np.random.default_rng(0).random((2, n, n))
    if kind == "heatmap":
        spec = builders.heatmap(values[0], SENTENCE, SENTENCE)
    elif kind == "head_grid":
        spec = builders.head_grid(values, SENTENCE, SENTENCE)
    else:
        spec = builders.bars(values[0, 0], SENTENCE)
    records = next(iter(spec["datasets"].values()))
    assert all(len(labels) == n for labels in axis_labels(records).values()), axis_labels(records)


def test_the_text_page_draws_six_rows_and_columns_for_the_cat_sat_on_the_mat():
    at = open_page("text-to-attention")
    at.text_area[0].set_value("The cat sat on the mat").run()
    grids = [data["heads"] for spec, data in charts(at) if "heads" in data]
    assert grids, "no per-head chart drawn"
    for records in grids:
        for head in {r["head"] for r in records}:
            cells = [r for r in records if r["head"] == head]
            assert len({r["row"] for r in cells}) == 6 and len({r["col"] for r in cells}) == 6


@pytest.mark.parametrize("page_id", [p.page_id for p in PAGES if p.page_id not in ("home", "walkthrough")])
def test_every_chart_on_every_section_keeps_repeated_tokens_apart(page_id):
    """The learner's own matrix with "the" twice: no chart of any page merges the two."""
    matrix = from_rows(["the", "cat", "the", "mat"], [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9],
                                                      [0.2, 0.1, 0.0]], max_tokens=8, max_dim=8)
    at = open_page(page_id, state={Key.MATRIX: matrix})
    assert not at.exception
    for spec, data in charts(at):
        for records in data.values():
            for field, labels in axis_labels(records).items():
                positions = {r["i" if field == "row" else "j"] for r in records} if field != "token" else \
                    {r["i"] for r in records}
                assert len(labels) == len(positions), (page_id, spec.get("title"), field, labels)


MASKING_PAGES = {  # page -> the controls that turn the mask on
    "one-query": {"causal": True}, "all-queries": {"causal": True}, "trainable-steps": {"causal": True},
    "self-attention-classes": {"causal": True}, "causal-mask": {}, "dropout": {}, "causal-class": {},
    "stacking-heads": {}, "weight-splits": {}, "efficient": {},
}


@pytest.mark.parametrize("page_id", list(MASKING_PAGES))
def test_masked_cells_are_labelled_masked_on_every_page_that_masks(page_id):
    controls = {Key.CONTROLS: {page_id: MASKING_PAGES[page_id]}} if MASKING_PAGES[page_id] else {}
    at = open_page(page_id, state=controls)
    assert not at.exception and not at.error
    masked = [r for _, data in charts(at) for records in data.values() for r in records if r.get("masked")]
    assert masked, f"{page_id}: no chart marks a masked cell"
    assert all(r["label"] == "masked" and r["value"] is None for r in masked)


def test_dropout_tells_dropped_cells_from_masked_ones():
    at = open_page("dropout")  # causal on, p = 0.5: the book's example
    weights = [data for spec, data in charts(at) if spec.get("title") and "cells" in data][-1]["cells"]
    labels = {r["label"] for r in weights}
    assert {"masked", "dropped"} <= labels
    masked = {(r["i"], r["j"]) for r in weights if r["label"] == "masked"}
    assert masked == {(i, j) for i in range(6) for j in range(6) if j > i}  # the upper triangle, nothing else
    dropped = [r for r in weights if r["label"] == "dropped"]
    assert dropped and all(not r["masked"] and r["value"] == 0 for r in dropped)
