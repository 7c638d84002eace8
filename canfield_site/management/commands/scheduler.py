"""The scheduler's jobs in one long-lived process: `manage.py scheduler` (run by
scripts/scheduler.sh, the production topology's and compose's `scheduler`).

At start and then every SCHEDULE_SECONDS (default 3600): today's and tomorrow's daily
challenges when missing (create_daily_challenges --days 2), address hashes older than
ADDRESS_HASH_DAYS emptied (forget_addresses), practice games idle for IDLE_GAME_DAYS ended
(end_idle_games), guests unused for GUEST_DAYS removed (remove_guests), expired OAuth tokens and
self-registered apps left unused for OAUTH_APP_DAYS removed (forget_oauth). Every END_SECONDS
(default 60): daily games whose day is over ended (end_daily_games, R26a), matches whose 24 hours
are up closed (close_matches, R32), pending challenges whose 24 hours are up expired
(expire_challenges), the pool of solver-proved match deals topped up
(fill_match_deals).

One Django start for the life of the scheduler: starting `manage.py` for each job cost about a
second of CPU each, three a minute, taken from the requests on a small machine. Every job is
idempotent and each writes in transactions, so several schedulers, a restart or a stop in the
middle of a job (SIGTERM ends the process at once) do no harm; a job that fails (the database
away) says so and is tried again at its next turn.
"""

from __future__ import annotations

import os
import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

HOURLY = (
    ("create_daily_challenges", ("--days", "2")),
    ("forget_addresses", ()),
    ("forget_events", ()),
    ("end_idle_games", ()),
    ("remove_guests", ()),
    ("forget_oauth", ()),
)
EVERY_ROUND = (
    ("end_daily_games", ()),
    ("announce_day", ()),
    ("close_matches", ()),
    ("expire_challenges", ()),
    ("fill_match_deals", ()),
)


def _seconds(name: str, default: float) -> float:
    value = float(os.environ.get(name) or default)
    if value <= 0:
        raise ValueError(f"{name} must be a positive number of seconds")
    return value


class Command(BaseCommand):
    help = (
        "Run the scheduled jobs: the hourly ones at start and every SCHEDULE_SECONDS, the others "
        "every END_SECONDS, until stopped (--once: one round of all, then exit)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one round of every job, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        every = _seconds("END_SECONDS", 60)
        hourly_every = _seconds("SCHEDULE_SECONDS", 3600)
        hourly_due = 0.0
        while True:
            jobs: tuple[tuple[str, tuple[str, ...]], ...] = EVERY_ROUND
            if time.monotonic() >= hourly_due:
                hourly_due = time.monotonic() + hourly_every
                jobs = HOURLY + EVERY_ROUND
            for name, arguments in jobs:
                self._run(
                    name, arguments, every if (name, arguments) in EVERY_ROUND else hourly_every
                )
            if options["once"]:
                return
            close_old_connections()  # a connection the database dropped meanwhile: a new one
            time.sleep(every)

    def _run(self, name: str, arguments: tuple[str, ...], retry: float) -> None:
        try:
            call_command(name, *arguments, stdout=self.stdout, stderr=self.stderr)
        except Exception as error:  # the database away, a bug in one job: the others go on
            self.stderr.write(f"{name} failed ({error!r}); next try in {retry:g} s")
        finally:
            self.stdout.flush()  # a log file sees each job's line as it ends, not at exit
            self.stderr.flush()
