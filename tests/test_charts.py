"""Chart builders: valid Vega-Lite, the rules the pages rely on, and aggregation of big matrices."""

from __future__ import annotations

import json

import numpy as np
import pytest
from altair.utils.schemapi import validate_jsonschema
from altair.vegalite.v6.schema import load_schema

from ui.draw import charts

SCHEMA = load_schema()
LABELS = ["Your", "journey", "starts", "with", "one", "step"]


def valid(spec: dict) -> dict:
    """The spec's structure against Vega-Lite's schema, with each dataset cut to its first record (the schema takes
    any records: checking 6,400 of them cost a second a grid), and each dataset's shape by plain assertion: a list
    of records that all have the first one's fields."""
    datasets = spec.get("datasets", {})
    for name, rows in datasets.items():
        assert isinstance(rows, list) and rows, name
        assert all(isinstance(r, dict) and r.keys() == rows[0].keys() for r in rows), name
    structure = {**spec, "datasets": {name: rows[:1] for name, rows in datasets.items()}} if datasets else spec
    validate_jsonschema(json.loads(json.dumps(structure)), SCHEMA)  # raises on any schema error
    json.dumps(spec, allow_nan=False)  # the whole spec is plain JSON, as the browser gets it
    return spec


def test_weights_heatmap_scale_values_and_tooltips():
    w = np.full((6, 6), 1 / 6)
    spec = valid(charts.heatmap(w, LABELS, LABELS, title="w"))
    color = spec["layer"][0]["encoding"]["color"]
    assert color["scale"]["domain"] == {"expr": "[0, cells_top]"}  # from 0 to the largest weight
    (param,) = spec["params"]
    assert param["name"] == "cells_top" and "data('cells')" in param["expr"]
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert texts and texts[-1]["encoding"]["text"]["field"] == "label"  # values written in the cells
    assert [t["title"] for t in spec["encoding"]["tooltip"]] == ["query", "key", "value"]
    cell = spec["datasets"]["cells"][1]
    assert (cell["row"], cell["col"], cell["label"]) == ("Your", "journey", "0.1667")


def test_masked_cells_are_not_zero_weights():
    w = np.tril(np.ones((6, 6))) / np.arange(1, 7)[:, None]
    masked = np.triu(np.ones((6, 6), dtype=bool), 1)
    spec = valid(charts.heatmap(w, LABELS, LABELS, masked=masked))
    cells = spec["datasets"]["cells"]
    assert sum(c["masked"] for c in cells) == 15
    assert all(c["label"] == "masked" and c["value"] is None for c in cells if c["masked"])
    assert spec["layer"][0]["encoding"]["color"]["condition"] == {"test": "datum.masked",
                                                                  "value": charts.MASKED_COLOUR}
    # -inf scores count as masked too
    scores = np.where(masked, -np.inf, 0.5)
    assert sum(c["masked"] for c in charts.heatmap(scores, LABELS, LABELS, kind="scores")["datasets"]["cells"]) == 15


def test_scores_use_a_symmetric_diverging_scale():
    s = np.array([[1.0, -3.0], [2.0, 0.5]])
    spec = valid(charts.heatmap(s, ["a", "b"], ["a", "b"], kind="scores"))
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    assert scale["domain"] == {"expr": "[-cells_bound, cells_bound]"}  # symmetric around 0
    (param,) = spec["params"]
    assert param["name"] == "cells_bound" and "data('cells')" in param["expr"]  # from the data itself
    cells = spec["datasets"]["cells"]
    # white text where it contrasts more than black with the colour painted (ui/draw/colours.py):
    # -3 is the darkest blue; 2 is a mid red on which black reads better (5.0:1 against 4.2:1)
    assert [c["strong"] for c in cells] == [False, True, False, False]


def spec_without_data(spec: dict) -> str:
    return json.dumps({k: v for k, v in spec.items() if k != "datasets"}, sort_keys=True)


def spec_without_name(spec: dict) -> str:
    """The spec but its data and its accessible name (which says the chart's size)."""
    return json.dumps({k: v for k, v in spec.items() if k not in ("datasets", "description")}, sort_keys=True)


@pytest.mark.parametrize("kind", ["weights", "scores", "values"])
@pytest.mark.parametrize("n", [6, 40, 300])
def test_the_spec_does_not_depend_on_the_values(kind, n):
    """New values change only the datasets, so the browser updates a drawn chart in place."""
    rng = np.random.default_rng(n)
    labels = [f"t{i}" for i in range(n)]
    a, b = rng.random((n, n)), 10 * rng.standard_normal((n, n))
    if kind == "weights":
        b = np.abs(b) / np.abs(b).sum(axis=1, keepdims=True)
    spec_a = valid(charts.heatmap(a, labels, labels, kind=kind, title="t"))
    spec_b = valid(charts.heatmap(b, labels, labels, kind=kind, title="t"))
    assert spec_without_data(spec_a) == spec_without_data(spec_b)
    assert spec_a["datasets"] != spec_b["datasets"]
    grid_a = valid(charts.head_grid(rng.random((4, n, n)), labels, labels))
    grid_b = valid(charts.head_grid(rng.random((4, n, n)), labels, labels))
    assert spec_without_data(grid_a) == spec_without_data(grid_b)
    assert sorted({c["head"] for c in grid_a["datasets"]["heads"]}) == [1, 2, 3, 4]
    bars_a = valid(charts.bars(a[0], labels, domain=(0, 1)))
    bars_b = valid(charts.bars(b[0], labels, domain=(0, 1)))
    assert spec_without_data(bars_a) == spec_without_data(bars_b)


def test_the_spec_does_not_depend_on_the_labels_or_a_width_that_still_shows_values():
    """Renamed tokens change only the datasets too, and d_out / d_model from 2 to 12 only the chart's
    accessible name besides (it says the size): the axes are sorted by position columns, and short
    labels stay upright in cells wide enough for values."""
    rng = np.random.default_rng(0)
    specs = [valid(charts.heatmap(rng.random((6, d)), tokens, [f"d{j}" for j in range(d)], kind="values", title="t"))
             for d, tokens in ((2, list("abcdef")), (8, ["Your", "journey", "starts", "with", "one", "step"]),
                               (12, [f"x{i}" for i in range(6)]))]
    assert spec_without_name(specs[0]) == spec_without_name(specs[1]) == spec_without_name(specs[2])
    assert [s["description"] for s in specs] == [f"Heatmap “t”: values, 6 × {d} (query × key)" for d in (2, 8, 12)]
    renamed = valid(charts.heatmap(rng.random((6, 8)), list("abcdef"), [f"d{j}" for j in range(8)], kind="values",
                                   title="t"))
    assert spec_without_data(renamed) == spec_without_data(specs[1])
    cells = specs[1]["datasets"]["cells"]  # the order the axes show comes from the data
    assert [c["col"] for c in cells if c["i"] == 0] == [f"d{j}" for j in range(8)]
    assert [c["row"] for c in cells if c["j"] == 0] == ["Your", "journey", "starts", "with", "one", "step"]
    bars = [valid(charts.bars(rng.random(n), [f"t{i}" for i in range(n)])) for n in (3, 6)]
    assert spec_without_name(bars[0]) == spec_without_name(bars[1])
    long_tokens = [f"token{j}" for j in range(12)]  # long labels across 12 columns still slant
    slanted = valid(charts.heatmap(rng.random((6, 12)), list("abcdef"), long_tokens, kind="values"))
    assert slanted["encoding"]["x"]["axis"]["labelAngle"] == -45


def test_large_matrices_are_averaged_and_say_so():
    big = np.random.default_rng(0).random((1024, 1024))
    labels = [f"t{i}" for i in range(1024)]
    spec = valid(charts.heatmap(big, labels, labels, title="weights"))
    assert len(spec["datasets"]["cells"]) == 64 * 64
    assert "averaged over 16×16 blocks" in spec["title"]
    data = charts.heatmap_data(big, labels, labels)
    np.testing.assert_allclose(data.values[0, 0], big[:16, :16].mean())
    assert not any(layer["mark"]["type"] == "text" for layer in spec["layer"])  # too many cells to write


def test_fully_masked_blocks_stay_masked_after_averaging():
    t = 256
    w = np.tril(np.ones((t, t)))
    masked = np.triu(np.ones((t, t), dtype=bool), 1)
    data = charts.heatmap_data(w, [str(i) for i in range(t)], [str(i) for i in range(t)], masked)
    assert data.block == (4, 4)
    grid = data.hidden
    assert grid.shape == (64, 64)
    assert grid[0, 1] and not grid[1, 0] and not grid[0, 0]


def test_head_grid_has_one_heatmap_per_head():
    w = np.random.default_rng(1).random((12, 6, 6))
    spec = valid(charts.head_grid(w, LABELS, LABELS))
    cells = spec["datasets"]["heads"]
    assert sorted({c["head"] for c in cells}) == list(range(1, 13))  # one panel per head
    assert len(cells) == 12 * 36
    head_5 = [c for c in cells if c["head"] == 5]
    assert [c["value"] for c in head_5] == pytest.approx(w[4].ravel().tolist())
    assert spec["facet"]["field"] == "head" and '"head " + datum.value' in spec["facet"]["header"]["labelExpr"]
    assert spec["resolve"]["scale"]["color"] == "shared"


def test_changing_the_number_of_heads_keeps_the_head_grid_spec():
    rng = np.random.default_rng(2)
    specs = [spec_without_data(valid(charts.head_grid(rng.random((h, 6, 6)), LABELS, LABELS))) for h in (1, 2, 4, 8)]
    assert all(spec == specs[0] for spec in specs)  # 1, 2, 4, 8 heads: one spec, the chart updates in place
    eight = charts.head_grid(rng.random((8, 6, 6)), LABELS, LABELS)
    tooltip = [t["field"] for t in eight["spec"]["encoding"]["tooltip"]]
    assert "label" in tooltip  # each cell's value is in its tooltip


def test_bars_and_bad_shapes():
    spec = valid(charts.bars([0.1, 0.9], ["a", "b"], domain=(0, 1)))
    assert spec["encoding"]["y"]["scale"]["domain"] == [0, 1]
    with pytest.raises(ValueError, match="2-D"):
        charts.heatmap_data(np.zeros(3), ["a"], ["b"])


def test_a_pattern_keeps_its_size_and_spec_when_its_columns_change():
    """The positional-encoding picture: d_model 8 -> 12 -> 64 redraws its cells in place (no resize)."""
    rng = np.random.default_rng(3)
    rows = [f"{p}" for p in range(6)]
    specs = [valid(charts.heatmap(rng.standard_normal((6, d)), rows, [f"d{j}" for j in range(d)], kind="values",
                                  pattern=True)) for d in (2, 8, 12, 64)]
    assert all(spec_without_name(s) == spec_without_name(specs[0]) for s in specs)
    assert specs[0]["width"] == charts.PATTERN_WIDTH
    assert not any(layer["mark"]["type"] == "text" for layer in specs[0]["layer"])  # values are in the tooltip


def test_the_colours_show_the_datas_spread_weights_from_0_to_their_largest_scores_out_to_their_largest():
    """Weights of 0.10-0.24 (3.3.2's) are no flat pale blue, and a score of 1.495 is no clamped cell."""
    weights = np.array([[0.10, 0.14, 0.18], [0.20, 0.22, 0.24]])
    scheme, where = charts._painted(charts.heatmap_data(weights, ["a", "b"], ["x", "y", "z"]), "weights")
    assert scheme == "blues" and where.max() == 1.0 and where.min() < 0.5  # on [0, 1] they spanned 0.10-0.24
    scores = np.array([[1.495, -0.2], [0.9544, 0.0]])
    scheme, where = charts._painted(charts.heatmap_data(scores, ["a", "b"], ["x", "y"]), "scores")
    assert scheme == "redblue" and where[0, 0] == 0.0 and 0.5 < where[0, 1] < 1  # the darkest red is the largest
    mask = charts._painted(charts.heatmap_data(np.array([[0.0, 1.0]]), ["a"], ["x", "y"]), "mask")[1]
    assert mask.tolist() == [[0.0, 1.0]]


def test_a_step_through_swaps_data_from_scores_to_weights_instead_of_building_a_new_chart():
    """Swappable charts: the kind and the title travel in the data, so one spec serves both steps."""
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(6, 6))
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    hidden = np.triu(np.ones((6, 6), dtype=bool), 1)
    a = valid(charts.heatmap(scores, LABELS, LABELS, title="scores", kind="scores", swappable=True))
    b = valid(charts.heatmap(weights, LABELS, LABELS, title="weights", kind="weights", masked=hidden,
                             swappable=True))
    assert spec_without_data(a) == spec_without_data(b)
    assert {c["kind"] for c in a["datasets"]["cells"]} == {"scores"}
    assert {c["title"] for c in b["datasets"]["cells"]} == {"weights"}
    scale = a["layer"][0]["encoding"]["color"]["scale"]  # chosen in the browser by the data's kind
    assert "[0, cells_top]" in scale["domain"]["expr"] and "blues" in scale["scheme"]["expr"]
    # a grid of heads as well, with the mask's hatching in both
    grid_a = valid(charts.head_grid(np.stack([scores, -scores]), LABELS, LABELS, kind="scores", title="scores",
                                    swappable=True))
    grid_b = valid(charts.head_grid(np.stack([weights, weights]), LABELS, LABELS, masked=hidden, title="weights",
                                    swappable=True))
    assert spec_without_data(grid_a) == spec_without_data(grid_b)
    assert grid_a["params"] and any(layer["mark"]["type"] == "text" for layer in grid_a["spec"]["layer"])


def test_without_swappable_the_kinds_keep_their_own_scales_and_titles():
    w = np.full((6, 6), 1 / 6)
    plain = valid(charts.heatmap(w, LABELS, LABELS, title="weights"))
    assert plain["title"] == "weights" and "kind" not in plain["datasets"]["cells"][0]
    colour = plain["layer"][0]["encoding"]["color"]
    assert colour["scale"] == {"domain": {"expr": "[0, cells_top]"}, "scheme": "blues", "clamp": True}
    assert colour["title"]
    scores = valid(charts.heatmap(w - 0.5, LABELS, LABELS, title="scores", kind="scores"))
    assert scores["layer"][0]["encoding"]["color"]["scale"]["scheme"] == "redblue"
    assert spec_without_data(plain) != spec_without_data(scores)  # a new kind is a new chart here


def test_every_chart_has_a_name_that_says_what_it_shows_its_size_and_its_mask():
    causal = np.triu(np.ones((6, 6), dtype=bool), 1)
    weights = valid(charts.heatmap(np.full((6, 6), 1 / 6), LABELS, LABELS, title="attn_weights", masked=causal))
    assert weights["description"] == ("Heatmap “attn_weights”: weights, 6 × 6 (query × key); causal mask: the cells "
                                      "above the diagonal are masked")
    padded = np.zeros((6, 6), dtype=bool)
    padded[:, 5] = True  # a padding mask is not the causal one: it is counted
    assert valid(charts.heatmap(np.ones((6, 6)), LABELS, LABELS, kind="scores", masked=padded)
                 )["description"].endswith("; masked: 6")
    dropped = np.eye(6, dtype=bool)
    assert "dropout" in charts.heatmap(np.ones((6, 6)), LABELS, LABELS, dropped=dropped)["description"]
    grid = valid(charts.head_grid(np.ones((2, 6, 6)), LABELS, LABELS, masked=causal))
    assert grid["description"].startswith("Heatmaps, one per head, each 6 × 6 (query × key); causal mask")
    bar = valid(charts.bars([0.2, 0.8, 0.0], ["a", "b", "c"], title="w", masked=np.array([False, False, True])))
    assert bar["description"] == "Bar chart “w”: value per token (3); masked: 1"
    swapped = valid(charts.heatmap(np.ones((6, 3)), LABELS, ["1", "2", "3"], kind="values", swappable=True,
                                   row_title="token", col_title="d_out"))
    assert swapped["description"] == "Heatmap, 6 × 3 (token × d_out)"  # what it shows is in its data and title


def test_each_cell_reads_as_a_sentence_and_a_masked_one_says_masked():
    causal = np.triu(np.ones((3, 3), dtype=bool), 1)
    w = np.array([[1.0, 0, 0], [0.4, 0.6, 0], [0.2, 0.3, 0.5]])
    spec = charts.heatmap(w, ["Your", "{x}", "starts"], ["Your", "{x}", "starts"], masked=causal,
                          dropped=np.array([[False] * 3, [False] * 3, [True, False, False]]))
    says = [c["says"] for c in spec["datasets"]["cells"]]
    assert says[:4] == ["query Your, key Your: weight 1.0000.", "query Your, key {x}: masked.",
                        "query Your, key starts: masked.", "query {x}, key Your: weight 0.4000."]
    assert says[6] == "query starts, key Your: dropped by dropout, so 0."
    rect = spec["layer"][0]
    assert rect["encoding"]["description"] == {"field": "says", "type": "nominal"}
    assert rect["mark"]["invalid"] == "show"  # a masked cell (no value) is drawn, and read, too
    assert all(layer["mark"].get("aria") is False for layer in spec["layer"][1:])  # one reading per cell
    grid = charts.head_grid(np.stack([w, w]), ["a", "b", "c"], ["a", "b", "c"])
    assert grid["datasets"]["heads"][9]["says"] == "head 2: query a, key a: weight 1.0000."


def test_a_chart_reads_as_a_table_with_row_and_column_headers():
    causal = np.triu(np.ones((3, 3), dtype=bool), 1)
    (table,) = charts.tables(charts.heatmap(np.eye(3), ["a", "b", "c"], ["a", "b", "c"], masked=causal, title="w"))
    assert table.corner == "query \\ key" and table.columns == ["a", "b", "c"]
    assert table.rows == [("a", ["1.0000", "masked", "masked"]), ("b", ["0.0000", "1.0000", "masked"]),
                          ("c", ["0.0000", "0.0000", "1.0000"])]
    assert table.caption.startswith("Heatmap “w”: weights, 3 × 3")
    heads = charts.tables(charts.head_grid(np.ones((4, 3, 3)), ["a", "b", "c"], ["a", "b", "c"]))
    assert len(heads) == 4 and heads[3].caption.endswith("head 4")
    (bars,) = charts.tables(charts.bars([0.25, 0.75], ["a", "b"], value_title="weight"))
    assert bars.columns == ["weight"] and bars.rows == [("a", ["0.2500"]), ("b", ["0.7500"])]
    swapped = charts.tables(charts.heatmap(np.eye(3), ["a", "b", "c"], ["a", "b", "c"], title="attn_scores",
                                           kind="scores", swappable=True))
    assert swapped[0].caption.startswith("attn_scores (score) · Heatmap, 3 × 3")
    big = charts.heatmap(np.ones((40, 40)), [str(i) for i in range(40)], [str(i) for i in range(40)])
    assert charts.tables(big) == []  # 1,600 cells: no one reads that aloud (the chart's name still says its size)


def test_a_chart_writes_its_numbers_as_the_reader_does():
    """Cell labels and what a screen reader hears: 0,9995 in id and vi, 0.9995 in en and ko (m2, m11)."""
    from ui.draw.charts import heatmap
    from ui.words import content
    from ui.words.content import follow_language

    values = np.array([[0.9995, 1.495], [0.25, 0.5]], dtype=np.float32)
    before = content._language_source
    try:
        for lang, shown in (("id", "0,9995"), ("vi", "0,9995"), ("ko", "0.9995"), ("en", "0.9995")):
            follow_language(lambda lang=lang: lang)
            records = heatmap(values, ["a", "b"], ["a", "b"], kind="scores")["datasets"]["cells"]
            assert records[0]["label"] == shown and shown in records[0]["says"]
    finally:
        follow_language(before)


def test_a_huge_value_is_written_short_enough_for_its_cell_and_bar():
    """9999 typed in a cell gives scores near 1e8: "99980000.0000" overflowed its cell (m11)."""
    from ui.draw.charts import bars, heatmap
    from ui.words import content
    from ui.words.content import follow_language

    values = np.array([[99_980_000.0, -12_345.678], [9999.5, 0.25]], dtype=np.float32)
    before = content._language_source
    try:
        for lang, first, second in (("en", "9.998e7", "-1.235e4"), ("id", "9,998e7", "-1,235e4")):
            follow_language(lambda lang=lang: lang)
            cells = heatmap(values, ["a", "b"], ["a", "b"], kind="scores")["datasets"]["cells"]
            assert [c["label"] for c in cells] == [first, second, f"9999{first[1]}5000", f"0{first[1]}2500"]
            assert all(len(c["label"]) <= 9 for c in cells)
            spec = bars(values[0], ["a", "b"], title="t", value_title="score")
            labels = [r["label"] for r in next(iter(spec["datasets"].values()))]
            assert labels == [first, second]
    finally:
        follow_language(before)


def test_a_charts_heading_is_its_title_in_words_wherever_the_spec_keeps_it():
    """The heading a screen reader jumps to (ui/draw/show.py): the spec's title; a swappable chart's, whose title
    is an expression over its data, from the data; a chart without a title, its accessible name."""
    values = np.array([[0.5, 0.5], [0.25, 0.75]])
    assert charts.heading(charts.heatmap(values, ["a", "b"], ["a", "b"], title="Weights α")) == "Weights α"
    swapped = charts.heatmap(values, ["a", "b"], ["a", "b"], title="scaled scores", swappable=True)
    assert isinstance(swapped["title"], dict) and charts.heading(swapped) == "scaled scores"
    assert charts.heading(charts.bars([0.5, 0.5], ["a", "b"], title="α(2, j)")) == "α(2, j)"
    untitled = charts.heatmap(values, ["a", "b"], ["a", "b"])
    assert charts.heading(untitled) == untitled["description"] != ""
