"""What a screen reader reads of a chart built here: its heading, and its values as tables with row and column
headers (ui/draw/show.py draws them beside the chart, unseen; the follower view (ui/follow/render.py) sends them
with the chart's picture).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..words.content import app_text
from .chart_cells import kind_word

__all__ = ["MAX_TABLE_CELLS", "Table", "heading", "tables"]

MAX_TABLE_CELLS = 1024  # a chart of more cells (up to 64 x 64 blocks) gets no table: no one reads 4,096 cells aloud


@dataclass(frozen=True)
class Table:
    """A chart's values as a table with row and column headers, for a screen reader (plain data)."""

    caption: str
    corner: str  # the header above the row headers: "query \\ key"
    columns: list[str]
    rows: list[tuple[str, list[str]]]  # (row header, the row's cells as labels: "0.1646", "masked", ...)


def heading(spec: dict) -> str:
    """A chart's title in words, for the heading a screen reader jumps to: a swappable chart's comes from its data
    (its spec's title is an expression), and a chart without a title is called by its accessible name."""
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    if isinstance(title, str) and title:
        return title
    records = next(iter(spec.get("datasets", {}).values()), [])
    if records and isinstance(records[0], dict) and records[0].get("title"):
        return str(records[0]["title"])
    return str(spec.get("description", ""))


def tables(spec: dict) -> list[Table]:
    """The tables a chart built here reads as: one per heatmap (per head in a grid), one for bars."""
    name, (records,) = spec.get("description", ""), spec["datasets"].values()
    if not records or len(records) > MAX_TABLE_CELLS:
        return []
    first = records[0]
    if "title" in first and "kind" in first and "i" in first:  # swappable: the data says what it shows
        name = f"{first['title']} ({kind_word(first['kind'])}) · {name}"
    caption = app_text("a11y_table", name=name)
    if "token" in first:
        title = spec["encoding"]["y"]["title"]
        return [Table(caption, app_text("axis_token"), [title], [(r["token"], [r["label"]]) for r in records])]
    if "answer" in first:
        y, x = spec["encoding"]["y"]["title"], spec["encoding"]["x"]["title"]
        return [Table(caption, y, [x, spec["encoding"]["color"]["title"]],
                      [(r["answer"], [str(r["n"]), r["kind"]]) for r in records])]
    encoding = spec.get("spec", spec)["encoding"]
    corner = f"{encoding['y']['title']} \\ {encoding['x']['title']}"
    if "head" not in first:
        return [_grid_table(caption, corner, records)]
    heads = sorted({r["head"] for r in records})
    return [_grid_table(f"{caption} {app_text('head_label')} {h}", corner, [r for r in records if r["head"] == h])
            for h in heads]


def _grid_table(caption: str, corner: str, records: list[dict]) -> Table:
    columns = [r["col"] for r in sorted({r["j"]: r for r in records}.values(), key=lambda r: r["j"])]
    rows: dict[int, tuple[str, list[str]]] = {}
    for r in records:  # row by row, column by column (as _cell_records lists them)
        rows.setdefault(r["i"], (r["row"], []))[1].append(r["label"])
    return Table(caption, corner, columns, list(rows.values()))
