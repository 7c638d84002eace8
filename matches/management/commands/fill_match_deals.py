"""Keep the match deal pool filled (R32): `manage.py fill_match_deals`, run by the scheduler, so
that opening a match takes a solver-proved deal and never waits for the solver."""

from __future__ import annotations

import argparse
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from matches.deals import NoMatchSecret, match_deals_fill
from matches.services import DRAWS


class Command(BaseCommand):
    help = "Solve match deals ahead until each draw mode has MATCH_POOL_SIZE unused ones."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", type=int, default=None, help="default: MATCH_POOL_SIZE")
        parser.add_argument("--seconds", type=float, default=10.0, help="solver budget per deal")

    def handle(self, *args: Any, **options: Any) -> None:
        size = settings.MATCH_POOL_SIZE if options["size"] is None else options["size"]
        if size < 0:
            raise CommandError("--size must be 0 or more")
        for draw in DRAWS:
            try:
                added = match_deals_fill(draw=draw, size=size, seconds=options["seconds"])
            except NoMatchSecret as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"draw {draw}: {added} match deal(s) added")
