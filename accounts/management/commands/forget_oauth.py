"""Forget what OAuth no longer needs (docs/api.md "Accounts"): expired and revoked tokens and
grants (django-oauth-toolkit's `clear_expired`: a revoked refresh token is kept until it would
have expired, so that a re-used one is still caught), then the apps that registered themselves
(POST /oauth/register) more than OAUTH_APP_DAYS (default 30) ago and hold no token or grant any
more: nobody used them in that time (a refresh token lives 30 days from its last use), and an
app registers again to come back. Staff-registered apps stay. `manage.py forget_oauth`, run
every hour by the scheduler; idempotent."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone
from oauth2_provider.models import clear_expired

from accounts.services import oauth_apps_unused_remove


class Command(BaseCommand):
    help = "Remove expired OAuth tokens and grants, and self-registered apps left unused."

    def handle(self, *args: Any, **options: Any) -> None:
        clear_expired()
        removed = oauth_apps_unused_remove(
            before=timezone.now() - dt.timedelta(days=settings.OAUTH_APP_DAYS)
        )
        self.stdout.write(
            f"{removed} self-registered app(s) removed: no token for {settings.OAUTH_APP_DAYS} days"
        )
