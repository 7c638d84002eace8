"""Expire the pending challenges whose 24 hours are up: `manage.py expire_challenges`, run
every minute by the scheduler. Idempotent; reads show such a challenge expired before it runs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from matches.challenges import challenges_expire


class Command(BaseCommand):
    help = "Expire the pending challenges whose 24 hours are up."

    def handle(self, *args: Any, **options: Any) -> None:
        expired = challenges_expire(now=timezone.now())
        self.stdout.write(f"{expired} challenge(s) expired")
