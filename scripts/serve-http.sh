#!/usr/bin/env bash
# Production HTTP server for the REST API: gunicorn sync workers on WSGI. bench/api.py measures
# why (DRF through ASGI pays a thread hop per request). WebSockets are served by separate ASGI
# processes (scripts/serve-ws.sh: uvicorn). No access log: the app logs each request as one
# JSON line (canfield_site/middleware.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/gunicorn" ] || BIN="$(dirname "$(command -v gunicorn)")"
source scripts/metrics-dir.sh
exec "$BIN/gunicorn" canfield_site.wsgi:application \
    --config python:canfield_site.gunicorn_conf \
    --bind "${HTTP_BIND:-127.0.0.1:8000}" \
    --workers "${WEB_WORKERS:-$(( $(nproc) * 2 + 1 ))}" \
    --worker-class sync \
    --timeout 30
