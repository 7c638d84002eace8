from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self) -> None:
        # The boards listen to ranked games; `games` announces and never imports the boards.
        from games.services import (
            DailyBoards,
            RankedGameListener,
            daily_boards_provide,
            ranked_game_subscribe,
        )
        from leaderboard.selectors import game_standing
        from leaderboard.services import (
            daily_game_get_or_create,
            entry_committed,
            entry_record,
            entry_statement,
        )

        ranked_game_subscribe(
            RankedGameListener(
                in_transaction=entry_record,
                after_commit=entry_committed,
                in_statement=entry_statement,
            )
        )
        daily_boards_provide(
            DailyBoards(game_get_or_create=daily_game_get_or_create, standing=game_standing)
        )
