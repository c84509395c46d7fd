"""Shared test settings."""

from __future__ import annotations

import os

import pytest
import torch

# The app run inside the tests (AppTest) keeps its lecture rooms in memory: never in the repository's rooms file.
# A server a test starts gets a file of its own (tests/browser/harness.py).
os.environ["ATTENTION_ROOMS"] = "memory"


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Tiny tensors gain nothing from threads, and idle OpenMP threads spin on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
