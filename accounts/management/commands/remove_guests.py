"""Remove the guests ("Play now" accounts that never signed up) unused for GUEST_DAYS (default
30): no game dealt and no action played since. `manage.py remove_guests`, run every hour by the
scheduler (scripts/scheduler.sh). Idempotent. Their games go with them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts.identity import guests_remove


class Command(BaseCommand):
    help = "Remove the guests unused for GUEST_DAYS days, with their games."

    def handle(self, *args: Any, **options: Any) -> None:
        removed = guests_remove(now=timezone.now())
        self.stdout.write(f"{removed} guest(s) removed: unused for {settings.GUEST_DAYS} days")
