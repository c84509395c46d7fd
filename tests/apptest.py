"""Opening the app on one page with Streamlit's AppTest, shared by the AppTest suites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from ui.chapter import PAGES
from ui.draw import printed_in

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BY_ID = {p.page_id: p for p in PAGES}


def open_page(page_id: str, *, state: dict[str, Any] | None = None, params: dict[str, str] | None = None) -> AppTest:
    """A fresh session on ``page_id``: session ``state`` and query ``params`` set before its first run.

    AppTest always starts on the default page (a browser would start on the linked one), so the
    first run is the home page and the second the page asked for.
    """
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.run()
    at.switch_page(BY_ID[page_id].file)
    at.run()
    return at


def printed_tensors(at: AppTest) -> list[str]:
    """The tensors a run printed (ui/draw/show.py: print_tensor), as the learner reads them."""
    return [text for el in at.get("html") for text in printed_in(el.proto.body)]


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
