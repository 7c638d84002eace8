import uuid

from django.conf import settings
from django.db import models

from core.fields import StoredJsonField
from games.engine import Game as EngineGame


class DailyChallenge(models.Model):
    """The deal everyone plays on one day in one draw mode (R20): the day a daily game refers
    to (`Game.challenge`). The `leaderboard` app made it; it moved here with its table, so that
    foreign keys point down the layers (games/migrations/0015_dailychallenge_from_leaderboard.py).
    """

    date = models.DateField()
    draw = models.PositiveSmallIntegerField()
    # The deal's code: CF2 (R4a) from the day, draw and attempt under DAILY_SECRET
    # (games.days); the CF1 codes of challenges created before CF2 stay as they were.
    deal_code = models.CharField(max_length=40)
    # Which derivation of the day's deal this is (0, 1, ...: the solver skips the deals it
    # cannot prove winnable, R29); null for the CF1 challenges.
    attempt = models.PositiveSmallIntegerField(null=True, blank=True)
    # The end of the day in DAILY_TIME_ZONE, fixed when the challenge is created: the code is
    # revealed and the board's figures freeze at this moment.
    ends_at = models.DateTimeField()
    # R29/R31: the winning line the solver found for the deal (engine actions, replayed through
    # the engine before it was stored) and its length in moves (R25), the day's par; null for
    # challenges created before the solver. `par_exact`: the line is proved to be the shortest
    # (otherwise par is shown as "<= N").
    line = models.JSONField(null=True, blank=True)
    par = models.PositiveIntegerField(null=True, blank=True)
    par_exact = models.BooleanField(default=False)

    class Meta:
        db_table = "leaderboard_dailychallenge"
        constraints = [
            models.UniqueConstraint(fields=["date", "draw"], name="dailychallenge_unique_date_draw")
        ]

    def __str__(self) -> str:
        return f"{self.date} draw {self.draw}"


class Game(models.Model):
    """One player's game: its deal, its current engine state and its summary figures.

    `state` is the engine's `to_dict()` after the last action, so serving an action never
    replays the log; the log (`Action`) alone can rebuild it (`manage.py verify_games`).
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        RESIGNED = "resigned"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    ruleset = models.CharField(max_length=16)
    draw = models.PositiveSmallIntegerField()
    # The deal's code (R3, R4a), canonical; null for a custom deck. Random games are CF2.
    deal_code = models.CharField(max_length=40, null=True, blank=True)
    deck = models.JSONField(null=True, blank=True)
    # Dealt from a code or a deck the player chose: its cards are known, so it never counts in
    # rankings or player statistics (R19).
    practice = models.BooleanField(default=False)
    challenge = models.ForeignKey(
        DailyChallenge,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
    )
    # R32: a match game's match is its seat's (`matches.MatchPlayer.game` refers to the game,
    # never the reverse: keys point down the layers; games.seats).
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    # Why a finished game ended (docs/api.md): won, resigned, or ended by the server when its day
    # was over (R26a, "day_over"), or its match (R32, "match_over"); null while it is in progress.
    end_reason = models.CharField(max_length=16, null=True, blank=True)
    score = models.IntegerField(default=0)
    moves = models.IntegerField(default=0)
    # Number of Action rows: the next action's n is actions_count + 1.
    actions_count = models.IntegerField(default=0)
    hints = models.IntegerField(default=0)  # R30: hints answered for this game
    state = StoredJsonField()  # text, not jsonb: core/fields.py
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Keyed hash of the client address that dealt the game (core.clients), for the
    # fair-play review of accounts sharing an address; never the address itself. Emptied
    # after ADDRESS_HASH_DAYS by `manage.py forget_addresses`.
    address_hash = models.CharField(max_length=64, blank=True, default="")
    # The same for the browser's device cookie (core.clients.DEVICE_COOKIE), "" for a
    # client without one; kept and emptied as `address_hash` is.
    device_hash = models.CharField(max_length=64, blank=True, default="")
    # Ended by the server after IDLE_GAME_DAYS without an action (`manage.py end_idle_games`):
    # status and end_reason say "resigned" (docs/api.md has no other value); a game the player left
    # never counts in statistics (games.selectors.games_counted).
    left = models.BooleanField(default=False)
    # Until when an open stream of the game wants to hear its actions (games/streams.py: set
    # when a stream opens, renewed by its process while it stays open): an action of a game
    # without one sends no wake-up.
    streamed_until = models.DateTimeField(null=True, blank=True, editable=False)

    # What the client hashes above are dated by (games.services.address_hashes_forget).
    hashes_dated_by = "created_at"

    class Meta:
        indexes = [
            # The caller's games, newest first.
            models.Index(fields=["owner", "-created_at"], name="game_owner_created"),
            # The fair-play review: the other games dealt from an address.
            models.Index(
                fields=["address_hash"],
                name="game_address_hash",
                condition=~models.Q(address_hash=""),
            ),
            # ... and from a browser (its device cookie).
            models.Index(
                fields=["device_hash"],
                name="game_device_hash",
                condition=~models.Q(device_hash=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.id} ({self.status})"

    @property
    def cards_home(self) -> int:
        """How many cards the foundations hold now, the base card included (a game not won
        says how far it got: "35 of 52 cards home")."""
        return sum(EngineGame.from_dict(self.state).found)


class Action(models.Model):
    """One applied action: the move log, enough to replay the game from its deal."""

    # No index of its own: action_unique_game_n (below) leads with the game, and serves its
    # lookups; a second index was one more write per action.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    n = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    from_pile = models.CharField(max_length=16, null=True, blank=True)
    to_pile = models.CharField(max_length=16, null=True, blank=True)
    count = models.PositiveSmallIntegerField(null=True, blank=True)
    cards = models.JSONField(null=True, blank=True)
    score_delta = models.IntegerField(default=0)
    auto_fill = models.CharField(max_length=4, null=True, blank=True)
    undoes = models.PositiveIntegerField(null=True, blank=True)
    # `cardgames` rules: the cards the server played up to the foundations within this action.
    auto_finish = models.JSONField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["n"]
        constraints = [
            # Also the index for reading a game's log in order.
            models.UniqueConstraint(fields=["game", "n"], name="action_unique_game_n")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.n} {self.type}"


class Analysis(models.Model):
    """R37: where a finished game's win was lost (games.analysis), computed once per game off
    the request path: queued (`pending`) by the first read that asks for it, computed by
    `manage.py analyse_games` (the scheduler's process beside the fair-play review), `done`
    with its `result` (docs/api.md's ANALYSIS) and the `etag` of that answer."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    # The share of the game's positions decided so far (0 to 1), while it is computed.
    progress = models.FloatField(default=0.0)
    queued_at = models.DateTimeField()
    # When a run took it: a `running` row whose run died is taken again after a while.
    started_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    etag = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        indexes = [
            # The command's queue, oldest first.
            models.Index(
                fields=["status", "queued_at"],
                name="analysis_queue",
                condition=models.Q(status__in=["pending", "running"]),
            )
        ]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"
