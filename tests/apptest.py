"""Opening the app on one page with Streamlit's AppTest and reading what it shows, shared by the AppTest suites."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from ui.chapter import PAGES
from ui.draw import printed_in

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BY_ID = {p.page_id: p for p in PAGES}


def open_page(page_id: str, *, state: dict[str, Any] | None = None, params: dict[str, str] | None = None) -> AppTest:
    """A fresh session on ``page_id``: session ``state`` and query ``params`` set before its first run, which is
    the page's, as a browser's deep link is (the home page is not run first)."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.switch_page(BY_ID[page_id].file)
    at.run()
    return at


def printed_tensors(at: AppTest) -> list[str]:
    """The tensors a run printed (ui/draw/tensors.py: print_tensor), as the learner reads them."""
    return [text for el in at.get("html") for text in printed_in(el.proto.body)]


def chart_cells(at: AppTest) -> list[list[dict[str, Any]]]:
    """Every chart's data as drawn: each dataset's records (full-precision values, labels, masked cells)."""
    return [pa.ipc.open_stream(d.data.data).read_all().to_pylist()
            for chart in at.get("vega_lite_chart") for d in chart.proto.datasets]


def shown_numbers(at: AppTest) -> dict[str, list]:
    """The numbers a run shows: its printed tensors, its charts' cells, and its charts' values as the screen-reader
    tables read them. Two windows that show the same step of the same state show equal numbers."""
    tables = [t for h in at.get("html") for t in re.findall(r"<table>.*?</table>", h.proto.body, flags=re.S)]
    return {"printed": printed_tensors(at), "charts": chart_cells(at), "tables": tables}


def shown_text(at: AppTest) -> str:
    """Every value a run shows as text: printed tensors, code, markdown, errors, tables and metrics."""
    parts = printed_tensors(at) + [c.value for c in at.code] + [m.value for m in at.markdown]
    parts += [str(e.value) for e in at.error]
    parts += [str(df.value) for df in at.dataframe] + [str(t.value) for t in at.table]
    parts += [str(m.value) for m in at.metric]
    return "\n".join(parts)


def code_text(at: AppTest) -> str:
    """Every printed tensor and code listing of a run (tensors first, each kind in page order)."""
    return "".join(printed_tensors(at) + [c.value for c in at.code])


def charts(at: AppTest) -> list[tuple[dict, dict[str, list[dict]]]]:
    """Every chart of a run: its Vega-Lite spec and its named datasets as records, as the browser gets them."""
    found = []
    for chart in at.get("vega_lite_chart"):
        data = {d.name: pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in chart.proto.datasets}
        found.append((json.loads(chart.proto.spec), data))
    return found


# The values the book prints, page by page, as the default page shows them (tests/test_app.py, and every
# language in tests/test_i18n.py).
BOOK_VALUES = {
    "one-query": [
        "tensor([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])",
        "tensor([0.1455, 0.2278, 0.2249, 0.1285, 0.1077, 0.1656])",
        "tensor([0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581])",
        "tensor([0.4419, 0.6515, 0.5683])",
    ],
    "all-queries": [
        "[0.9995, 0.9544, 0.9422, 0.4753, 0.4576, 0.6310]",
        "[0.6310, 1.0865, 1.0605, 0.6565, 0.2935, 0.9450]",
        # the heatmap waits for the learner's prediction (tests/test_check.py); the printed weights do not
        "[0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452]",
        "[0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896]",
        "[0.4421, 0.5931, 0.5790]",
        "[0.4177, 0.6503, 0.5645]",
    ],
    "trainable-steps": [
        "tensor([0.4306, 1.4551])",
        "tensor([0.4433, 1.1419])",
        "tensor([0.3951, 1.0037])",
        "tensor(1.8524)",
        "tensor([1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440])",
        "tensor([0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])",
        "tensor([0.3061, 0.8210])",
    ],
    "self-attention-classes": [
        "[0.2996, 0.8053]",
        "[0.2990, 0.8040]",
        "[-0.0739,  0.0713]",
        "[-0.0754,  0.0693]",
    ],
    "causal-mask": [
        "[0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510]",
        "[0.5517, 0.4483, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0.0000]",
        "[0.2899,   -inf,   -inf,   -inf,   -inf,   -inf]",
        "[0.3408, 0.1270, 0.1290, 0.0198, 0.1290, 0.0078]",
    ],
    "dropout": [
        "[[2., 2., 0., 2., 2., 0.]",
        "[0., 2., 2., 2., 2., 0.]]",
        "[0.7599, 0.6194, 0.6206, 0.0000, 0.0000, 0.0000]",
        "[0.0000, 0.3327, 0.3331, 0.3084, 0.3331, 0.0000]",
    ],
    "causal-class": ["[-0.4519,  0.2216]", "[-0.5299, -0.1081]", "(2, 6, 3)"],
    "stacking-heads": [
        "[-0.4519,  0.2216,  0.4772,  0.1063]",
        "[-0.5299, -0.1081,  0.5077,  0.3493]",
    ],
    "weight-splits": [
        "[0.3190, 0.4858]", "[0.2575, 0.4028]",  # (Exercise 3.3's 2,360,064 is Check yourself's answer:
        # tests/test_check.py shows it with "Show the answer"; the page does not print it above its question)
        # the batched matrix product a @ a.transpose(2, 3), both heads
        "[[[[1.3208, 1.1631, 1.2879]", "[1.1631, 2.2150, 1.8424]", "[1.2879, 1.8424, 2.0402]]",
        "[[0.4391, 0.7003, 0.5903]", "[0.7003, 1.3737, 1.0620]", "[0.5903, 1.0620, 0.9912]]]]",
    ],
    "text-to-attention": ["i | wonder | what | will | come | next"],
}
