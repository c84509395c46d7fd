"""Shareable links: the whole state in one query parameter, validated on the way in.

The state (input matrix, every page's controls) is JSON, compressed with zlib and
base64url-encoded into ``?s=...``; the page itself is the URL path. Decoding treats
the link as hostile: it limits the encoded and decompressed sizes, accepts only the
expected structure and types, and validates the matrix like any other input. Any
problem raises :class:`LinkError` with a message; nothing else escapes.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from attention.errors import ExplainedValueError

from ..inputs.matrix import InputError, InputMatrix, from_rows, random_matrix

__all__ = ["LinkError", "SharedState", "encode_state", "decode_state", "PARAM"]

PARAM = "s"
VERSION = 1
MAX_DECOMPRESSED = 1_000_000
MAX_INLINE_CELLS = 2_000  # larger matrices travel as their preset recipe, if they have one
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_PAGE = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


class LinkError(ExplainedValueError):
    """A shared link that cannot be used, and why (an English template and its fields)."""


@dataclass
class SharedState:
    matrix: InputMatrix | None = None  # None: keep the default matrix
    controls: dict[str, dict[str, Any]] = field(default_factory=dict)
    note: str = ""  # e.g. why the matrix was left out of the link


def _matrix_payload(matrix: InputMatrix) -> tuple[dict[str, Any] | None, str]:
    if matrix.origin is not None:
        return dict(matrix.origin), ""
    cells = matrix.num_tokens * matrix.dim
    if cells > MAX_INLINE_CELLS:
        return None, (
            f"The {matrix.num_tokens}×{matrix.dim} matrix is too large for a link and is left out; "
            "download it as CSV to share it."
        )
    values = [[float(f"{v:.6g}") for v in row] for row in matrix.values.tolist()]
    return {"t": list(matrix.tokens), "x": values}, ""


def encode_state(matrix: InputMatrix, controls: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """Return (parameter value, note). The note says what could not be included."""
    payload: dict[str, Any] = {"v": VERSION, "c": controls}
    m, note = _matrix_payload(matrix)
    if m is not None:
        payload["m"] = m
    return _packed(json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False)), note


@lru_cache(maxsize=256)
def _packed(raw: str) -> str:
    """A state's JSON, compressed and made safe for an address (once per distinct state: every window of a class
    writes the same link, and a lecture's run encodes its deck more than once)."""
    return base64.urlsafe_b64encode(zlib.compress(raw.encode(), 9)).decode().rstrip("=")


def _inflate(text: str, max_chars: int) -> Any:
    if not isinstance(text, str) or not text:
        raise LinkError("the link's state is empty.")
    if len(text) > max_chars:
        raise LinkError("the link's state is {length} characters long; the limit is {max_chars}.",
                        length=len(text), max_chars=max_chars)
    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text):
        raise LinkError("the link's state contains characters that do not belong in it.")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_DECOMPRESSED)
        if inflater.unconsumed_tail:
            raise LinkError("the link's state unpacks to more data than allowed.")
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except LinkError:
        raise
    except (binascii.Error, zlib.error, UnicodeDecodeError, json.JSONDecodeError, ValueError, RecursionError):
        raise LinkError("the link is damaged: its state cannot be read.") from None
    return data


def _reject_constant(name: str) -> None:
    raise LinkError("the link contains {constant}, which is not a number.", constant=name)


def _check_value(value: Any, name: str, page_id: str) -> Any:
    """The value of control ``name`` on page ``page_id``, if it is a plain value of a sane size."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) >= 2**31:
            raise LinkError("control {name!r} on {page} is out of range.", name=name, page=page_id)
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise LinkError("control {name!r} on {page} is not a finite number.", name=name, page=page_id)
        return value
    if isinstance(value, str):
        if len(value) > 2000:
            raise LinkError("control {name!r} on {page} is too long.", name=name, page=page_id)
        return value
    raise LinkError("control {name!r} on {page} has an unexpected type ({kind}).",
                    name=name, page=page_id, kind=type(value).__name__)


def _matrix_from(payload: Any, *, max_tokens: int, max_dim: int) -> InputMatrix:
    if not isinstance(payload, dict):
        raise LinkError("the link's matrix is not in the expected form.")
    if "preset" in payload:
        n, d, seed = payload.get("n"), payload.get("d"), payload.get("seed")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, d, seed)):
            raise LinkError("the link's random preset needs whole numbers n, d and seed.")
        if not (1 <= n <= max_tokens and 1 <= d <= max_dim and 0 <= seed < 2**31):
            raise LinkError("the link asks for a {n}×{d} matrix; the limits are {max_tokens}×{max_dim}.",
                            n=n, d=d, max_tokens=max_tokens, max_dim=max_dim)
        return random_matrix(n, d, seed)
    tokens, rows = payload.get("t"), payload.get("x")
    if not isinstance(tokens, list) or not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise LinkError("the link's matrix is not in the expected form.")
    if len(tokens) > max_tokens or len(rows) > max_tokens or any(len(r) > max_dim for r in rows):
        raise LinkError("the link's matrix exceeds the limits of {max_tokens} tokens × {max_dim} dims.",
                        max_tokens=max_tokens, max_dim=max_dim)
    if not all(isinstance(t, str) for t in tokens):
        raise LinkError("the link's token names must be text.")
    for r in rows:
        for v in r:
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise LinkError("the link's matrix must hold numbers only.")
    try:
        return from_rows(tokens, rows, max_tokens=max_tokens, max_dim=max_dim)
    except InputError as exc:
        # The field is the InputError itself: str() gives its English sentence, and whoever shows
        # the message can explain that error in the reader's language in turn.
        # TRANSLATORS: {problem} is the matrix's own error message, a whole sentence (translated on its own).
        raise LinkError("the link's matrix is not valid: {problem}", problem=exc) from None


def decode_state(
    text: str, *, pages: set[str], max_tokens: int, max_dim: int, max_chars: int = 8000
) -> SharedState:
    data = _inflate(text, max_chars)
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise LinkError("the link was made by another version of this app, or is not one of its links.")
    unknown = set(data) - {"v", "c", "m"}
    if unknown:
        raise LinkError("the link has unexpected fields {fields}.", fields=sorted(unknown)[:5])
    state = SharedState()
    if "m" in data:
        state.matrix = _matrix_from(data["m"], max_tokens=max_tokens, max_dim=max_dim)
    controls = data.get("c", {})
    if not isinstance(controls, dict) or len(controls) > len(pages):
        raise LinkError("the link's controls are not in the expected form.")
    for page_id, values in controls.items():
        if not isinstance(page_id, str) or not _PAGE.match(page_id) or page_id not in pages:
            raise LinkError("the link names a page this app does not have.")
        if not isinstance(values, dict) or len(values) > 40:
            raise LinkError("the link's controls for {page} are not in the expected form.", page=page_id)
        clean = {}
        for name, value in values.items():
            if not isinstance(name, str) or not _NAME.match(name):
                raise LinkError("the link has an unknown control on {page}.", page=page_id)
            clean[name] = _check_value(value, name, page_id)
        state.controls[page_id] = clean
    return state
