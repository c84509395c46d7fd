"""Errors whose message is an English template plus its fields.

``str(error)`` is the English sentence, as for any exception. An app that speaks
other languages translates ``error.template`` (the same string in every raise, so a
message catalog can hold it) and fills in ``error.fields`` itself: the numbers in a
message are never part of what gets translated.

    raise ExplainedValueError("d_out ({d_out}) must be divisible by num_heads ({num_heads}).",
                              d_out=6, num_heads=4)

Beside them, :func:`named`: the package's one lookup of an item by its name, whose miss says what there is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

__all__ = ["Explained", "ExplainedTypeError", "ExplainedValueError", "named"]


class Explained(Exception):
    """Base of the templated errors: ``template.format(**fields)`` is the message."""

    def __init__(self, template: str, /, **fields: Any) -> None:
        self.template = template
        self.fields = fields
        super().__init__(template.format(**fields))

    def __reduce__(self):  # rebuilt from the template, not the finished message (which may hold braces)
        return _rebuild, (type(self), self.template, self.fields)


def _rebuild(cls: type[Explained], template: str, fields: dict[str, Any]) -> Explained:
    return cls(template, **fields)


class ExplainedValueError(Explained, ValueError):
    """A value a learner or caller can fix, explained."""


class ExplainedTypeError(Explained, TypeError):
    """A value of the wrong kind, explained."""


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_N = TypeVar("_N", bound=_Named)


def named(items: Iterable[_N], name: object, kind: str) -> _N:
    """The item of ``items`` whose ``name`` is ``name``: a trace's steps, a report's variants and the variants
    themselves are looked up alike. A miss is a KeyError (the calling code asked for a name it does not have) that
    lists the names there are, so the slip is seen at once."""
    items = tuple(items)
    for item in items:
        if item.name == name:
            return item
    raise KeyError(f"no {kind} named {name!r}; there are {[item.name for item in items]}")
