#!/usr/bin/env bash
# The heavy pool: the doors whose work is expensive (hints run the solver, password doors hash
# a password, a new visitor's Play now makes a guest: two commits to wait for; nginx routes
# them here, deploy/nginx.conf.template), off the web pool's workers.
# One gunicorn process of threads under `nice`: a request waiting for a slot (the host-wide
# caps SOLVER_CONCURRENCY and AUTH_CONCURRENCY, core/slots.py) holds only a thread,
# the solver and the hasher run without the GIL, and the web pool's workers get the CPU first.
# A flood of hints or guesses is slow here and nowhere else. Its requests are short (a slot's
# wait, then one search or hash), so a stop waits 5 s for them at most.
#   HEAVY_BIND     address:port, default 127.0.0.1:8002
#   HEAVY_THREADS  requests served at once (most of them waiting for a slot), default 16
#   HEAVY_NICE     the pool's niceness, default 19 (the lowest priority)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/gunicorn" ] || BIN="$(dirname "$(command -v gunicorn)")"
source scripts/metrics-dir.sh
exec nice -n "${HEAVY_NICE:-19}" "$BIN/gunicorn" canfield_site.wsgi:application \
    --config python:canfield_site.gunicorn_conf \
    --bind "${HEAVY_BIND:-127.0.0.1:8002}" \
    --workers 1 \
    --worker-class gthread --threads "${HEAVY_THREADS:-16}" \
    --timeout 30 --graceful-timeout 5
