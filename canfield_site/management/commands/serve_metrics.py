"""`manage.py serve_metrics --bind 127.0.0.1:9100`: the app's Prometheus metrics on an internal
port (core/metrics.py). The public proxy never routes to it; bind it to loopback or a
private network only, and let Prometheus scrape it there.

METRICS_DIR (or --dir): the directory whose process groups' files it adds up; without one it
serves only its own process's metrics (development)."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from prometheus_client import start_http_server

from core.metrics import scrape_registry


class Command(BaseCommand):
    help = "Serve the app's Prometheus metrics on an internal address (never the public one)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--bind", default=os.environ.get("METRICS_BIND", "127.0.0.1:9100"))
        parser.add_argument("--dir", default=settings.METRICS_DIR)

    def handle(self, *args: Any, **options: Any) -> None:
        host, _, port = options["bind"].rpartition(":")
        if not host or not port.isdigit():
            raise CommandError(f"--bind wants HOST:PORT, not {options['bind']!r}")
        root = Path(options["dir"]) if options["dir"] else None
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)
        server, thread = start_http_server(int(port), addr=host, registry=scrape_registry(root))
        self.stdout.write(f"metrics on http://{host}:{port}/metrics", ending="\n")
        self.stdout.flush()
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait()
        server.shutdown()
        thread.join(5)
