from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self) -> None:
        # The boards listen to daily games; `games` tells them and never imports the boards.
        from games.changes import GameKind, game_changed_subscribe
        from games.services import DailyBoards, daily_boards_provide
        from leaderboard.selectors import game_standing
        from leaderboard.services import (
            daily_game_get_or_create,
            entry_committed,
            entry_record,
            entry_statement,
        )

        game_changed_subscribe(
            kinds=frozenset({GameKind.DAILY}),
            in_transaction=entry_record,
            in_statement=entry_statement,
            after_commit=entry_committed,
        )
        daily_boards_provide(
            DailyBoards(game_get_or_create=daily_game_get_or_create, standing=game_standing)
        )
