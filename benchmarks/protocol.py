"""A learner without a browser: Streamlit's websocket protocol spoken directly, for the capacity benchmark.

A browser renders every chart of every edit. On the 2-core development machine a dozen headless
Chromium tabs take most of the CPU, so a load made by browsers measures mostly the browsers; in a
class, every learner's browser runs on the learner's own machine. This client does on the wire
what Streamlit's frontend does, and nothing else: it asks ``/_stcore/health`` for the cookies (the
balancer's stickiness cookie and Streamlit's XSRF cookie), opens ``/_stcore/stream`` with the same
subprotocol, asks for a run of a page with a query string, and changes a widget's value the way
the frontend does (a rerun that carries the widget's new state). It reads each run's messages
until the run has finished: the widgets (label -> id) and the code blocks (printed tensors).
Only for 127.0.0.1 URLs.
"""

from __future__ import annotations

import asyncio
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.draw import printed_in

__all__ = ["ProtocolLearner", "RunResult"]


@dataclass
class RunResult:
    widgets: dict[str, str] = field(default_factory=dict)  # label -> widget id (number inputs)
    code: list[str] = field(default_factory=list)  # every st.code text and printed tensor of the run


def _cookies(base_url: str) -> dict[str, str]:
    """The cookies a browser gets before it opens the websocket (HAProxy's and Streamlit's XSRF)."""
    if urlsplit(base_url).hostname != "127.0.0.1":
        raise ValueError("the protocol client only talks to 127.0.0.1")
    with urllib.request.urlopen(base_url + "/_stcore/health", timeout=30) as response:
        headers = response.headers.get_all("Set-Cookie") or []
    return dict(h.split(";", 1)[0].split("=", 1) for h in headers)


class ProtocolLearner:
    """One session, through ``base_url`` (the balancer or a replica)."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.cookies: dict[str, str] = {}
        self.ws = None
        self.page_name = ""
        self.page_hash = ""
        self.query = ""

    async def connect(self) -> None:
        """The cookies, then the websocket, as the frontend opens them."""
        self.cookies = await asyncio.to_thread(_cookies, self.base_url)
        header = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        url = "ws" + self.base_url.removeprefix("http") + "/_stcore/stream"
        self.ws = await websockets.connect(
            url, subprotocols=["streamlit", self.cookies.get("_streamlit_xsrf", "")],
            additional_headers={"Cookie": header}, max_size=None, compression=None, open_timeout=60)

    async def open(self, page_name: str, query: str) -> RunResult:
        await self.connect()
        self.page_name, self.query = page_name, query
        return await self.run()

    async def run(self, states: list[WidgetState] = ()) -> RunResult:
        """Ask for a run (with changed widget states) and read its messages until it has finished."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        if self.page_hash:
            rerun.page_script_hash = self.page_hash
        else:
            rerun.page_name = self.page_name
        rerun.widget_states.widgets.extend(states)
        await self.ws.send(msg.SerializeToString())
        return await self._read_run()

    async def _read_run(self) -> RunResult:
        result = RunResult()
        async for raw in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "navigation":  # the page that ran, as the frontend remembers it
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                if element.WhichOneof("type") == "code":
                    result.code.append(element.code.code_text)
                elif element.WhichOneof("type") == "html":  # printed tensors (ui/draw/tensors.py: print_tensor)
                    result.code.extend(printed_in(element.html.body))
                elif element.WhichOneof("type") == "number_input":
                    result.widgets[element.number_input.label] = element.number_input.id
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    return result
                if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise RuntimeError("the app did not compile")
        raise ConnectionError("the server closed the websocket during a run")

    async def set_number(self, widget_id: str, value: float) -> RunResult:
        return await self.run([WidgetState(id=widget_id, double_value=value)])

    def replica(self) -> str:
        return self.cookies.get("attn_replica", "")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
