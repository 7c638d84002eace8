"""Tell every account's event stream that a new day's challenges are playable:
`manage.py announce_day`, run every round by the scheduler. Idempotent: the day's event is
written once (accounts.events.day_event_add)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from leaderboard.services import day_announce


class Command(BaseCommand):
    help = "Write the account event of the new day's challenges, once."

    def handle(self, *args: Any, **options: Any) -> None:
        date = day_announce()
        self.stdout.write(f"{date} announced" if date else "the day was announced already")
