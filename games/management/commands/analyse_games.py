"""Compute the queued analyses (R37): `manage.py analyse_games`, run by the scheduler."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections

from games.services import analyses_run


class Command(BaseCommand):
    help = (
        "Compute the queued game analyses (oldest first) until none is left; with --every, "
        "look for more every that many seconds until stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"]
        while True:
            try:
                done = analyses_run()
            except DatabaseError as error:  # the database is away: the next run retries
                if every is None:
                    raise
                self.stderr.write(f"analyse_games failed: {error}")
                done = []
            if done or every is None:
                self.stdout.write(f"{len(done)} game(s) analysed")
                self.stdout.flush()
            if every is None:
                return
            close_old_connections()
            time.sleep(every)
