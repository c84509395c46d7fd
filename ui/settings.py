"""Limits that keep one session from taking the server down.

Hosted mode (``ATTENTION_HOSTED=1``, set by the Docker image and the
Community Cloud instructions) caps what a single session may ask for. The
caps are plain environment settings, so a local user can raise them, e.g.
``ATTENTION_MAX_TOKENS=4096 make run``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["ROOMS_SCHEMES", "ROOM_STREAMS", "STREAMS", "Limits", "SettingsError", "limits", "rooms_url"]

STREAMS = 5_000  # rooms' event streams open at once in one server process (ui/lecture/feed.py)
ROOM_STREAMS = 320  # of them, of one room: its class (ui/lecture/rooms.py MAX_STUDENTS, 300), the lecturer's
# windows, and the streams a reconnect overlaps
ROOMS_SCHEMES = ("sqlite", "redis", "rediss", "unix")  # ATTENTION_ROOMS=<scheme>://... (redis-py reads the last three)


class SettingsError(ValueError):
    """A deployment setting the app cannot start with: said to whoever starts the server (in English, in its log),
    never to a learner."""


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value >= 1 else default


@dataclass(frozen=True)
class Limits:
    hosted: bool
    max_tokens: int  # rows of the input matrix and context_length
    max_dim: int  # embedding width and d_out
    max_heads: int
    max_batch: int
    max_editable_cells: int  # above this the data editor is replaced by a summary
    max_upload_bytes: int
    max_url_chars: int
    activity_ms: int  # a lecturer's window asks its room's activity this often (ui/lecture/listen.js)
    streams: int  # rooms' event streams open at once in a server process (ui/shell/push.py)
    room_streams: int  # of them, of one room (a hall larger than MAX_STUDENTS raises it)


def limits() -> Limits:
    hosted = os.environ.get("ATTENTION_HOSTED", "0").strip().lower() in {"1", "true", "yes"}
    return Limits(
        hosted=hosted,
        max_tokens=_env_int("ATTENTION_MAX_TOKENS", 1024),
        max_dim=_env_int("ATTENTION_MAX_DIM", 768),
        max_heads=_env_int("ATTENTION_MAX_HEADS", 12 if hosted else 16),
        max_batch=_env_int("ATTENTION_MAX_BATCH", 4 if hosted else 8),
        max_editable_cells=_env_int("ATTENTION_MAX_EDITABLE_CELLS", 2000),
        max_upload_bytes=_env_int("ATTENTION_MAX_UPLOAD_BYTES", 2_000_000),
        max_url_chars=_env_int("ATTENTION_MAX_URL_CHARS", 8000),
        activity_ms=_env_int("ATTENTION_ACTIVITY_MS", 2000),
        streams=_env_int("ATTENTION_STREAMS", STREAMS),
        room_streams=_env_int("ATTENTION_ROOM_STREAMS", ROOM_STREAMS),
    )


def rooms_url() -> str | None:
    """``ATTENTION_ROOMS=redis://host:port/db``: where a lecture's rooms live when several replicas
    serve the app; unset (or ``sqlite:///path``), each server keeps its own rooms in its memory and writes them
    through to a file beside the app (or that one), so that its restart finds them; ``memory``: in its memory
    only (ui/lecture/window.py). The words before ``://`` are read in any case; anything else is refused
    (a ValueError that says what is accepted): a typo must not become a file's name or a Redis host."""
    raw = os.environ.get("ATTENTION_ROOMS", "").strip()
    if not raw:
        return None
    if raw.lower() == "memory":
        return "memory"
    scheme, slashes, rest = raw.partition("://")
    scheme = scheme.lower()
    if slashes and rest.strip() and scheme in ROOMS_SCHEMES and (scheme != "sqlite" or rest.strip("/")):
        return f"{scheme}://{rest}"
    raise SettingsError(f"ATTENTION_ROOMS={raw!r} is not a rooms address: leave it unset (a file beside the app), or "
                     "set memory, sqlite:///path/to/rooms.sqlite3, or redis://host:6379/0 (also rediss://, unix://)")
