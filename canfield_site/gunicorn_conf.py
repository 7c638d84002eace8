"""gunicorn's settings module for the web and heavy pools (scripts/serve-http.sh and
serve-heavy.sh: `--config python:canfield_site.gunicorn_conf`): prometheus-client's
multi-process mode wants each ended worker's live gauges taken out of the sums
(canfield_site/metrics.py)."""

from __future__ import annotations

from typing import Any


def child_exit(server: Any, worker: Any) -> None:
    from canfield_site.metrics import process_exit

    process_exit(worker.pid)
