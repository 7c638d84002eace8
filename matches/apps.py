from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches and ratings"

    def ready(self) -> None:
        # Matches listen to their games; `games` announces and never imports matches.
        from games.services import RankedGameListener, match_game_subscribe
        from matches.services import match_game_changed, match_game_committed

        match_game_subscribe(
            RankedGameListener(in_transaction=match_game_changed, after_commit=match_game_committed)
        )
