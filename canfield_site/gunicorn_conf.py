"""gunicorn's settings module for the web and heavy pools (scripts/serve-http.sh and
serve-heavy.sh: `--config python:canfield_site.gunicorn_conf`): the app loaded once in the
master, and prometheus-client's multi-process mode wants each ended worker's live gauges taken
out of the sums (core/metrics.py)."""

from __future__ import annotations

from typing import Any

# Imported with the settings, in the master, before any worker can end: imported inside the
# hook, the SIGCHLD of a second worker ending during the first one's import (every worker ends
# at once on shutdown) ran the hook again on the half-imported module (ImportError in the log,
# that worker's gauges left in the sums).
from core.metrics import process_exit

# The master imports the project (and refuses unsafe secrets, canfield_site/wsgi.py) once and
# forks its workers from it, rather than each worker importing it: a pool of three workers
# started and served its first requests on half the CPU (1.6-2.0 against 3.3-4.2 CPU-seconds),
# a worker replaced after a crash or a timeout serves at once, and the workers share the
# imported code's memory. Nothing the import makes holds a connection or a thread (Django,
# psycopg and redis connect at first use, in the worker).
preload_app = True


def child_exit(server: Any, worker: Any) -> None:
    process_exit(worker.pid)
