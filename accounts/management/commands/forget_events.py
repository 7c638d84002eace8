"""Delete old account events: `manage.py forget_events`, run hourly by the scheduler."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts.events import events_forget


class Command(BaseCommand):
    help = "Delete the account events older than EVENTS_KEPT_DAYS (default 7)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = events_forget(now=timezone.now())
        self.stdout.write(
            f"{deleted} account event(s) older than {settings.EVENTS_KEPT_DAYS} days deleted"
        )
