from django.conf import settings
from django.db import models


class Review(models.Model):
    """The fair-play review of one ranked game (R35): queued (`pending`) in the write that ends
    the game, decided by `manage.py review_games` (`clean` or `held`), then by staff for a held
    one (`cleared` or `disqualified`)."""

    class State(models.TextChoices):
        PENDING = "pending"
        CLEAN = "clean"
        HELD = "held"
        CLEARED = "cleared"
        DISQUALIFIED = "disqualified"

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="fairplay_review"
    )
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    # When the game ended (the review was queued).
    queued_at = models.DateTimeField()
    # The verdict's combined score, and each signal's {"score", "evidence"} by its name.
    score = models.FloatField(null=True, blank=True)
    signals = models.JSONField(null=True, blank=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # Staff's decision on a held game.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The command's queue (oldest first) and the staff's (held).
            models.Index(
                fields=["state", "queued_at"],
                name="review_queue",
                condition=models.Q(state__in=["pending", "held"]),
            )
        ]

    def __str__(self) -> str:
        return f"review of {self.game_id} ({self.state})"
