"""Replay every game's log from its deal and report games whose stored figures differ."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.services import game_verify


class Command(BaseCommand):
    help = "Replay every game's action log; exit 1 if a stored state, score or move count differs."

    def handle(self, *args: Any, **options: Any) -> None:
        checked = 0
        broken = 0
        for game in Game.objects.order_by("created_at").iterator(chunk_size=200):
            checked += 1
            for problem in game_verify(game):
                broken += 1
                self.stdout.write(f"game {game.id}: {problem}")
        if broken:
            raise CommandError(f"{broken} problem(s) found in {checked} game(s)")
        self.stdout.write(f"{checked} game(s) verified: all consistent")
