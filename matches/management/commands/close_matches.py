"""Close the open matches whose 24 hours are up (R32): `manage.py close_matches`, run every
minute by the scheduler. Idempotent; a read of such a match closes it too."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from matches.services import matches_close


class Command(BaseCommand):
    help = "Close the open matches whose time is up (R32): running games end match_over."

    def handle(self, *args: Any, **options: Any) -> None:
        closed = matches_close(now=timezone.now())
        self.stdout.write(f"{closed} match(es) closed: their time is up")
