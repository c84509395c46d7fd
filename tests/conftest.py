"""Shared test settings."""

from __future__ import annotations

import os

import pytest
import torch
from hypothesis import HealthCheck, settings

# Hypothesis runs its default number of examples in make check (the loop after every change) and 300 in make test
# (HYPOTHESIS_PROFILE=full, the Makefile): the same properties, searched further before anything lands. make check
# draws new examples each run, so the search goes on while the code is worked on; make test draws the same 300 each
# run (derandomized), so what lands is decided by the code, not by the draw: a case one of make check's runs found is
# kept as an explicit example, or the property is corrected.
settings.register_profile("check", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("full", max_examples=300, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "check"))

# The app run inside the tests (AppTest) keeps its lecture rooms in memory: never in the repository's rooms file.
# A server a test starts gets a file of its own (tests/browser/harness.py).
os.environ["ATTENTION_ROOMS"] = "memory"


# The browser tests that only look at pages go first, and the soak, which watches a lecture's windows at a lecturer's
# pace, last: what else runs beside it then is the other worker's last file, not a page walk.
_LOOK_FIRST = ("test_accessibility", "test_screens", "test_e2e", "test_languages", "test_editor")
_TIME_LAST = ("test_soak_class",)


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        name = item.path.stem if item.path.parent.name == "browser" else ""
        return 0 if name in _LOOK_FIRST else 2 if name in _TIME_LAST else 1

    items.sort(key=rank)  # stable: each module's tests stay together and in their order


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Tiny tensors gain nothing from threads, and idle OpenMP threads spin on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
