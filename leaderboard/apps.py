from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"

    def ready(self) -> None:
        # The boards listen to ranked games; `games` announces and never imports the boards.
        from games.services import RankedGameListener, ranked_game_subscribe
        from leaderboard.services import entry_committed, entry_record

        ranked_game_subscribe(
            RankedGameListener(in_transaction=entry_record, after_commit=entry_committed)
        )
