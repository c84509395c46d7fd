"""Errors whose message is an English template plus its fields.

``str(error)`` is the English sentence, as for any exception. An app that speaks
other languages translates ``error.template`` (the same string in every raise, so a
message catalog can hold it) and fills in ``error.fields`` itself: the numbers in a
message are never part of what gets translated.

    raise ExplainedValueError("d_out ({d_out}) must be divisible by num_heads ({num_heads}).",
                              d_out=6, num_heads=4)
"""

from __future__ import annotations

from typing import Any

__all__ = ["Explained", "ExplainedTypeError", "ExplainedValueError"]


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
