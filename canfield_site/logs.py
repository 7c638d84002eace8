"""One JSON object per log line on stdout, so log shippers need no parsing rules.

A record's `fields` extra (a dict) is merged into the object:
`logger.info("request", extra={"fields": {"status": 200}})`.
"""

from __future__ import annotations

import json
import logging
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
