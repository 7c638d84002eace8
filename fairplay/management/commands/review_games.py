"""Review ended ranked games (R35): `manage.py review_games`, run by the scheduler."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from core.management.queues import QueueCommand
from fairplay.models import Review
from fairplay.services import reviews_run


class Command(QueueCommand):
    help = (
        "Review the pending ranked games (oldest first) for at most --seconds "
        "(FAIRPLAY_REVIEW_SECONDS); with --every, again every that many seconds until stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--seconds", type=float, default=None)

    def run_once(self, options: dict[str, Any]) -> Sequence[Any]:
        return reviews_run(budget=options["seconds"] or settings.FAIRPLAY_REVIEW_SECONDS)

    def describe(self, done: Sequence[Any]) -> str:
        held = sum(review.state == Review.State.HELD for review in done)
        return f"{len(done)} game(s) reviewed, {held} held"
