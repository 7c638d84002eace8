"""End the games left without an action for IDLE_GAME_DAYS (default 7): `manage.py
end_idle_games`, run every hour by the scheduler (scripts/scheduler.sh). Idempotent. Such a game
ends `resigned` (docs/api.md has no other status or end reason for it) and never counts in the
player's statistics (games.services.games_end_idle)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.services import games_end_idle


class Command(BaseCommand):
    help = "End the games left without an action for IDLE_GAME_DAYS days (not daily games)."

    def handle(self, *args: Any, **options: Any) -> None:
        ended = games_end_idle(now=timezone.now())
        self.stdout.write(f"{ended} game(s) ended: idle for {settings.IDLE_GAME_DAYS} days or more")
