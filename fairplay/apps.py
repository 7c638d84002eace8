from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A ranked game's end queues its review (in the ending write); `games` never imports us.
        from fairplay.services import review_queue, review_queue_statement
        from games.services import (
            RankedGameListener,
            match_game_subscribe,
            ranked_game_subscribe,
        )

        ranked_game_subscribe(
            RankedGameListener(
                in_transaction=review_queue,
                after_commit=None,  # `manage.py review_games` takes the queue
                in_statement=review_queue_statement,
            )
        )
        # Match games are ranked games too (R32, R35): queued before their match hears of
        # the end (this app comes before `matches` in INSTALLED_APPS).
        match_game_subscribe(RankedGameListener(in_transaction=review_queue, after_commit=None))
