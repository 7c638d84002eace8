"""gunicorn's settings module for the web and heavy pools (scripts/serve-http.sh and
serve-heavy.sh: `--config python:canfield_site.gunicorn_conf`): prometheus-client's
multi-process mode wants each ended worker's live gauges taken out of the sums
(core/metrics.py)."""

from __future__ import annotations

from typing import Any

# Imported with the settings, in the master, before any worker can end: imported inside the
# hook, the SIGCHLD of a second worker ending during the first one's import (every worker ends
# at once on shutdown) ran the hook again on the half-imported module (ImportError in the log,
# that worker's gauges left in the sums).
from core.metrics import process_exit


def child_exit(server: Any, worker: Any) -> None:
    process_exit(worker.pid)
