# `make run` serves the app on http://127.0.0.1:8000 (PORT=8001 for another port); `make test`
# runs the checks CI runs; `make lock` regenerates the lock files after a pyproject.toml change.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
UV_VERSION := 0.13.9
# uv pip acts on .venv, the virtualenv in this directory.
UV := $(BIN)/uv pip
# Reinstalls only when the lock, pyproject.toml or a C source changes.
INSTALL_INPUTS := pyproject.toml requirements-dev.lock $(wildcard games/*/*.c games/*/*.h)
STAMP := $(VENV)/.installed-$(shell cat $(INSTALL_INPUTS) | sha1sum | cut -c1-12)

.PHONY: run test test-stress test-tools bytecode setup lint lock env bench serve-prod serve-topology

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Exactly the locked versions (hashes checked) with their bytecode, then the project itself
# without dependencies.
# uv installs (in parallel, from its cache: seconds instead of minutes); pip works the same:
# pip install --require-hashes --no-deps -r requirements-dev.lock, then pip install --no-deps
# --no-build-isolation -e . -e ./clients/python.
$(STAMP): $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python scripts/lock.py --check
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(UV) install --quiet --compile-bytecode --require-hashes --no-deps -r requirements-dev.lock
	$(UV) install --quiet --no-deps --no-build-isolation -e . -e ./clients/python
	$(UV) check
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

# After editing the dependencies in pyproject.toml; UPGRADE=1 moves every pin to the newest
# version its range allows (otherwise only what the change needs moves).
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/python scripts/lock.py --uv $(BIN)/uv $(if $(UPGRADE),--upgrade)

# Development settings, asked for: without DJANGO_DEBUG the settings are production ones. The
# server's start says that the dailies are development ones (check canfield.W001).
run: export DJANGO_DEBUG = 1
run: setup
	$(BIN)/python scripts/port-free.py 127.0.0.1 $(PORT)
	$(BIN)/python manage.py migrate --noinput --skip-checks
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Two pytest-xdist workers: the browser, server and fault tests spend much of their time waiting.
test: setup lint test-tools bytecode
	$(BIN)/pytest -n 2

# The suite as `make test` runs it (on whatever DATABASE_URL and REDIS_URL say) with both cores
# kept busy by a stressor beside it: a test that passes only on an idle machine is a flaky one
# (waits are on events with deadlines, no test times itself). STRESS_CPUS=N for another load.
STRESS_CPUS ?= 2
test-stress: setup test-tools bytecode
	stress-ng --cpu $(STRESS_CPUS) --timeout 2h --quiet & stress=$$!; \
	$(BIN)/pytest -n 2 -p no:cacheprovider; status=$$?; \
	kill $$stress; wait $$stress 2>/dev/null; exit $$status

# The project's bytecode, written once before the suite's ~200 Python processes start: where
# PYTHONDONTWRITEBYTECODE is set each would compile every module it imports again (the
# dependencies' bytecode is written at install: --compile-bytecode above).
# Then the tests' assert-rewritten bytecode (pytest's, in __pycache__ beside the other): pytest
# writes none where PYTHONDONTWRITEBYTECODE is set but reads what is there, so the suite's
# workers do not each rewrite the 172 test modules again (~4.5 CPU-seconds a worker).
bytecode: setup
	$(BIN)/python -m compileall -q -j 0 accounts canfield_site core fairplay games keys leaderboard matches web tests clients/python
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest --collect-only -q -p no:cacheprovider >$(VENV)/collected.log \
		|| { cat $(VENV)/collected.log; exit 1; }

# What the suite needs beside the venv: Debian packages (when root), axe-core and the TypeScript
# toolchains from npm.
test-tools:
	bash scripts/apt-install.sh chromium chromium-headless-shell nginx gettext tmux docker-compose prometheus pgbouncer haproxy stress-ng
	command -v npm >/dev/null || bash scripts/apt-install.sh nodejs npm
	cd tests/web && npm ci --no-audit --no-fund --silent  # axe-core (test_accessibility.py), openapi-typescript + typescript (tests/clients/test_typescript_client.py)
	cd clients/typescript && npm ci --no-audit --no-fund --silent  # the TypeScript SDK's dependencies (tests/clients/test_typescript_sdk.py)

# Every benchmark in bench/ with its --quick settings, then one table (docs/benchmarks.md).
bench: setup
	$(BIN)/python bench/run.py

# `.env` for docker-compose.yml from deploy/production.env.example with new random secrets;
# PUBLIC_HOST=canfield.example.org for a public host (TLS in front), else plain HTTP on localhost.
env:
	$(PYTHON) scripts/make-env.py $(if $(PUBLIC_HOST),--public $(PUBLIC_HOST))

# The production HTTP server (chosen by bench/api.py); WebSockets run in a separate ASGI process.
serve-prod: setup
	bash scripts/serve-http.sh

# The whole production topology without Docker (migrate, gunicorn, uvicorn, nginx on PUBLIC_PORT,
# default 8080) on this machine's PostgreSQL and Redis; see the script for its variables.
serve-topology: setup
	bash scripts/apt-install.sh nginx
	bash scripts/serve-topology.sh
