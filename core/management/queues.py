"""The loop of the scheduler's queue commands (`analyse_games`, `review_games`): drain the queue
once, or with `--every` again every that many seconds until stopped."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections


class QueueCommand(BaseCommand):
    """A command that calls `run_once` (the items it did) and reports each run that did any.
    With `--every`, a database that is away is written to stderr and the next run retries;
    without it the error ends the command."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=None)

    def run_once(self, options: dict[str, Any]) -> Sequence[Any]:
        raise NotImplementedError

    def describe(self, done: Sequence[Any]) -> str:
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        every: float | None = options["every"]
        while True:
            try:
                done = self.run_once(options)
            except DatabaseError as error:  # the database is away: the next run retries
                if every is None:
                    raise
                self.stderr.write(f"{self.__module__.rsplit('.', 1)[-1]} failed: {error}")
                done = []
            if done or every is None:
                self.stdout.write(self.describe(done))
                self.stdout.flush()
            if every is None:
                return
            close_old_connections()
            time.sleep(every)
