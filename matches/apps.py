from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches and ratings"

    def ready(self) -> None:
        # Matches listen to their games; `games` tells them and never imports matches.
        from core.metrics import register_queue
        from games.changes import GameKind, game_changed_subscribe
        from matches.models import Match, MatchDeal
        from matches.services import match_game_changed, match_game_committed

        game_changed_subscribe(
            kinds=frozenset({GameKind.MATCH}),
            in_transaction=match_game_changed,
            after_commit=match_game_committed,
        )

        # For the metrics (canfield_queue_length): open matches waiting for opponents (joining
        # never waits: a long queue means players are spread too thin), and the solver-proved
        # deals ready for new matches (the scheduler's pool: empty, new matches wait for it).
        register_queue(
            "matchmaking", lambda: Match.objects.filter(status=Match.Status.OPEN).count()
        )
        register_queue(
            "match_deals", lambda: MatchDeal.objects.filter(used_at__isnull=True).count()
        )
