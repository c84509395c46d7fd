"""A deep link's page says where its server is, so that Streamlit's script reaches it at its first try.

Streamlit's script looks for its server where the address points and, failing that, one level up: on a deep link
(``/causal-mask``) it first asks ``/causal-mask/_stcore/health`` and ``host-config``, gets two 404s, waits 100 ms and
asks ``/_stcore/...``. On a budget phone that is a round trip of 150 ms and the wait, about 0.3 s more before the
page's websocket opens, on every deep link (benchmarks/FIRST-LOAD.md; the home page, at the base, is found at once).

So the HTML of a GET of one of the app's pages under its base, ``/<page>``, names that base as the server's address,
in Streamlit's own setting for it (``window.__streamlit.BACKEND_BASE_URL``, read by its script as it starts): the
address one level up from the page's, worked out in the browser from the address it shows, so a proxy that serves
the app under a prefix is followed as Streamlit's own second try follows it. The home page, Streamlit's paths, the
app's routes (the light page among them) and every other response pass through untouched. A plain ASGI middleware.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..chapter import PAGES

__all__ = ["DeepLinkBase", "SCRIPT"]

PAGE_IDS = frozenset(p.page_id for p in PAGES)
# Before Streamlit's own script, which reads the setting once as it starts (a module script runs after the page is
# parsed). The directory of ``/base/page`` is ``/base/``: the server's address.
SCRIPT = (b'<script>window.__streamlit = Object.assign(window.__streamlit || {}, '
          b'{BACKEND_BASE_URL: new URL(".", location.href).href});</script>')
_HEAD = b"<head>"


class DeepLinkBase:
    """The ASGI middleware (``st.App(..., middleware=[..., Middleware(DeepLinkBase)])``, app.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _deep_link(scope):
            await self.app(scope, receive, send)
            return
        # Asked for uncompressed, to be changed: the proxy in front compresses HTML (deploy/haproxy.py).
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]}
        start: Message | None = None
        body = b""

        async def edited(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                if message.get("status") == 200 and _is_html(message):
                    start = message  # held until the whole page is read
                    return
                await send(message)
            elif start is not None and message["type"] == "http.response.body":
                body += message.get("body", b"")
                if message.get("more_body", False):
                    return
                page = body.replace(_HEAD, _HEAD + SCRIPT, 1)
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
                await send({"type": "http.response.body", "body": page})
            else:
                await send(message)

        await self.app(scope, receive, edited)


def _deep_link(scope: Scope) -> bool:
    """A GET of ``/<page>`` (under any base), one of the app's pages but the home page."""
    if scope["type"] != "http" or scope.get("method") != "GET":
        return False
    return scope.get("path", "").rpartition("/")[2] in PAGE_IDS


def _is_html(start: Message) -> bool:
    headers = dict((k.lower(), v) for k, v in start.get("headers", []))
    return headers.get(b"content-type", b"").startswith(b"text/html") and b"content-encoding" not in headers
