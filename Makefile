# `make run` serves the app on http://127.0.0.1:8000; `make test` runs the checks CI runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Reinstalls only when pyproject.toml changes.
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: run test setup lint serve-prod serve-topology

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: setup lint
	bash scripts/apt-install.sh chromium nginx gettext
	$(BIN)/pytest

# The production HTTP server (chosen by bench/api.py); WebSockets run in a separate ASGI process.
serve-prod: setup
	bash scripts/serve-http.sh

# The whole production topology without Docker (migrate, gunicorn, daphne, nginx on PUBLIC_PORT,
# default 8080) on this machine's PostgreSQL and Redis; see the script for its variables.
serve-topology: setup
	bash scripts/apt-install.sh nginx
	bash scripts/serve-topology.sh
