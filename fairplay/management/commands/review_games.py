"""Review ended ranked games (R35): `manage.py review_games`, run by the scheduler."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections

from fairplay.models import Review
from fairplay.services import reviews_run


class Command(BaseCommand):
    help = (
        "Review the pending ranked games (oldest first) for at most --seconds "
        "(FAIRPLAY_REVIEW_SECONDS); with --every, again every that many seconds until stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=None)
        parser.add_argument("--every", type=float, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        budget = options["seconds"] or settings.FAIRPLAY_REVIEW_SECONDS
        every = options["every"]
        while True:
            try:
                reviews = reviews_run(budget=budget)
            except DatabaseError as error:  # the database is away: the next run retries
                if every is None:
                    raise
                self.stderr.write(f"review_games failed: {error}")
                reviews = []
            if reviews or every is None:
                held = sum(review.state == Review.State.HELD for review in reviews)
                self.stdout.write(f"{len(reviews)} game(s) reviewed, {held} held")
            if every is None:
                return
            close_old_connections()
            time.sleep(every)
