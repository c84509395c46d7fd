# `make run` starts the app; `make test` runs every test, installing what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.run-installed
DEV_STAMP  := $(VENV)/.dev-installed
PORT ?= 8501

.PHONY: run check test test-busy mutants lint unit guides browser-deps stress-deps bench-selfcheck balancer-deps redis-deps bench bench-latency bench-floor bench-elements bench-language bench-concurrency bench-failover \
	bench-capacity bench-room bench-hall bench-first-load bench-back soak-class clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(RUN_STAMP): requirements.txt | $(VENV)/bin/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(RUN_STAMP) $@

run: $(RUN_STAMP)
	$(BIN)/python -m ui.shell.serve app.py --server.port $(PORT)

# Debian's chromium drives the real-browser tests (Playwright cannot download browsers here), and
# Noto CJK gives it Hangul: the Korean screenshots must show letters, not tofu boxes.
browser-deps:
	@if command -v chromium >/dev/null 2>&1 && fc-list :lang=ko family | grep -q .; then :; \
	elif [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	else echo "chromium or a Hangul font missing and not root: install Debian's chromium and fonts-noto-cjk"; fi

# Debian's HAProxy balances the replicas of the failover test and benchmarks (deploy/haproxy.py).
# If it cannot be installed, the failover test is skipped and says why.
balancer-deps:
	@if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then :; \
	elif [ "$$(id -u)" = "0" ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null) \
		|| echo "could not install haproxy: the failover test will be skipped"; \
	else echo "haproxy missing and not root: install Debian's haproxy package to run the failover test"; fi

# Debian's redis-server: the rooms' shared store (ATTENTION_ROOMS=redis://...) in the tests that claim
# what several replicas see. If it cannot be installed, those tests are skipped and say why.
redis-deps:
	@if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then :; \
	elif [ "$$(id -u)" = "0" ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
		|| echo "could not install redis-server: the shared-store tests will be skipped"; \
	else echo "redis-server missing and not root: install Debian's redis-server to run the shared-store tests"; fi

# The teaching guides in every language, from docs/teaching.md and docs/locales/teaching.<lang>.po (docs/languages.md).
guides: $(DEV_STAMP)
	$(BIN)/python -m ui.catalog guides

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

unit: $(DEV_STAMP)
	$(BIN)/pytest -m "not browser" -n 2

# The loop after every change: ruff, and the unit tests in two workers (pytest-xdist), Hypothesis at its default
# number of examples. About two minutes on a 2-core machine (docs/testing.md).
check: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -m "not browser" -n 2 -p no:cacheprovider --timeout 300 --durations=5

# Everything: ruff, the unit tests (Hypothesis at 300 examples) and the browser tests. The unit tests, CPU-bound, run
# first in two workers; then the browser tests in two workers too (each worker has its own app server and browser, on
# free ports). Run side by side (the unit tests niced), the two suites took 13 min 40 s to 14 min 10 s against about
# 14 min 35 s in turn, and the load the unit tests add made the lecture tests' flakes likelier: in turn, then.
# Either failing fails make test.
# A browser test that fails is run once more, and the summary names it (RERUN): a lecturer's window is a Streamlit run
# per move, and on a loaded machine one of those runs is now and then lost (docs/testing.md lists the ones seen). A
# test that fails twice fails make test; make test-busy runs without this second chance, to count the flakes.
test: $(DEV_STAMP) browser-deps balancer-deps redis-deps
	$(BIN)/ruff check .
	@mkdir -p artifacts
	HYPOTHESIS_PROFILE=full $(BIN)/pytest -m "not browser" -n 2 -p no:cacheprovider --timeout 300 --durations=10
	$(BIN)/pytest -m browser -n 2 --dist loadfile -p no:cacheprovider --reruns 1 -rfER --durations=15

# The browser tests while stress-ng keeps one of the two cores busy: what CI may meet on a busy machine.
test-busy: $(DEV_STAMP) browser-deps balancer-deps redis-deps stress-deps
	@stress-ng --cpu 1 --timeout 3600s --quiet & load=$$!; \
	$(BIN)/pytest -m browser -n 2 --dist loadfile -p no:cacheprovider --durations=15; status=$$?; \
	kill $$load 2>/dev/null; wait $$load 2>/dev/null; exit $$status

# Planted bugs the suite must catch, each in a scratch worktree (tests/mutants.sh).
mutants: $(DEV_STAMP)
	bash tests/mutants.sh

stress-deps:
	@if command -v stress-ng >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null; \
	else echo "stress-ng missing and not root: install Debian's stress-ng to run make test-busy"; exit 1; fi

# A lecture at a lecturer's pace: projection, console, 4 students (2 phones), 60 PageDown/PageUp and 2 polls,
# every window watched throughout (make test runs a short one: tests/browser/test_soak_class.py).
soak-class: $(DEV_STAMP) browser-deps
	SOAK_PRESSES=60 $(BIN)/pytest tests/browser/test_soak_class.py -s -q

# Each benchmark catches a deliberately slowed version of what it measures (they time things: not make test's).
bench-selfcheck: $(DEV_STAMP) browser-deps balancer-deps redis-deps
	$(BIN)/pytest benchmarks/selfcheck -p no:cacheprovider

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/bench_multihead.py

bench-latency: $(DEV_STAMP) browser-deps
	$(BIN)/python benchmarks/bench_latency.py

bench-elements: $(DEV_STAMP) browser-deps
	$(BIN)/python -m benchmarks.bench_elements

bench-floor: $(DEV_STAMP) browser-deps
	$(BIN)/python -m benchmarks.bench_floor

bench-language: $(DEV_STAMP) browser-deps
	$(BIN)/python -m benchmarks.bench_language

bench-concurrency: $(DEV_STAMP) browser-deps
	$(BIN)/python benchmarks/bench_concurrency.py --sessions 30 --rounds 2

# 3 replicas behind HAProxy on 127.0.0.1, 21 browser sessions, one replica SIGKILLed; then a lecture's
# room on 2 replicas and Redis, its students on light pages (8 Chromium pages, 24 event-stream readers), the
# replica that does not serve the lecturer SIGKILLed.
bench-failover: $(DEV_STAMP) browser-deps balancer-deps redis-deps
	$(BIN)/python benchmarks/bench_failover.py --replicas 3 --sessions 21
	$(BIN)/python benchmarks/bench_failover_room.py --students 8 --readers 24

# A class of 60 follows the lecturer's PageDown on light pages (3 Chromium pages on /follow/<room>, 57 event-stream
# readers): 2 replicas + Redis behind HAProxy, a deliberately slowed store and fan-out, and the floor: a bare Starlette
# fan-out of the same bytes to the same number of readers (benchmarks/ROOM.md). The Streamlit followers of before
# (a design replaced by the light page): benchmarks/ROOM-streamlit.md, a record.
bench-room: $(DEV_STAMP) browser-deps balancer-deps redis-deps
	$(BIN)/python benchmarks/bench_room.py --write

# A hall of 1000 followers on event streams, one process: missed moves, p95, CPU per follower per move, idle CPU and
# memory per follower, beside a bare Starlette fan-out of the same payload (benchmarks/HALL.md).
bench-hall: $(DEV_STAMP)
	$(BIN)/python benchmarks/bench_hall.py --write

# A budget phone's first visit through HAProxy (4x CPU, 1.6 Mbit/s, 150 ms), compression on and off, and a following
# student's light page (/follow/<room>) beside it (benchmarks/FIRST-LOAD.md).
# Back after a reload on a budget phone, beside a warm page change and a cold load (benchmarks/BACK.md).
bench-back: $(DEV_STAMP) browser-deps
	$(BIN)/python benchmarks/bench_back.py --write

bench-first-load: $(DEV_STAMP) browser-deps balancer-deps
	$(BIN)/python benchmarks/bench_first_load.py --write

# Edits per second with 1, 2 and 3 replicas: without a browser (the servers), then with Chromium.
bench-capacity: $(DEV_STAMP) browser-deps balancer-deps
	$(BIN)/python benchmarks/bench_capacity.py --client protocol --sessions 30 --edits 10 --repeats 3
	$(BIN)/python benchmarks/bench_capacity.py --client browser --sessions 12 --edits 4 --repeats 2

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
