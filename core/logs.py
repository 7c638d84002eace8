"""One JSON object per log line on stdout, so log shippers need no parsing rules.

A record's `fields` extra (a dict) is merged into the object:
`logger.info("request", extra={"fields": {"status": 200}})`.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            # Stays in the server's log: clients never see it (DEBUG is off in production).
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class WarnEvery:
    """A warning at most once per `seconds` per process, the rest at debug level: while a
    service is down every request meets the same failure, and one line per interval says so
    without flooding the log."""

    def __init__(self, logger: logging.Logger, seconds: float) -> None:
        self.logger = logger
        self.seconds = seconds
        self.last = -seconds

    def __call__(self, event: str, fields: dict[str, object]) -> None:
        now = time.monotonic()
        if now - self.last >= self.seconds:
            self.last = now
            self.logger.warning(event, extra={"fields": fields})
        else:
            self.logger.debug(event, extra={"fields": fields})
