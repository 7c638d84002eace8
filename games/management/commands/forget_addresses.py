"""Drop old client-address and device hashes: `manage.py forget_addresses`, run daily by the
scheduler."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.services import address_hashes_forget


class Command(BaseCommand):
    help = (
        "Empty the address and device hashes (of games, match seats) older than "
        "ADDRESS_HASH_DAYS (default 30)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        emptied = address_hashes_forget(now=timezone.now())
        self.stdout.write(
            f"address and device hashes of {emptied} row(s) older than "
            f"{settings.ADDRESS_HASH_DAYS} days emptied"
        )
