from django.db import models


class DailyChallenge(models.Model):
    """The deal everyone plays on one day in one draw mode (R20)."""

    date = models.DateField()
    draw = models.PositiveSmallIntegerField()
    deal_number = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "draw"], name="dailychallenge_unique_date_draw")
        ]

    def __str__(self) -> str:
        return f"{self.date} draw {self.draw}"
