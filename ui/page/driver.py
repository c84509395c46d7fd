"""A walkthrough step driving a page: which step it shows and in which view, the log of what the page did with the
step's control values, and a state held apart from the session's (a student's exploration on the projector).

Apart from the controller (controller.py): the walkthrough (ui/lecture/) builds these and runs a page script under
:func:`driven_by`; the page reads them in :func:`ui.page.start_page`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..inputs.matrix import InputMatrix
from ..steps import stepper
from .state import WalkLog

__all__ = ["Driver", "Fixed", "driven_by"]


@dataclass(frozen=True)
class Driver:
    """A walkthrough step driving the page: which step it shows and how to move on (``position``), in which
    view, and the log of what the page did with the step's control values (ui/lecture/walk.py builds it)."""

    position: stepper.Position
    projection: bool = False  # drawn on the projection: a slim line, the step, the rest folded
    details: bool = False  # the projection shows its explanation and controls too
    log: WalkLog = field(default_factory=WalkLog)
    quiet: bool = False  # the controls take their values without a widget (a student's exploration, projected)
    fixed: Fixed | None = None  # a state of its own (a student's exploration on the projector), not the session's


@dataclass(frozen=True)
class Fixed:
    """A page's state held apart from the session's: the matrix and the page's control values. A page driven with
    it draws no control and writes nothing of the session's (the lecture's own state stays as it was)."""

    matrix: InputMatrix
    controls: dict[str, Any]


_driver: ContextVar[Driver | None] = ContextVar("driver", default=None)


@contextmanager
def driven_by(driver: Driver) -> Iterator[None]:
    """While the walkthrough runs a page script: the page's :func:`start_page` is handed ``driver``."""
    token = _driver.set(driver)
    try:
        yield
    finally:
        _driver.reset(token)
