"""The benchmarks' self-checks (make bench-selfcheck): each benchmark catches a deliberately slowed version of what
it measures. They time things, so they are benchmarks' checks, not tests: make test does not run them."""

from tests.browser.conftest import app_server, browser  # noqa: F401 (the fixtures, shared with the browser tests)
