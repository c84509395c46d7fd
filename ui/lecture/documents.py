"""The room's documents as types: what arrives from a room or a client is decoded straight into a typed structure.

Each document (a deck and its poll and spotlight, a student's exploration, an entry of the lesson record, the JSON
columns of a room's row, what a student's light page sends) is a :class:`Document`: a ``msgspec`` struct whose fields
say their types, and with ``Meta`` their caps on size, count and range. Decoding is strict: a field it does not know,
a missing field, ``true`` for a number, a number for a text, NaN or an infinity, or a text over its cap is refused
before anything is built. What a type cannot say (a page of this app, a question's kind, a link's matrix) the module
that owns the document checks after, and it words every refusal in its own error.

:class:`Mismatch` says where a document failed (the path of field names), so that each owner can give the message it
gives for that field. No Streamlit here.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import Meta

__all__ = ["Document", "Finite", "Mismatch", "Text", "convert", "decode", "encode"]

# NaN fails both bounds, and so does an infinity: a finite number is all a document holds
Finite = Annotated[float, Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
Text = Annotated[str, Meta(max_length=200)]  # a name, a label, a prompt's value: short
_WHERE = re.compile(r" - at `\$((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)`$")
_KIND = TypeVar("_KIND")
Refuse = Callable[["Mismatch"], Exception]  # the owner's error for a document that is not of its type


class Document(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A document's type: every field named and typed; a field it does not know is refused."""


class Mismatch(Exception):
    """A document that is not of its type: ``path`` names the field that failed (empty: the document as a whole,
    or a field missing or unknown), ``malformed`` that it is not JSON at all; ``reason`` is msgspec's, for a log."""

    def __init__(self, path: tuple[str, ...], reason: str, *, malformed: bool = False) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason
        self.malformed = malformed

    @property
    def field(self) -> str:
        """The top-level field that failed ("" for the document as a whole)."""
        return self.path[0] if self.path else ""


def decode(raw: Any, kind: type[_KIND], refuse: Refuse | None = None) -> _KIND:
    """``raw`` (JSON as text or bytes) as a ``kind``; for anything else, the error ``refuse`` makes of the Mismatch
    (the owner's own, worded by the field that failed), or the Mismatch itself.

    msgspec parses it and checks it in one pass. The app writes its documents with Python's ``json``, which escapes
    a lone surrogate of a text (a token's name may hold one) where msgspec's parser stops: text msgspec cannot parse
    is parsed by ``json`` instead, and checked by msgspec all the same."""
    return _read(_decode, raw, kind, refuse)


def convert(value: Any, kind: type[_KIND], refuse: Refuse | None = None) -> _KIND:
    """A value already in Python (a dataclass of the app, a row a database read, a form's fields) checked as a
    ``kind``, as strictly as JSON is: what a window builds is held to the caps it will meet when it arrives. A
    refusal as :func:`decode`'s."""
    return _read(_convert, value, kind, refuse)


def _read(read: Callable[[Any, type[_KIND]], _KIND], value: Any, kind: type[_KIND], refuse: Refuse | None) -> _KIND:
    try:
        return read(value, kind)
    except Mismatch as exc:
        if refuse is None:
            raise
        raise refuse(exc) from None


def _decode(raw: Any, kind: type[_KIND]) -> _KIND:
    if not isinstance(raw, str | bytes):
        raise Mismatch((), f"a document is JSON text, not {type(raw).__name__}", malformed=True)
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        raise _mismatch(exc) from None
    except (msgspec.DecodeError, UnicodeError):
        pass
    try:
        found = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # not JSON, or nested deeper than the parser goes
        raise Mismatch((), str(exc) or type(exc).__name__, malformed=True) from None
    return _convert(found, kind)


def _convert(value: Any, kind: type[_KIND]) -> _KIND:
    try:
        return msgspec.convert(value, kind, from_attributes=True)
    except msgspec.ValidationError as exc:
        raise _mismatch(exc) from None
    except RecursionError:
        raise Mismatch((), "nested deeper than the parser goes", malformed=True) from None
    except UnicodeError:  # a lone surrogate where msgspec must encode it (a field's name, or in its own message)
        raise Mismatch((), "a lone surrogate where no text may hold one", malformed=True) from None


def encode(document: Document) -> str:
    """A document as compact JSON text (what a room keeps). Written by Python's ``json``, as the app's other
    documents are: msgspec's encoder refuses a lone surrogate, which a token's name in a prompt may hold."""
    return json.dumps(msgspec.to_builtins(document), separators=(",", ":"), ensure_ascii=False)


def _mismatch(exc: msgspec.ValidationError) -> Mismatch:
    found = _WHERE.search(str(exc))
    path = tuple(p for p in re.split(r"[.\[\]]+", found.group(1)) if p) if found else ()
    # a field missing or unknown is a fault of the object that holds it: its path is the object's
    return Mismatch(path, str(exc))
