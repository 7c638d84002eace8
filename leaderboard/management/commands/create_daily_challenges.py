"""Pre-create daily challenges: `manage.py create_daily_challenges --start 2026-12-01 --days 31`.

Each missing challenge gets the first deal the solver wins (R29), its line and par (R31): up to
DAILY_SOLVE_SECONDS per deal tried. Days that exist already cost one query in all, so the
scheduler runs it often (`--days 8`: today and a week ahead)."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.days import DRAWS, day_parse, day_today
from leaderboard import services


class Command(BaseCommand):
    help = "Create the daily challenges (both draw modes) of a range of days, if missing."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--start", help="first day, YYYY-MM-DD (default: today)")
        parser.add_argument(
            "--days", type=int, default=1, help="how many days from --start (default 1)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start = day_today() if options["start"] is None else day_parse(options["start"])
        if start is None:
            raise CommandError("--start must be a date, YYYY-MM-DD")
        if not 1 <= options["days"] <= 3660:
            raise CommandError("--days must be between 1 and 3660")
        created = services.challenges_create(start=start, days=options["days"], draws=DRAWS)
        self.stdout.write(f"{created} challenge(s) created from {start.isoformat()}")
