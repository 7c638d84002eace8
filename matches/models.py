"""Matches (R32) and ratings (R33).

A match is 2 or 4 seats on one solver-proved CF2 deal (`MatchDeal`, dealt ahead from
MATCH_SECRET by the scheduler); each seat is a `MatchPlayer` with its own game
(`MatchPlayer.game`: the seat refers to its game, the game never to its match, games.seats).
A rating (`Rating`) is kept per player, size and draw; every rated match leaves one
`RatingChange` per player (the history).
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class MatchDeal(models.Model):
    """A deal of the match pool: CF2 from MATCH_SECRET, draw and index (matches.deals), proved
    winnable by the solver (R29) before any match uses it. `used_at` is set when a match takes
    it: each deal serves one match."""

    draw = models.PositiveSmallIntegerField()
    index = models.PositiveIntegerField()
    deal_code = models.CharField(max_length=40)
    # The winning line the solver found (engine actions), as the dailies keep theirs.
    line = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["draw", "index"], name="matchdeal_unique_draw_index")
        ]
        indexes = [
            # The pool: the unused deals of a draw mode, oldest first.
            models.Index(fields=["draw", "index"], name="matchdeal_pool", condition=Q(used_at=None))
        ]

    def __str__(self) -> str:
        return f"D{self.draw} #{self.index} ({'used' if self.used_at else 'free'})"


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Hold(models.TextChoices):
        HELD = "held"
        RELEASED = "released"
        DROPPED = "dropped"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    size = models.PositiveSmallIntegerField()
    draw = models.PositiveSmallIntegerField()
    # R34: a bots' match seats bots only, a people's match people only.
    bot = models.BooleanField(default=False)
    deal = models.OneToOneField(MatchDeal, on_delete=models.PROTECT, related_name="match")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    # 24 hours after it opened: games still running end `match_over` then (R32).
    ends_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    seats = models.PositiveSmallIntegerField(default=0)
    # Every seat taken: no longer offered to joiners.
    full = models.BooleanField(default=False)
    # The mean rating (displayed scale) of its players: matchmaking seats a joiner in the open
    # match nearest to their own.
    rating = models.FloatField(default=0.0)
    # When its ratings changed (R33); null until then: while it is open, for a cancelled match
    # (never), and for a finished match until the fair-play review of all its games is done
    # (R35: pending ones wait for `review_games`, held ones for staff).
    rated_at = models.DateTimeField(null=True, blank=True)
    # R33a farming: won by its first place over fresh provisional accounts only (set when it is
    # rated or held; matches.services.match_rate counts a winner's such wins).
    fresh_win = models.BooleanField(default=False)
    # R33a farming: a finished match held for staff instead of rated (`held`), then rated by
    # them (`released`) or never rated (`dropped`); empty for every other match.
    hold = models.CharField(max_length=16, choices=Hold.choices, blank=True, default="")
    held_at = models.DateTimeField(null=True, blank=True)
    # Why it was held, for staff (the winner's recent wins over fresh accounts).
    hold_reason = models.TextField(blank=True, default="")
    # A challenge's match (a duel, `Challenge`): both seats taken by its two players at once,
    # never offered to joiners nor answered as a player's match of the mode.
    duel = models.BooleanField(default=False)
    # A duel either player took unrated: its places stand, its ratings never change (R33).
    unrated = models.BooleanField(default=False)

    class Meta:
        indexes = [
            # Matchmaking: the open matches with a free seat of a mode, by rating.
            models.Index(
                fields=["size", "draw", "bot", "rating"],
                name="match_seating",
                condition=Q(status="open", full=False),
            ),
            # The scheduler's close (R32): open matches by end.
            models.Index(fields=["ends_at"], name="match_open_ends", condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"{self.id} ({self.size}-{self.draw}, {self.status})"


class MatchPlayer(models.Model):
    """One seat of a match: the player, their game and, once the match is finished, their place
    (or `aborted`, R33a) and rating before and after (displayed scale)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_seats"
    )
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="match_seat")
    seat = models.PositiveSmallIntegerField()
    bot = models.BooleanField(default=False)
    # The joining client's address hash (core.clients), as its game keeps it, and
    # emptied as the game's is (games.services.address_hashes_forget, ..._forget_for).
    address_hash = models.CharField(max_length=64, blank=True, default="")
    hashes_dated_by = "joined_at"
    joined_at = models.DateTimeField()
    # R33a: set when the match finishes if its game ended with fewer than ABORT_BELOW_ACTIONS
    # actions: no place (null), no rating moves against it or by it.
    aborted = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_before = models.IntegerField()
    rating_after = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="matchplayer_unique_player"),
            models.UniqueConstraint(fields=["match", "seat"], name="matchplayer_unique_seat"),
        ]
        indexes = [
            # A player's matches, newest first (the open one of a mode, the last opponents).
            models.Index(fields=["player", "-joined_at"], name="matchplayer_player_joined"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.match_id}"


class Rating(models.Model):
    """A player's rating in one mode (size and draw): Weng-Lin's mu and sigma (openskill's
    Plackett-Luce), and the displayed rating (matches.ratings.displayed)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings"
    )
    size = models.PositiveSmallIntegerField()
    draw = models.PositiveSmallIntegerField()
    bot = models.BooleanField(default=False)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "size", "draw"], name="rating_unique_player_mode"
            )
        ]
        indexes = [
            # The ratings board of a mode, best first.
            models.Index(fields=["size", "draw", "bot", "-rating"], name="rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.size}-{self.draw}: {self.rating}"


class RatingChange(models.Model):
    """One player's rating change by one finished match (the rating history, R33)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_changes"
    )
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="rating_changes")
    size = models.PositiveSmallIntegerField()
    draw = models.PositiveSmallIntegerField()
    bot = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            # Exactly one update per player and match, whatever races.
            models.UniqueConstraint(fields=["match", "player"], name="ratingchange_unique")
        ]
        indexes = [
            models.Index(fields=["player", "-at"], name="ratingchange_player_at"),
            # The weekly boards: a mode's changes since Monday.
            models.Index(fields=["size", "draw", "bot", "at"], name="ratingchange_week"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.rating_before}->{self.rating_after} ({self.match_id})"


class Challenge(models.Model):
    """One player's invitation of another to a duel (a match of two, R32) on a fresh
    solver-proved deal of `draw`: pending until the invited player accepts it (the match is
    made then, `match`), declines it, the challenger cancels it, or EXPIRE_HOURS pass
    (matches.challenges). Rated (R33) only when the challenger asked (`rated`) and the invited
    player accepted it rated (`match.unrated` false)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    draw = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # The challenger's client when challenging (core.clients), for their seat and game
    # once the duel is made, as the accepter's are from theirs; emptied as a game's are
    # (games.services.address_hashes_forget, ..._forget_for).
    address_hash = models.CharField(max_length=64, blank=True, default="")
    device_hash = models.CharField(max_length=64, blank=True, default="")
    hashes_dated_by = "created_at"
    # When it stopped being pending (accepted, declined, cancelled or expired).
    decided_at = models.DateTimeField(null=True, blank=True)
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="challenge"
    )

    class Meta:
        indexes = [
            models.Index(fields=["challenger", "-created_at"], name="challenge_sent"),
            models.Index(fields=["player", "-created_at"], name="challenge_received"),
            # The scheduler's expiry: pending challenges by end.
            models.Index(
                fields=["expires_at"], name="challenge_pending_ends", condition=Q(status="pending")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} -> {self.player_id} D{self.draw} ({self.status})"
