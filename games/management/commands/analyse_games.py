"""Compute the queued analyses (R37): `manage.py analyse_games`, run by the scheduler."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.management.queues import QueueCommand
from games.services import analyses_run


class Command(QueueCommand):
    help = (
        "Compute the queued game analyses (oldest first) until none is left; with --every, "
        "look for more every that many seconds until stopped."
    )

    def run_once(self, options: dict[str, Any]) -> Sequence[Any]:
        return analyses_run()

    def describe(self, done: Sequence[Any]) -> str:
        return f"{len(done)} game(s) analysed"
