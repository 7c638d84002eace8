"""End the daily games still in progress whose day is over (R26a): `manage.py end_daily_games`,
run every minute by the scheduler. Idempotent: a game already ended is left alone, and a read of
or an action on such a game ends it too (games.services.game_end_day_over), so the scheduler
only keeps the finished games true for lists and statistics between their reads."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games.services import games_end_day_over


class Command(BaseCommand):
    help = "End the daily games still in progress whose day is over (R26a)."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=2,
            help="only days that ended within this many days (default 2); 0: every day",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["days"] < 0:
            raise CommandError("--days must be 0 or more")
        now = timezone.now()
        since = now - dt.timedelta(days=options["days"]) if options["days"] else None
        ended = games_end_day_over(now=now, since=since)
        self.stdout.write(f"{ended} daily game(s) ended: their day is over")
