"""Writes of the daily challenges: creating challenges and ranked games, keeping the board's
entries in step with the games, and the live boards' batches.

An action on a ranked game touches only its own entry row (in the game's transaction: no row
that every player of the board shares), then, after the commit, tells the board's state in
Redis (leaderboard.boards: the ranking and the set of changed entries) in one round trip. Once a
second, one process per board turns the changed entries into one live batch.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
from typing import Any, NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.events import day_event_add
from accounts.identity import player_is_guest, player_lock
from core.commits import after_commit
from core.errors import Forbidden, NotInStanding
from games import services as game_services
from games.changes import CHANGED_GAME_ID, Clause, GameChanged
from games.days import DRAWS, day_deal, day_ends_at, day_today
from games.engine import DealCode
from games.engine import Game as EngineGame
from games.models import DailyChallenge, Game
from games.selectors import account_standing, account_standing_require
from games.solver import Solution, solve
from leaderboard import boards, selectors
from leaderboard.models import Entry

logger = logging.getLogger(__name__)

# R29: deals tried per day and draw mode before giving up (about 1 in 10 deals is skipped).
DAILY_ATTEMPTS = 100


def challenge_deal_solve(
    *, date: dt.date, draw: int, seconds: float | None = None
) -> tuple[int, DealCode, Solution]:
    """R29: the first of attempts 0, 1, 2, ... of the day's deal (games.days.day_deal)
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


def day_announce() -> dt.date | None:
    """The day that has begun, made playable (its challenges created if the scheduler has not
    yet) and told to every account's event stream (accounts.events), once; None when it was told
    already."""
    today = day_today()
    challenges_create(start=today, days=1, draws=DRAWS)
    return today if day_event_add(date=today) else None


def daily_game_get_or_create(
    *,
    player: Any,
    draw: int,
    address_hash: str = "",
    device_hash: str = "",
    ranked: bool = False,
) -> tuple[Game, bool]:
    """The player's game on today's challenge: (game, created).

    One per player, day and draw mode, enforced by the entries' unique constraint: of two
    concurrent first requests, one creates the game and the other returns it. A guest may not
    play a daily (Forbidden): a ranked game needs an account with a name on the board.

    R36: the game of an account not in good standing when it is created is provisional (its
    entry listed apart, never ranked), and stays so all day even once the account is in
    standing: what it saw of the deal before then is what the rule keeps off the ranks.
    `ranked`: the caller wants a ranked game or none, so instead of a provisional game this is
    NotInStanding (403 `standing`), as it is for a provisional game made earlier that day.
    """
    if player_is_guest(user=player):
        raise Forbidden(_("Sign up to play the daily challenge: your games stay yours."))
    challenge = challenge_get_or_create(date=day_today(), draw=draw)
    existing = _entry_of(challenge=challenge, player=player)
    if existing is not None:
        if ranked and existing.provisional:
            standing = account_standing_require(user=player, now=timezone.now())
            # In standing since the game was made: it stays provisional (fixed then).
            raise NotInStanding(
                _("This account's daily game of today is provisional (R36): it is not ranked."),
                rule="R36",
                params=standing.as_dict(),
            )
        return existing.game, False
    try:
        with transaction.atomic():
            # Locked, so that the account cannot declare itself a bot meanwhile (R34), and so
            # that its standing (R36) is read once for its one game of the day.
            bot = player_lock(user=player).bot
            read = account_standing_require if ranked else account_standing
            provisional = not read(user=player, now=timezone.now()).ranked
            game = game_services.game_create(
                owner=player,
                ruleset="app",
                draw=draw,
                code=DealCode.parse(challenge.deal_code),
                challenge=challenge,
                address_hash=address_hash,
                device_hash=device_hash,
            )
            Entry.objects.create(
                challenge=challenge,
                player=player,
                game=game,
                status=game.status,
                score=game.score,
                moves=game.moves,
                home=game.cards_home,
                started_at=game.created_at,
                reached_at=game.created_at,
                bot=bot,
                provisional=provisional,
            )
            _entry_board(str(game.pk))  # (read here, for entry_mark after the commit)
            after_commit(lambda: entry_mark(game, game.created_at))
    except IntegrityError:
        entry = _entry_of(challenge=challenge, player=player)
        if entry is None:
            raise
        return entry.game, False
    return game, True


def _entry_of(*, challenge: DailyChallenge, player: Any) -> Entry | None:
    return (
        Entry.objects.select_related("game__challenge")
        .filter(challenge=challenge, player=player)
        .first()
    )


# Challenges by id, kept once a ranked action of this process met them: a challenge's day and
# end never change, and its game's lazy load would be a round trip on every action.
_challenges: dict[int, DailyChallenge] = {}


def _challenge_of(game: Game) -> DailyChallenge:
    """The ranked game's challenge, set on the game from this process's copy when it has one
    (so the action's answer, which shows the day, reads nothing either)."""
    assert game.challenge_id is not None
    known = _challenges.get(game.challenge_id)
    if known is None:
        challenge = game.challenge
        assert challenge is not None  # (its challenge_id is set)
        known = _challenges[game.challenge_id] = challenge
    else:
        game.challenge = known
    return known


class EntryBoard(NamedTuple):
    """Where a daily game's entry is listed: on the bots' board (R34) or the people's, and
    ranked there or apart as provisional (R36)."""

    bots: bool
    provisional: bool


@functools.lru_cache(maxsize=65536)
def _entry_board(game_id: str) -> EntryBoard:
    """The daily game's EntryBoard, kept once read: an entry never changes board (an account
    declares itself a bot before its first ranked game; `provisional` is fixed when the game is
    made). Read before the game's writes commit (entry_record, entry_statement: a failing
    database fails the write, as its other reads would), so that `entry_committed` finds it
    here after."""
    found = Entry.objects.filter(game_id=game_id).values_list("bot", "provisional").first()
    return EntryBoard(False, False) if found is None else EntryBoard(*found)


def entry_record(change: GameChanged) -> None:
    """Inside a ranked game's action transaction: copy the game's new figures to its entry.

    After the day ends the entry keeps the figures of that moment, so nothing changes but the
    status of a game the server ended then (R26a: its figures and when it reached them stay).
    A disqualified entry stays off the boards: it is not updated.
    """
    game = change.game
    if change.at >= _challenge_of(game).ends_at:
        if game.end_reason == "day_over":
            Entry.objects.filter(game=game, disqualified=False).update(
                status=game.status, ended_at=game.finished_at
            )
        return
    _entry_board(str(game.pk))
    Entry.objects.filter(game=game, disqualified=False).update(
        status=game.status,
        score=game.score,
        moves=game.moves,
        home=change.home,
        ended_at=game.finished_at if change.finished else None,
        reached_at=change.at,
    )


def entry_statement(change: GameChanged) -> Clause | None:
    """`entry_record` as a clause of the action's one statement on PostgreSQL (games.changes):
    the same write, no round trip of its own (but the entry's board, read once per game and
    process)."""
    game = change.game
    if change.at >= _challenge_of(game).ends_at:
        return None
    _entry_board(str(game.pk))
    sql = (
        f"UPDATE {Entry._meta.db_table} SET status = %s, score = %s, moves = %s, home = %s, "
        f"ended_at = %s, reached_at = %s WHERE game_id IN {CHANGED_GAME_ID} AND NOT disqualified"
    )
    ended = game.finished_at if change.finished else None
    params = (game.status, game.score, game.moves, change.home, ended, change.at)
    return Clause("ranked_entry", sql, params)


def entry_committed(change: GameChanged) -> None:
    """After a ranked game's change committed: `entry_mark`."""
    entry_mark(change.game, change.at)


def entry_mark(game: Game, at: dt.datetime) -> None:
    """Move a ranked game that changed at `at` in its board's ranking and mark it for the next
    live batch (a disqualified entry's version keeps it off: leaderboard.boards). A provisional
    entry (R36) is in neither: it is read from the database where it is listed."""
    challenge = _challenge_of(game)
    place = _entry_board(str(game.pk))
    if at >= challenge.ends_at or place.provisional:
        return
    key = boards.rank_key(game.score, game.moves)
    change = (str(game.pk), game.actions_count, key)
    board = boards.board_id(challenge.pk, bots=place.bots)
    boards.store().entries_changed(board, challenge.ends_at, [change])


class Batch(NamedTuple):
    """A board's live batch (`board_tick`): its number, its messages (each JSON text), the
    board's snapshot after it, and the games it took."""

    seq: int
    messages: list[str]
    snapshot: str
    games: list[str]


def board_tick(*, challenge: DailyChallenge, tick: int, bots: bool = False) -> Batch | None:
    """The board's live batch for this tick (a wall-clock second), made by whichever process
    claims the tick first, exactly once. None when another process claimed the tick or nothing
    changed: batches stop while the board is still."""
    store = boards.store()
    board = boards.board_id(challenge.pk, bots=bots)
    games = store.changed_take(board, tick)
    if not games:
        return None
    # From here until the caller's `board_published`, this process holds the board; the games
    # stay taken until their batch is sent (a failure below: the next tick's batch has them).
    seq = None
    try:
        now = timezone.now()
        entries, removed = selectors.board_changes(
            challenge=challenge, games=[g for g in games if g != boards.RESYNC], now=now,
            bots=bots,
        )  # fmt: skip
        snapshot = board_snapshot_text(challenge=challenge, now=now, bots=bots)
        count = json.loads(snapshot)["count"]
        messages = [json.dumps({"type": "removed", "player": player}) for player in removed]
        if entries:
            messages.append(json.dumps({"type": "entries", "count": count, "entries": entries}))
        seq = store.batch_save(board, challenge.ends_at, snapshot)
    finally:
        if seq is None:  # no batch made: the board is let go, its games kept for the next tick
            store.published(board, tick, sent=False)
    return None if seq is None else Batch(seq, messages, snapshot, games)


def board_published(
    *, challenge: DailyChallenge, tick: int, sent: bool, bots: bool = False
) -> None:
    """The batch `board_tick` made for `tick` is out (`sent`), or could not be sent (Redis went
    away meanwhile: its games go into the next tick's batch, under a later number, and
    listeners that heard this one anyway take the next as news): the board's next tick may
    make another."""
    boards.store().published(boards.board_id(challenge.pk, bots=bots), tick, sent=sent)


def board_snapshot_text(*, challenge: DailyChallenge, now: dt.datetime, bots: bool = False) -> str:
    return json.dumps(
        {
            "type": "snapshot",
            "count": selectors.board_count(challenge=challenge, bots=bots),
            "results": selectors.board_page(challenge=challenge, page=1, now=now, bots=bots),
        }
    )


def board_snapshot(*, challenge: DailyChallenge, bots: bool = False) -> tuple[int, str]:
    """(the number of the board's last batch, its snapshot since): from the board's cache, read
    from the database only when the cache has none for the current batch."""
    store = boards.store()
    board = boards.board_id(challenge.pk, bots=bots)
    cached = store.snapshot_get(board)
    seq = 0 if cached is None else cached[0]
    if cached is not None and cached[1] is not None:
        return seq, cached[1]
    # Read after the batch number: what changed since is in this snapshot and in a later batch.
    snapshot = board_snapshot_text(challenge=challenge, now=timezone.now(), bots=bots)
    if cached is not None:
        store.snapshot_put(board, seq, snapshot)
    return seq, snapshot


def entries_disqualify(*, entries: Any, by: Any) -> list[Entry]:
    """Take the entries off their boards (an admin's decision); returns those newly taken off.

    The audit trail is the caller's: the admin records who did it, when and to which entries.
    """
    with transaction.atomic():
        changed = list(
            entries.select_for_update()
            .filter(disqualified=False)
            .select_related("challenge")
            .order_by("pk")
        )
        Entry.objects.filter(pk__in=[entry.pk for entry in changed]).update(disqualified=True)
    for entry in changed:
        if entry.provisional:  # never in the ranking nor in a live batch (R36)
            continue
        # Off the ranking, and a `removed` message in the board's next live batch.
        change = (str(entry.game_id), boards.REMOVED, None)
        board = boards.board_id(entry.challenge_id, bots=entry.bot)
        boards.store().entries_changed(board, entry.challenge.ends_at, [change])
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


def entry_hold(*, game: Game) -> bool:
    """R35: take a finished ranked game's entry off the public boards while staff review it
    (a `removed` message in its board's next live batch); False if it has no entry on them."""
    return _entry_review(game=game, review=selectors.HELD, version=boards.HELD)


def entry_clear(*, game: Game) -> bool:
    """R35: staff cleared the held entry: it is back on the boards (and in the next live
    batch); False if it was not held."""
    return _entry_review(game=game, review=selectors.CLEARED, version=boards.CLEARED)


def _entry_review(*, game: Game, review: str, version: int) -> bool:
    entries = Entry.objects.filter(game=game, disqualified=False)
    if review == selectors.CLEARED:
        entries = entries.filter(review=selectors.HELD)
    entry = entries.select_related("challenge").first()
    if entry is None or not entries.update(review=review):
        return False
    if entry.provisional:  # listed apart, read from the database: no ranking to change (R36)
        return True
    key = None if review == selectors.HELD else boards.rank_key(entry.score, entry.moves)
    changes = [(str(game.pk), version, key)]
    board = boards.board_id(entry.challenge_id, bots=entry.bot)
    ends_at = entry.challenge.ends_at
    after_commit(lambda: boards.store().entries_changed(board, ends_at, changes))
    return True
