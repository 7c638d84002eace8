"""Writes of the daily challenges: creating challenges and ranked games, keeping the board's
entries in step with the games, and publishing their changes to the live boards."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections import Counter
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from canfield_site.logs import WarnEvery
from games import services as game_services
from games.engine import DealCode
from games.engine import Game as EngineGame
from games.models import Game
from games.solver import Solution, solve
from leaderboard import selectors
from leaderboard.days import day_deal, day_ends_at, day_today
from leaderboard.models import BoardScore, DailyChallenge, Entry

logger = logging.getLogger(__name__)

# A live board is a nicety: an action never waits longer than this for the channel layer.
PUBLISH_TIMEOUT = 0.5
# R29: deals tried per day and draw mode before giving up (about 1 in 10 deals is skipped).
DAILY_ATTEMPTS = 100


def challenge_deal_solve(
    *, date: dt.date, draw: int, seconds: float | None = None
) -> tuple[int, DealCode, Solution]:
    """R29: the first of attempts 0, 1, 2, ... of the day's deal (leaderboard.days.day_deal)
    for which the solver finds a winning line within `seconds` (DAILY_SOLVE_SECONDS): the
    attempt, its code and the solution. Unwinnable and undecided deals are skipped."""
    budget = settings.DAILY_SOLVE_SECONDS if seconds is None else seconds
    for attempt in range(DAILY_ATTEMPTS):
        code = day_deal(date, draw, attempt)
        game = EngineGame.deal(code.number, ruleset="app", draw=draw, version=code.version)
        solution = solve(game, seconds=budget)
        if solution.verdict == "won":
            return attempt, code, solution
        logger.info(
            "daily %s draw %d: attempt %d skipped (%s%s)",
            date, draw, attempt, solution.verdict, f", {solution.limit}" if solution.limit else "",
        )  # fmt: skip
    raise RuntimeError(
        f"no winning line for the {date} draw {draw} daily in {DAILY_ATTEMPTS} deals"
    )


def challenge_get_or_create(*, date: dt.date, draw: int) -> DailyChallenge:
    """The challenge of that day and draw mode. A missing one is created with the first deal
    the solver wins (R29), with its line and par (R31): the scheduler creates them ahead
    (manage.py create_daily_challenges), so a request seldom pays for the search. Of two
    concurrent creations, the unique constraint keeps one."""
    challenge = DailyChallenge.objects.filter(date=date, draw=draw).first()
    if challenge is not None:
        return challenge
    attempt, code, solution = challenge_deal_solve(date=date, draw=draw)
    challenge, _ = DailyChallenge.objects.get_or_create(
        date=date,
        draw=draw,
        defaults={
            "deal_code": str(code),
            "attempt": attempt,
            "ends_at": day_ends_at(date),
            "line": [action.as_dict() for action in solution.line],
            "par": len(solution.line),
            "par_exact": False,
        },
    )
    return challenge


def challenges_create(*, start: dt.date, days: int, draws: tuple[int, ...]) -> int:
    """Create the missing challenges of `days` days from `start` (one query when none is
    missing); returns how many were new."""
    dates = [start + dt.timedelta(days=offset) for offset in range(days)]
    existing = set(
        DailyChallenge.objects.filter(date__in=dates, draw__in=draws).values_list("date", "draw")
    )
    created = 0
    for date in dates:
        for draw in draws:
            if (date, draw) not in existing:
                challenge_get_or_create(date=date, draw=draw)
                created += 1
    return created


def daily_game_get_or_create(
    *, player: Any, draw: int, address_hash: str = ""
) -> tuple[Game, bool]:
    """The player's ranked game on today's challenge: (game, created).

    One per player, day and draw mode, enforced by the entries' unique constraint: of two
    concurrent first requests, one creates the game and the other returns it.
    """
    challenge = challenge_get_or_create(date=day_today(), draw=draw)
    existing = _entry_game(challenge=challenge, player=player)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            game = game_services.game_create(
                owner=player,
                ruleset="app",
                draw=draw,
                code=DealCode.parse(challenge.deal_code),
                challenge=challenge,
                address_hash=address_hash,
            )
            Entry.objects.create(
                challenge=challenge,
                player=player,
                game=game,
                status=game.status,
                score=game.score,
                moves=game.moves,
                started_at=game.created_at,
                reached_at=game.created_at,
            )
            _board_scores_shift({(challenge.pk, game.score): 1})
            transaction.on_commit(lambda: entry_publish(game_id=game.pk))
    except IntegrityError:
        game = _entry_game(challenge=challenge, player=player)
        if game is None:
            raise
        return game, False
    return game, True


def _entry_game(*, challenge: DailyChallenge, player: Any) -> Game | None:
    entry = (
        Entry.objects.select_related("game__challenge")
        .filter(challenge=challenge, player=player)
        .first()
    )
    return None if entry is None else entry.game


def entry_record(*, game: Game, at: dt.datetime) -> None:
    """Inside an action's transaction: copy the game's new figures to its board entry.

    After the day ends the entry keeps the figures of that moment, so nothing changes. The
    change is published only once the transaction commits: a rolled-back action never shows.
    """
    assert game.challenge is not None
    if at >= game.challenge.ends_at:
        return
    finished = game.status != Game.Status.PLAYING
    # Locked so that the score it leaves is the one its counter holds. A disqualified entry
    # stays off the boards: it is neither updated nor published.
    entry = (
        Entry.objects.select_for_update()
        .filter(game=game, disqualified=False)
        .values_list("pk", "score")
        .first()
    )
    if entry is None:
        return
    entry_id, score_before = entry
    Entry.objects.filter(pk=entry_id).update(
        status=game.status,
        score=game.score,
        moves=game.moves,
        ended_at=game.finished_at if finished else None,
        reached_at=at,
    )
    if game.score != score_before:
        # Last in the action's transaction: the counter rows every player shares stay locked
        # only until the commit that follows.
        _board_scores_shift(
            {(game.challenge_id, score_before): -1, (game.challenge_id, game.score): 1}
        )
    game_id = game.pk
    transaction.on_commit(lambda: entry_publish(game_id=game_id))


_BOARD_SCORE = BoardScore._meta.db_table
# Adds to a counter, creating its row the first time an entry reaches that score.
_SHIFT_SQL = """
INSERT INTO {table} (challenge_id, score, entries) VALUES {values}
ON CONFLICT (challenge_id, score) DO UPDATE SET entries = {table}.entries + EXCLUDED.entries
"""


def _board_scores_shift(deltas: dict[tuple[Any, int], int]) -> None:
    """Add each delta to the counter of its (challenge id, score), in one statement.

    The rows are written in (challenge, score) order, so two transactions that move entries
    between the same scores in opposite directions lock the counters in the same order and
    never deadlock.
    """
    rows = sorted((key, delta) for key, delta in deltas.items() if delta)
    if not rows:
        return
    values = ", ".join(["(%s, %s, %s)"] * len(rows))
    params = [
        value for (challenge_id, score), delta in rows for value in (challenge_id, score, delta)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_SHIFT_SQL.format(table=_BOARD_SCORE, values=values), params)


def board_scores_recount(*, challenge: DailyChallenge) -> None:
    """Set the board's score counters to a recount of its entries: for entries written in bulk
    around the services (the benchmark's fill, test fixtures)."""
    with transaction.atomic():
        BoardScore.objects.filter(challenge=challenge).delete()
        BoardScore.objects.bulk_create(
            BoardScore(challenge=challenge, score=score, entries=entries)
            for score, entries in selectors.board_scores_recounted(challenge=challenge).items()
        )


def entry_publish(*, game_id: Any) -> None:
    """Send the entry's current figures and rank to its live board's listeners.

    Runs after commit, on the write path. A failure (Redis down, slow) is logged and
    swallowed: the action has been applied and must still succeed.
    """
    try:
        entry = Entry.objects.select_related("challenge", "player").get(game_id=game_id)
        payload = selectors.entry_payload(entry=entry, now=timezone.now())
        message = {"type": "entry.changed", "entry": payload}
        group = selectors.board_group(entry.challenge.date, entry.challenge.draw)
        async_to_sync(_group_send)(group, message)
    except Exception as error:
        fields = {"game": str(game_id), "error": repr(error)}
        _publish_failed("live_updates_paused: the channel layer (Redis) is unreachable", fields)


# While Redis is down every action fails to publish: one warning per interval is enough.
_publish_failed = WarnEvery(logger, seconds=30.0)


async def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    await asyncio.wait_for(layer.group_send(group, message), timeout=PUBLISH_TIMEOUT)


def entries_disqualify(*, entries: Any, by: Any) -> list[Entry]:
    """Take the entries off their boards (an admin's decision); returns those newly taken off.

    The audit trail is the caller's: the admin records who did it, when and to which entries.
    """
    with transaction.atomic():
        changed = list(entries.select_for_update().filter(disqualified=False).order_by("pk"))
        Entry.objects.filter(pk__in=[entry.pk for entry in changed]).update(disqualified=True)
        taken_off = Counter((entry.challenge_id, entry.score) for entry in changed)
        _board_scores_shift({key: -count for key, count in taken_off.items()})
    for entry in changed:
        entry.disqualified = True
        logger.warning(
            "entry_disqualified",
            extra={
                "fields": {
                    "entry": entry.pk,
                    "player": entry.player_id,
                    "challenge": entry.challenge_id,
                    "by": getattr(by, "username", None),
                }
            },
        )
    return changed
