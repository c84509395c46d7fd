"""Reproducible randomness that is safe when many sessions share a process.

The chapter seeds PyTorch's global generator (``torch.manual_seed(123)``) and
then builds modules or applies dropout. In a server that runs many learners'
sessions in threads, two sessions doing that at once would interleave their
draws. :func:`seeded` serialises such blocks with a lock and restores the
global generator afterwards, so results are the book's and never leak
between sessions.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from .validation import check_seed

__all__ = ["seeded"]

_LOCK = threading.RLock()


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Run a block as if it followed ``torch.manual_seed(seed)``, isolated."""
    check_seed(seed)
    with _LOCK, torch.random.fork_rng(devices=[]):
        # The CPU generator alone: the values are torch.manual_seed's, without its lazy seeding of
        # CUDA, XPU and MTIA, which formats a stack trace per device on every call (the deeper the
        # caller's stack, the dearer: a Streamlit script run's is deep).
        torch.random.default_generator.manual_seed(seed)
        yield
