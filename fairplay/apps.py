from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.utils import timezone

        from core.metrics import register_queue
        from fairplay.models import Review
        from fairplay.services import review_queue, review_queue_statement
        from games.changes import GameKind, game_changed_subscribe

        # A ranked game's end queues its review in the ending write (`manage.py review_games`
        # takes the queue); `games` never imports us. Match games are ranked games too (R32,
        # R35): queued before their match hears of the end (this app comes before `matches` in
        # INSTALLED_APPS).
        game_changed_subscribe(
            kinds=frozenset({GameKind.DAILY, GameKind.MATCH}),
            in_transaction=review_queue,
            in_statement=review_queue_statement,
        )

        # The queue's length for the metrics (canfield_queue_length, `manage.py serve_metrics`):
        # games waiting for `review_games`, and held ones waiting for staff.
        # The pending queue's oldest game too: depth alone hides a run that stopped taking games.
        def waiting(state: str) -> int:
            return int(Review.objects.filter(state=state).count())

        def oldest() -> float:
            first = (
                Review.objects.filter(state=Review.State.PENDING)
                .order_by("queued_at")
                .values_list("queued_at", flat=True)
                .first()
            )
            return 0.0 if first is None else max(0.0, (timezone.now() - first).total_seconds())

        register_queue("review", lambda: waiting(Review.State.PENDING), oldest=oldest)
        register_queue("review_held", lambda: waiting(Review.State.HELD))
