from django.conf import settings
from django.db import models
from django.db.models import Q


class Entry(models.Model):
    """One player's ranked game on a challenge, with the figures the board ranks it by.

    Kept in step with the game inside the action's transaction until the day ends; after that
    it keeps the figures of that moment even if the game goes on.
    """

    challenge = models.ForeignKey(
        "games.DailyChallenge", on_delete=models.PROTECT, related_name="entries"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="daily_entries"
    )
    # Ranked history stays: deleting a player or a game with a board entry is refused (the
    # board's ranking would drift); take entries off the boards with "disqualify".
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="entry")
    status = models.CharField(max_length=16, default="playing")
    score = models.IntegerField(default=0)
    moves = models.IntegerField(default=0)
    started_at = models.DateTimeField()
    # Set when the game is won or resigned before the day ends; until then its time is live.
    ended_at = models.DateTimeField(null=True, blank=True)
    # When the entry reached its current figures: the last tie-break ("who got there first").
    reached_at = models.DateTimeField()
    # Set by an admin's audited "disqualify" action: the entry leaves every board and count.
    disqualified = models.BooleanField(default=False)
    # R34: a bot's entry ranks among bots only (`?players=bots`); copied from the player when
    # the entry is made (a bot is declared before its first ranked game).
    bot = models.BooleanField(default=False)
    # R35: the fair-play review's state for the entry's owner: null (never held), "held" (off
    # the public boards until staff decide) or "cleared" (held, then put back by staff).
    review = models.CharField(max_length=16, null=True, blank=True)
    # R36: made by an account not in good standing (too new, too few finished games), fixed
    # when the daily game is created: listed apart (`?section=provisional`), never ranked,
    # counted or sent in live batches. The fair-play review may read it: the cards such an
    # account revealed are scouting evidence for the accounts linked to it.
    provisional = models.BooleanField(default=False, db_default=False)
    # How far the game got: the cards on its foundations, the base card included (issue 22: a
    # board says "35 of 52 cards home" of a game not won, never "resigned").
    home = models.PositiveSmallIntegerField(default=1)

    class Meta:
        constraints = [
            # One ranked game per player per day and draw mode.
            models.UniqueConstraint(fields=["challenge", "player"], name="entry_unique_player")
        ]
        indexes = [
            # The board's order (the live time is sorted within each (score, moves) group).
            # Partial, so that counting ranked entries is an index-only scan: per population
            # (R34), without the disqualified, the held (R35) and the provisional (R36), the
            # condition being leaderboard.selectors.ON_BOARD.
            models.Index(
                fields=["challenge", "bot", "-score", "moves"],
                name="entry_board_order",
                condition=Q(disqualified=False) & ~Q(review="held") & Q(provisional=False),
            ),
            # A player's streak: the days they played.
            models.Index(fields=["player", "challenge"], name="entry_player_challenge"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.challenge_id}: {self.score}/{self.moves}"
