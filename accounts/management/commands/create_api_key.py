"""`manage.py create_api_key <username> [--name N] [--scope S ...] [--days D]`: a new API key
for an account, printed once (the server keeps only its hash), for operators and scripts; the
same key a player makes on the site's key page or with `POST /api/v1/account/tokens`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.scopes import SCOPE_WORDS
from accounts.services import key_create


class Command(BaseCommand):
    help = "Make an API key for an account and print it (shown this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="made by an operator")
        parser.add_argument(
            "--scope",
            action="append",
            choices=sorted(SCOPE_WORDS),
            help="a scope of the key (repeat for several; default: every scope)",
        )
        parser.add_argument("--days", type=int, help="days until it expires (default: never)")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username__iexact=options["username"]).first()
        if user is None or not user.is_active:
            raise CommandError(f"no active account named {options['username']!r}")
        if options["days"] is not None and options["days"] < 1:
            raise CommandError("--days must be 1 or more")
        scopes = options["scope"] or sorted(SCOPE_WORDS)
        _row, key = key_create(user=user, name=options["name"], scopes=scopes, days=options["days"])
        self.stdout.write(key)
