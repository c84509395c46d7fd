"""HAProxy in front of N Streamlit replicas: one renderer for every place the balancer runs.

``render_local`` writes the configuration ``make bench-failover`` and the failover test use
(replicas on 127.0.0.1 ports, a stats socket to count sessions per replica);
``render_compose`` writes ``deploy/haproxy.cfg``, the one docker-compose.yml mounts (replicas
found by Docker's DNS, ``docker compose up --scale app=N`` works up to ``COMPOSE_SLOTS``).
``python -m deploy.haproxy > deploy/haproxy.cfg`` regenerates that file; a test checks that
it is up to date and that ``haproxy -c`` accepts every rendering.

How learners stay on a replica, and move when it dies:

* Stickiness is a cookie (``attn_replica``) that HAProxy inserts on the first response.
  Streamlit keeps each learner's session in one process, and the websocket, the CSV upload
  (``/_stcore/upload_file/<session>``) and the downloads (``/media/...``) must all reach that
  process; the browser sends the cookie with every one of them. Source-IP hashing would put a
  whole classroom behind one NAT on one replica; the URL cannot be hashed (it holds the state).
* ``balance leastconn``: a learner's websocket is a long-lived connection, so the replica
  with the fewest open connections is the one with the fewest learners.
* Active health checks on ``/_stcore/health`` every second mark a dead replica down after
  two failures; ``on-marked-down shutdown-sessions`` closes what is still open to a replica
  that hangs instead of dying, so its browsers reconnect too.
* ``option redispatch`` + ``retries``: a request whose cookie names a replica that refuses
  connections (dead, not yet marked down) is sent to a live one, and the response carries a
  new cookie, so the learner is pinned to the live replica from then on.
* Compression: Streamlit serves its JavaScript and CSS uncompressed on purpose and leaves it to the
  proxy in front. A first visit is about 5 MB as sent and about a third of that gzipped, which a learner
  on a phone's 1.6 Mbit/s feels as seconds (``benchmarks/bench_first_load.py`` measures both).
  HAProxy gzips the text types below when the browser accepts it; fonts and images are compressed
  already, and the websocket's messages are not HTTP responses. Its compressor (libslz) is fast and
  stateless, and compresses less than gzip's level 9: Streamlit's bundles, which never change while a
  version is installed, are gzipped once beforehand (``deploy/precompress.py``) and sent by the balancer
  from memory (``deploy/static_gz.lua``): a first visit of 3.5.1 sends 1.0 MB of them instead of 1.6 MB.
  (The Kubernetes ingress compresses on the fly only: its controller loads no Lua of ours.)
* The rooms' event streams (``/room/<id>/events``, ui/shell/push.py: what a following student's light page reads)
  go to a backend of their own, ``events``, over the same replicas: no stickiness (a room's moves reach every replica
  through Redis, so a student's stream may sit on any), ``leastconn`` (a stream is a long-lived connection), and
  ``option http-no-delay``: without it HAProxy tells the kernel more data follows (MSG_MORE) and a move's small event
  can wait up to about 200 ms for company; with it each event leaves at once. The option costs larger transfers
  fuller packets, which is why it is on this backend only. A stream is never compressed (``text/event-stream`` is not
  among the compressed types: gzip would hold events back to fill its blocks) and never buffered (HAProxy forwards
  a response's chunks as they come); the app's keep-alive comment every 15 s keeps it under every timeout below
  (``timeout server``/``client`` 1h). A replica marked down closes its streams (``shutdown-sessions``), and the
  browsers' EventSource reconnects to a live one.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

COOKIE = "attn_replica"
HEALTH_PATH = "/_stcore/health"
COMPOSE_SLOTS = 8  # docker compose up --scale app=N works for N up to this
APP_PORT = 8501

_DEFAULTS = """\
defaults
    mode http
    option dontlognull
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout http-request 15s
    timeout queue 30s
    timeout check 2s
    retries 3
    option redispatch 1
"""


def _backend(server_lines: Sequence[str], cookie_options: str = "", extra: Sequence[str] = (),
             name: str = "replicas") -> str:
    """``name`` "events": the event streams' backend, on the same servers, with no cookie and no delay."""
    sticky = [f"    cookie {COOKIE} insert indirect nocache httponly{cookie_options}", *extra]
    lines = [
        f"backend {name}",
        "    balance leastconn",
        *(sticky if name != EVENTS_BACKEND else ["    option http-no-delay"]),
        "    option httpchk",
        f"    http-check send meth GET uri {HEALTH_PATH}",
        "    http-check expect status 200",
        "    default-server check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions",
        *server_lines,
    ]
    return "\n".join(lines) + "\n"


EVENTS_BACKEND = "events"
# A room's event stream, wherever the app is mounted (a base URL path before /room/).
EVENTS_PATH = r"/room/[^/]+/events$"

# The types worth compressing: Streamlit's bundles (JavaScript, CSS, source maps), its index page, JSON, SVG; never
# text/event-stream (gzip would hold a stream's events back to fill its blocks).
COMPRESSED_TYPES = ("text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
                    "application/json", "image/svg+xml")


STATIC_LUA = Path(__file__).with_name("static_gz.lua")
COMPOSE_LUA = "/usr/local/etc/haproxy/static_gz.lua"  # where docker-compose.yml mounts it, and the bundles beside
COMPOSE_BUNDLES = "/usr/local/etc/haproxy/static-gz"


def _frontend(bind: str, compress: bool = True, bundles: bool = False) -> str:
    lines = ["frontend learners", f"    bind {bind}"]
    if bundles:  # Streamlit's bundles, gzipped at level 9 beforehand (deploy/precompress.py, deploy/static_gz.lua)
        lines += ["    http-request use-service lua.static_gz if { lua.static_gz -m str 1 }"]
    if compress:
        lines += ["    compression algo gzip", f"    compression type {' '.join(COMPRESSED_TYPES)}"]
    lines += [f"    acl event_stream path_reg {EVENTS_PATH}", f"    use_backend {EVENTS_BACKEND} if event_stream"]
    return "\n".join([*lines, "    default_backend replicas"]) + "\n"


def _lua(script: str | Path, bundles: str | Path) -> str:
    return f"    setenv ATTENTION_STATIC_GZ {bundles}\n    lua-load {script}\n"


def render_local(replicas: Sequence[tuple[str, int]], *, port: int, stats_socket: str, compress: bool = True,
                 bundles: str | Path | None = None) -> str:
    """Replicas ``(name, port)`` on 127.0.0.1; the balancer listens on 127.0.0.1:``port``.

    ``bundles``: a directory deploy/precompress.py filled, whose bundles the balancer sends itself.
    ``compress=False`` (and no bundles) only for the first-load benchmark's comparison: every deployment compresses."""
    if not replicas:
        raise ValueError("at least one replica is needed")
    servers = [f"    server {name} 127.0.0.1:{p} cookie {name}" for name, p in replicas]
    streams = [f"    server {name} 127.0.0.1:{p}" for name, p in replicas]
    head = f"global\n    maxconn 4096\n    stats socket {stats_socket} mode 600 level admin\n"
    head += _lua(STATIC_LUA, bundles) if bundles else ""
    return "\n".join([head, _DEFAULTS, _frontend(f"127.0.0.1:{port}", compress, bool(bundles)), _backend(servers),
                      _backend(streams, name=EVENTS_BACKEND)])


def render_compose(slots: int = COMPOSE_SLOTS, service: str = "app") -> str:
    """Replicas of the compose service ``service``, found through Docker's embedded DNS."""
    head = (
        "# Generated by `python -m deploy.haproxy > deploy/haproxy.cfg` (deploy/haproxy.py explains it).\n"
        "global\n    maxconn 4096\n    log stdout format raw local0 notice\n"
    ) + _lua(COMPOSE_LUA, COMPOSE_BUNDLES)
    resolvers = "resolvers docker\n    nameserver dns 127.0.0.11:53\n    hold valid 2s\n    hold obsolete 5s\n"
    servers = [f"    server-template {service} 1-{slots} {service}:{APP_PORT} resolvers docker init-addr none"]
    backend = _backend(servers, " dynamic", ["    dynamic-cookie-key attention-live"])
    defaults = _DEFAULTS.replace("defaults\n", "defaults\n    log global\n")
    return "\n".join([head, resolvers, defaults, _frontend(f"*:{APP_PORT}", bundles=True), backend,
                      _backend(servers, name=EVENTS_BACKEND)])


if __name__ == "__main__":
    sys.stdout.write(render_compose())
