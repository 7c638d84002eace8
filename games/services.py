"""Writes of games: creating them and applying players' actions.

An action is served from the stored engine state (never by replaying the log) and written with
an optimistic version check: the game row is updated only if no other action landed since it
was read, together with its `Action` row, in one transaction.

A game's change is told to whoever subscribed to it (games.changes: the daily boards, matches
and the fair-play review, from their apps' `ready`): `games` never imports what listens to it.

R26a: a daily game still in progress when its day ends is ended as of that moment
(`game_end_day_over`), by the scheduler (`manage.py end_daily_games`) and before any read of or
action on it, so that no request ever sees it playable after its day.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.events import event_add
from core.commits import after_commit
from core.errors import DealHidden, Forbidden, GameFinished, GameTooLong, NotFound, Stale
from core.fields import json_text
from games import analysis
from games.changes import (
    CHANGED,
    Clause,
    GameChanged,
    game_changed_after_commit,
    game_changed_clauses,
    game_changed_heard,
    game_changed_in_transaction,
    game_kind,
)
from games.engine import Action as EngineAction
from games.engine import ActionResult, DealCode
from games.engine import Game as EngineGame
from games.engine.deal import DEAL_NUMBERS
from games.engine.game import without_counts
from games.hints import hint
from games.models import Action, Game
from games.models import Analysis as GameAnalysis
from games.seats import SEAT, SEAT_MATCH, game_match_id, game_seat, game_seat_known
from games.selectors import game_find, game_is_private, game_visible_to
from games.streams import game_changed

logger = logging.getLogger(__name__)

# Retries when another request on the same game won the race and the client sent no `expect`.
ACT_ATTEMPTS = 3
# R26a: why a daily game the server ended at the end of its day is over (`Game.end_reason`).
DAY_OVER = "day_over"
# R32: why a match game the server ended when its match's 24 hours were up is over.
MATCH_OVER = "match_over"


@dataclass(frozen=True)
class DailyBoards:
    """What the daily boards lend the games API, registered from their AppConfig's `ready`
    (`daily_boards_provide`), so that `games` never imports them: `game_get_or_create(player=,
    draw=, address_hash=, device_hash=, ranked=)` gives the player's game of today as (game,
    created) (provisional for an account not in standing, R36; with `ranked`, NotInStanding
    instead), and
    `standing(game=, now=)` a finished ranked game's `{"rank", "players", "review"}` (only
    `review` while it is held, R35) or None."""

    game_get_or_create: Callable[..., tuple[Game, bool]]
    standing: Callable[..., dict[str, Any] | None]


_daily_boards: list[DailyBoards] = []


def daily_boards_provide(boards: DailyBoards) -> None:
    """Install the daily boards (called once, from an AppConfig's `ready`)."""
    _daily_boards[:] = [boards]


def daily_boards() -> DailyBoards:
    """The installed daily boards (the `leaderboard` app is always installed with `games`)."""
    if not _daily_boards:
        raise RuntimeError("no daily boards installed: add `leaderboard` to INSTALLED_APPS")
    return _daily_boards[0]


def engine_game_new(*, ruleset: str, code: DealCode | None, deck: Any, draw: int) -> EngineGame:
    """The engine game of a deal code, else of a custom deck dealt with `draw`."""
    if code is not None:
        return EngineGame.deal(code.number, ruleset=ruleset, draw=code.draw, version=code.version)
    return EngineGame.new(deck, ruleset=ruleset, draw=draw)


def game_engine_new(game: Game) -> EngineGame:
    """A stored game's engine game as dealt, before any action."""
    code = None if game.deal_code is None else DealCode.parse(game.deal_code)
    return engine_game_new(ruleset=game.ruleset, code=code, deck=game.deck, draw=game.draw)


def game_create(
    *,
    owner: Any,
    ruleset: str = "app",
    draw: int = 3,
    code: DealCode | None = None,
    deck: list[str] | None = None,
    challenge: Any = None,
    match: Any = None,
    address_hash: str = "",
    device_hash: str = "",
) -> Game:
    """Deal a new game: `deck` (custom), else `code`, else a random CF2 deal (R4a: its cards
    cannot be searched for). A game of a code or a deck the player chose, outside a daily
    challenge, is a practice game (R19). `match`: the match the game is dealt for, whose seat
    the caller makes with it (matches.services: the seat refers to the game, games.seats).
    `address_hash`, `device_hash`: the dealing client's (core.clients.client_address_hash,
    client_device_hash)."""
    practice = challenge is None and match is None and (code is not None or deck is not None)
    if code is None and deck is None:
        code = DealCode(secrets.randbelow(DEAL_NUMBERS[2]), draw, version=2)
    if code is not None:
        draw = code.draw
    engine = engine_game_new(ruleset=ruleset, code=code, deck=deck, draw=draw)
    view = engine.public_view()
    # The game and its event in one commit, or in the caller's transaction (no savepoint).
    with transaction.atomic(savepoint=False):
        game = Game.objects.create(
            owner=owner,
            ruleset=ruleset,
            draw=draw,
            deal_code=None if code is None else str(code),
            deck=list(deck) if deck is not None else None,
            practice=practice,
            challenge=challenge,
            status=view["status"],
            score=view["score"],
            moves=view["moves"],
            state=engine.to_dict(),
            address_hash=address_hash,
            device_hash=device_hash,
        )
        if match is None:
            game_seat_known(game, None)  # no match's: its kind costs no query to tell
        daily = None if challenge is None else challenge.date.isoformat()
        match_id = None if match is None else str(match.pk)
        data = {"game": str(game.pk), "match": match_id, "daily": daily}
        event_add(user=game.owner_id, kind="game_started", data=data)
    return game


def _game_ended(game: Game) -> None:
    """In the write that ended `game`: its account's `game_ended` event."""
    data = {
        "game": str(game.pk),
        "status": game.status,
        "score": game.score,
        "end_reason": game.end_reason,
    }
    event_add(user=game.owner_id, kind="game_ended", data=data)


# The end of each challenge's day by challenge id, kept once met: it never changes, and reading
# it on every ranked action would cost the action a round trip.
_day_ends: dict[int, datetime.datetime] = {}
_match_ends: dict[Any, datetime.datetime] = {}
MATCH_ENDS_KEPT = 50_000


def game_day_ends_at(game: Game) -> datetime.datetime | None:
    """When a daily game's day ends, or a match game's match (R32: 24 hours after it opened);
    None for any other game."""
    if game.challenge_id is not None:
        ends_at = _day_ends.get(game.challenge_id)
        if ends_at is None:
            ends_at = _day_ends[game.challenge_id] = game.challenge.ends_at  # type: ignore[union-attr]
        return ends_at
    seat = game_seat(game)
    if seat is None:
        return None
    ends_at = _match_ends.get(seat.match_id)
    if ends_at is None:
        if len(_match_ends) >= MATCH_ENDS_KEPT:  # matches come and go: keep it bounded
            _match_ends.clear()
        ends_at = _match_ends[seat.match_id] = seat.match.ends_at
    return ends_at


def game_end_day_over(game: Game, *, now: datetime.datetime | None = None) -> Game:
    """R26a: end a daily game still in progress once its day is over, as of the day's end with
    its figures then: status `resigned` (the API's statuses stay playing, won and resigned: it
    was not won), `end_reason` "day_over", `finished_at` the day's end; nothing is logged (the
    player did not act). Any other game is returned as it is, without a query.

    Every such ending goes through here, and a ranked game's is told as its other changes are
    (games.changes, at the day's end). A match game is ended the same way when its
    match's time is up (R32), with `end_reason` "match_over". Returns the game as it now is: if
    another request ended it or acted first, as that left it."""
    for _attempt in range(ACT_ATTEMPTS):
        ends_at = game_day_ends_at(game)
        if (
            ends_at is None
            or game.status != Game.Status.PLAYING
            or (now or timezone.now()) < ends_at
        ):
            return game
        state = {**game.state, "status": Game.Status.RESIGNED}
        reason = DAY_OVER if game.challenge_id is not None else MATCH_OVER
        with transaction.atomic():
            ended = Game.objects.filter(
                pk=game.pk, actions_count=game.actions_count, status=Game.Status.PLAYING
            ).update(
                state=state, status=Game.Status.RESIGNED, end_reason=reason, finished_at=ends_at
            )
            if ended:
                game.state, game.status = state, Game.Status.RESIGNED
                game.end_reason, game.finished_at = reason, ends_at
                _game_ended(game)
                kind = game_kind(game)
                change = GameChanged(game, ends_at, kind, None, game.cards_home)
                game_changed_in_transaction(change, game_changed_heard(kind))
                after_commit(partial(game_changed, game.pk))
                return game
        game = Game.objects.select_related(SEAT).get(pk=game.pk)  # another request changed it
    return game


def games_end_day_over(
    *, now: datetime.datetime, since: datetime.datetime | None = None, owner: Any = None
) -> int:
    """End every daily game still in progress whose day ended by `now` (and after `since`, if
    given; of `owner`, if given) with `game_end_day_over`; returns how many it ended."""
    games = Game.objects.filter(
        challenge__ends_at__lte=now, status=Game.Status.PLAYING
    ).select_related("challenge", SEAT)
    if since is not None:
        games = games.filter(challenge__ends_at__gt=since)
    if owner is not None:
        games = games.filter(owner=owner)
    return sum(game_end_day_over(game, now=now).end_reason == DAY_OVER for game in games)


def game_over_message(game: Game) -> str:
    """Why an action on a finished game is refused (409 `game_over`)."""
    if game.end_reason == DAY_OVER:
        return _("The day is over: this game ended at midnight.")
    if game.end_reason == MATCH_OVER:
        return _("The match is over: its 24 hours are up.")
    return _("This game is over.")


def game_read(*, game: Game | None, user: Any) -> Game:
    """`game` as `user` may read it: ended first if its day is over (R26a), so that no read sees
    it in progress after its day; NotFound if `user` may not see it (games.selectors)."""
    return game_visible_to(None if game is None else game_end_day_over(game), user=user)


def game_list_read(*, ids: list[Any], user: Any) -> list[Game]:
    """The games `ids` that `user` may read (`game_read`), in that order, each once: the others
    are left out, as if they did not exist."""
    found = Game.objects.select_related("challenge", SEAT_MATCH).in_bulk(ids)
    games = []
    for pk in dict.fromkeys(ids):
        try:
            games.append(game_read(game=found.get(pk), user=user))
        except NotFound:
            continue
    return games


def game_get_for(*, game_id: Any, user: Any) -> Game:
    """The game `game_id` as `user` may read it (`game_read`), else NotFound."""
    return game_read(game=game_find(game_id), user=user)


class Acted(NamedTuple):
    """An applied action: its log row, the game as written and its engine (already loaded: the
    game's public view needs no second load of the state)."""

    row: Action
    game: Game
    engine: EngineGame


def game_act(*, game: Game, user: Any, action: dict[str, Any], expect: int | None) -> Acted:
    """Apply one action of the game's owner atomically.

    `game` is the game as the request read it (visible to `user`: games.selectors). Raises
    Forbidden (not the owner), GameFinished, GameTooLong (the log holds GAME_MAX_ACTIONS
    actions: only `resign` is taken), Stale (the game moved on since `expect`, or a concurrent
    action won), or an EngineError; NotFound if the game vanished before a retry.
    """
    parsed = EngineAction.from_dict(action)
    for attempt in range(ACT_ATTEMPTS):
        if attempt:  # another action won the race: start again from what it left
            game = game_get_for(game_id=game.pk, user=user)
        if game.owner_id != user.pk:
            raise Forbidden(_("Only the game's owner may play it."))
        now = timezone.now()
        game = game_end_day_over(game, now=now)
        if game.status != Game.Status.PLAYING:
            raise GameFinished(game_over_message(game))
        if expect is not None and expect != game.moves:
            raise Stale(
                _("The game has moved on: moves is %(moves)s, not %(expect)s.")
                % {"moves": game.moves, "expect": expect}
            )
        if game.actions_count >= settings.GAME_MAX_ACTIONS and parsed.type != "resign":
            raise GameTooLong(
                _("This game has %(count)s actions, the most a game keeps: only resign it.")
                % {"count": game.actions_count}
            )
        engine = EngineGame.from_dict(game.state)  # the action's one decoding of the state
        result = engine.apply(parsed)
        version = game.actions_count
        game.state = engine.to_dict()
        game.status = engine.status
        game.score = engine.score
        game.moves = engine.moves
        game.actions_count = result.n
        if engine.status != Game.Status.PLAYING:
            game.finished_at = now
            game.end_reason = engine.status  # won or resigned
        row = Action(
            game=game,
            n=result.n,
            type=result.type,
            from_pile=result.src,
            to_pile=result.dst,
            count=result.count,
            cards=result.cards,
            score_delta=result.score_delta,
            auto_fill=result.auto_fill,
            undoes=result.undoes,
            auto_finish=result.auto_finish or None,
            at=now,
        )
        written, streamed = _act_write(
            game=game, version=version, row=row, result=result, engine=engine
        )
        if written:
            if streamed:  # its open streams (games/streams.py) read the new row once committed
                after_commit(partial(game_changed, game.pk))
            return Acted(row, game, engine)
        if expect is not None:
            raise Stale(_("The game has moved on: another action was applied first."))
    raise Stale(_("The game is busy with other actions: retry."))


def _act_write(
    *, game: Game, version: int, row: Action, result: ActionResult, engine: EngineGame
) -> tuple[bool, bool]:
    """Write an applied action (`_write`) and tell those who listen to its game's kind
    (games.changes): in the action's one statement on PostgreSQL when each of them can, else
    in its transaction (R32, R33: a match's last game's end finishes and rates the match in
    it). Returns whether it was written and whether a stream of the game may be open (the
    game's `streamed_until` as the write found it; always on other databases)."""
    kind = game_kind(game)
    heard = game_changed_heard(kind)
    change = GameChanged(game, row.at, kind, result, sum(engine.found))
    one_statement = connection.vendor == "postgresql"
    clauses = game_changed_clauses(change, heard) if one_statement else None
    if heard and clauses is None:
        with transaction.atomic():
            write = _write_in_one_statement if one_statement else _write
            written, streamed = write(game=game, version=version, row=row)
            if written:
                if change.finished:
                    _game_ended(game)  # (told before a match that it may finish)
                game_changed_in_transaction(change, heard)
        return written, streamed
    if one_statement:
        written, streamed = _write_in_one_statement(
            game=game, version=version, row=row, also=clauses
        )
    else:
        written, streamed = _write(game=game, version=version, row=row)
    if written:  # committed already, unless inside the caller's transaction
        game_changed_after_commit(change, heard)
        if change.finished:
            _game_ended(game)
    return written, streamed


def _write(*, game: Game, version: int, row: Action) -> tuple[bool, bool]:
    """Save the game and its new log row if no other action landed since `version` was read
    and the game is still in progress (its day may have ended meanwhile: optimistic
    concurrency, no lock is held while the engine works)."""
    with transaction.atomic():
        written = Game.objects.filter(
            pk=game.pk, actions_count=version, status=Game.Status.PLAYING
        ).update(
            state=game.state,
            status=game.status,
            score=game.score,
            moves=game.moves,
            actions_count=game.actions_count,
            finished_at=game.finished_at,
            end_reason=game.end_reason,
        )
        if written:
            row.save(force_insert=True)
    return bool(written), True  # (streams: the development server's, woken in its process)


_GAME = Game._meta.db_table
_ACTION = Action._meta.db_table
# `_write` as one statement, so one round trip and no BEGIN/COMMIT: the insert selects from
# the update, so it inserts nothing when the version check fails, and a failure undoes both.
# `{also}`: more data-modifying clauses (games.changes.Clause), run in the same statement.
# `streamed`: whether a stream of the game is open (games/streams.py), as the update found the
# row: a stream marks the row before it reads the game, so an update that finds no mark was
# committed before the stream's read (which sees it), and one that finds it wakes the stream.
_WRITE_SQL = f"""
WITH {CHANGED} AS (
    UPDATE {_GAME} SET state = %s, status = %s, score = %s, moves = %s,
        actions_count = %s, finished_at = %s, end_reason = %s
    WHERE id = %s AND actions_count = %s AND status = 'playing'
    RETURNING id, streamed_until > statement_timestamp() AS streamed
){{also}}, logged AS (
    INSERT INTO {_ACTION} (game_id, n, type, from_pile, to_pile, count, cards, score_delta,
        auto_fill, undoes, auto_finish, at)
    SELECT id, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s::jsonb, %s FROM {CHANGED}
    RETURNING id
)
SELECT logged.id, {CHANGED}.streamed IS TRUE FROM logged, {CHANGED}
"""


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _write_in_one_statement(
    *, game: Game, version: int, row: Action, also: list[Clause] | None = None
) -> tuple[bool, bool]:
    """`_write` for PostgreSQL in a single autocommitted statement (measured: bench/api.py),
    with `also`'s clauses in it: all of it is written, or none. Returns whether it was written
    and whether a stream of the game is open (`_WRITE_SQL`)."""
    also = also or []
    with connection.cursor() as cursor:
        cursor.execute(
            _WRITE_SQL.format(also="".join(f", {clause.as_sql()}" for clause in also)),
            [
                json_text(game.state), game.status, game.score, game.moves,
                game.actions_count, game.finished_at, game.end_reason, game.pk, version,
                *(value for clause in also for value in clause.params),
                row.n, row.type, row.from_pile, row.to_pile, row.count, _json(row.cards),
                row.score_delta, row.auto_fill, row.undoes, _json(row.auto_finish), row.at,
            ],
        )  # fmt: skip
        inserted = cursor.fetchone()
    if inserted is None:
        return False, False
    row.pk = inserted[0]
    return True, inserted[1]


def logged_action(row: Action) -> dict[str, Any]:
    """The engine action that replays a log row (a tap is logged as the move it became)."""
    if row.type == "move":
        return {"type": "move", "from": row.from_pile, "to": row.to_pile, "count": row.count}
    return {"type": row.type}


def game_replay(game: Game) -> EngineGame:
    """Rebuild the game from its deal and its log alone."""
    engine = game_engine_new(game)
    for row in game.actions.order_by("n"):
        engine.apply(EngineAction.from_dict(logged_action(row)))
    return engine


def game_verify(game: Game) -> list[str]:
    """What differs between the stored game and its replayed log (empty when consistent)."""
    try:
        engine = game_replay(game)
    except Exception as error:  # a broken log is a finding, not a crash of the check
        return [f"log does not replay: {error}"]
    ended_by_server = game.end_reason in (DAY_OVER, MATCH_OVER) or game.left  # R26a, R32, idle
    if ended_by_server and engine.status == Game.Status.PLAYING:
        engine.status = Game.Status.RESIGNED  # ended by the server, not by an action
    problems = []
    if without_counts(engine.to_dict()) != without_counts(game.state):
        problems.append("stored state differs from the replayed log")
    for field in ("score", "moves", "status"):
        if getattr(engine, field) != getattr(game, field):
            problems.append(
                f"{field} is {getattr(game, field)!r}, log gives {getattr(engine, field)!r}"
            )
    if engine.n != game.actions_count:
        problems.append(f"actions_count is {game.actions_count}, log has {engine.n}")
    return problems


def game_hint(*, game: Game, user: Any) -> dict[str, Any]:
    """R30: the next action of a winning line from the game's position, or `action` None with
    `winnable` False when the solver proved none exists, or None/None when it could not decide
    within its budget (games.solver.HINT_SECONDS). Counts the hint on the game. Raises
    Forbidden (not the owner, or a ranked daily game while its day lasts) or GameFinished."""
    if game.owner_id != user.pk:
        raise Forbidden(_("Only the game's owner may ask for a hint."))
    game = game_end_day_over(game)
    if game.status != Game.Status.PLAYING:
        raise GameFinished(game_over_message(game))
    if game.challenge_id is not None:  # in progress, so its day lasts (R26a)
        raise Forbidden(_("No hints in a ranked daily game while its day lasts."), "R30")
    if game_match_id(game) is not None:
        raise Forbidden(_("No hints in a match game."), "R30")
    action, winnable = hint(EngineGame.from_dict(game.state))
    Game.objects.filter(pk=game.pk).update(hints=F("hints") + 1)
    game.hints += 1
    return {"action": action, "winnable": winnable}


# The fields that hold a client's keyed hashes (core.clients), on whichever model has
# them: a game, a match seat (matches.models.MatchPlayer), or one added later.
HASH_FIELDS = ("address_hash", "device_hash")


def hashed_models() -> list[tuple[type[models.Model], list[str]]]:
    """Every installed model holding client hashes, with those fields. Each names the field
    its hashes are dated by in `hashes_dated_by` (kept ADDRESS_HASH_DAYS from then)."""
    found = []
    for model in apps.get_models():
        fields = [f.name for f in model._meta.get_fields() if f.name in HASH_FIELDS]
        if fields:
            found.append((model, fields))
    return found


def _hashes_emptied(rows: models.QuerySet[Any], fields: list[str]) -> int:
    kept = Q()
    for field in fields:
        kept |= ~Q(**{field: ""})
    return rows.filter(kept).update(**dict.fromkeys(fields, ""))


def address_hashes_forget(*, now: datetime.datetime) -> int:
    """Empty the address and device hashes kept more than ADDRESS_HASH_DAYS before `now` (the
    fair-play review looks no further back), on every model that holds some (games, match
    seats: `hashed_models`); returns how many rows had some."""
    cutoff = now - datetime.timedelta(days=settings.ADDRESS_HASH_DAYS)
    emptied = 0
    for model, fields in hashed_models():
        dated_by: str = model.hashes_dated_by  # type: ignore[attr-defined]
        emptied += _hashes_emptied(
            model._default_manager.filter(**{f"{dated_by}__lt": cutoff}), fields
        )
    return emptied


def address_hashes_forget_for(*, user: Any) -> int:
    """Empty every client hash kept of `user`'s requests: on each model that holds some, the
    rows whose foreign key to the user model is `user` (a deleted account: accounts.identity)."""
    user_model = get_user_model()
    emptied = 0
    for model, fields in hashed_models():
        for field in model._meta.get_fields():
            if field.many_to_one and field.related_model is user_model:
                rows = model._default_manager.filter(**{field.name: user})
                emptied += _hashes_emptied(rows, fields)
    return emptied


RESIGNED = "resigned"


def games_end_idle(*, now: datetime.datetime) -> int:
    """End the games left without an action for IDLE_GAME_DAYS (dealt that long ago, and no
    action since): every game in progress that is not on a daily challenge or in a match (daily
    games end with their day, R26a; match games with their match, R32). docs/api.md's statuses and
    end reasons have no "left": such a game ends `resigned` with end_reason "resigned", as of
    `now`, and is marked `left`, so that it never counts in statistics
    (games.selectors.games_counted). Nothing is logged: the player did not act. A game that
    moved meanwhile is left alone (the update checks its action count).
    Returns how many were ended."""
    since = now - datetime.timedelta(days=settings.IDLE_GAME_DAYS)
    recent = Action.objects.filter(game=OuterRef("pk"), at__gte=since)
    idle = (
        Game.objects.filter(
            status=Game.Status.PLAYING,
            challenge__isnull=True,
            match_seat__isnull=True,
            created_at__lt=since,
        )
        .exclude(Exists(recent))
        .values_list("pk", "actions_count", "state", "owner_id", "score")
    )
    ended = 0
    for pk, actions_count, state, owner_id, score in idle.iterator():
        with transaction.atomic():
            if Game.objects.filter(
                pk=pk, actions_count=actions_count, status=Game.Status.PLAYING
            ).update(
                state={**state, "status": RESIGNED},
                status=Game.Status.RESIGNED,
                end_reason=RESIGNED,
                finished_at=now,
                left=True,
            ):
                ended += 1
                game = Game(pk=pk, owner_id=owner_id, score=score)
                game.status = game.end_reason = RESIGNED
                _game_ended(game)
    return ended


# ---- R37: analyses (games.analysis), computed off the request path ---------------------------

# How long a `running` analysis may go without word before another run takes it again (its
# run died: a restart, a stopped node). Far above a game's analysis (seconds).
ANALYSIS_STALE = datetime.timedelta(minutes=10)


def game_analysis(*, game: Game) -> GameAnalysis:
    """R37: the analysis row of `game` (visible to the caller: games.selectors), queued by the
    first read that asks for it; never computed here (`analyses_run` does, in the scheduler's
    process). DealHidden (409 `deal_hidden`) while the game's deal may not be shown (R19):
    before the game has ended, a daily game's before its day is over, a match game's before
    its match is finished. Checked before any stored row is read: nothing of it leaks."""
    if game.status == Game.Status.PLAYING:
        raise DealHidden(_("The game is in progress: it can be analysed once it has ended."), "R37")
    if game_is_private(game):
        if game.challenge_id is not None:
            message = _("The daily's deal stays secret until its day is over (R19).")
        else:
            message = _("The match's deal stays secret until the match is finished (R19).")
        raise DealHidden(message, "R19")
    row, _created = GameAnalysis.objects.get_or_create(
        game=game, defaults={"queued_at": timezone.now()}
    )
    return row


def analysis_payload(row: GameAnalysis) -> dict[str, Any]:
    """docs/api.md's ANALYSIS of a row: status and progress while it is computed (202), the whole
    analysis once done (200)."""
    if row.status != GameAnalysis.Status.DONE:
        return {"status": row.status, "progress": round(row.progress, 3)}
    return {"status": row.status, "progress": 1.0, **(row.result or {})}


def _analysis_result(game: Game, found: analysis.Analysis) -> dict[str, Any]:
    """The stored part of docs/api.md's ANALYSIS."""
    par = None
    challenge = game.challenge
    if challenge is not None and challenge.par is not None:  # R31, the day is over (R37)
        par = {"moves": challenge.par, "exact": challenge.par_exact}
    over_par = game.moves - par["moves"] if par and game.status == Game.Status.WON else None
    line = None
    if found.line_from is not None:
        after = found.kept[found.line_from - 1] if found.line_from else 0
        line = {"after": after, "actions": [action.as_dict() for action in found.line]}
    return {
        "kept": list(found.kept),
        "winnable": list(found.winnable),
        "lost_at": found.lost_at,
        "line": line,
        "undecided": found.undecided,
        "moves": game.moves,
        "kept_moves": found.kept_moves,
        "par": par,
        "over_par": over_par,
        "nodes": analysis.NODES,
        "computed_at": timezone.now().isoformat().replace("+00:00", "Z"),
    }


def _analysis_claim(skip: list[Any]) -> GameAnalysis | None:
    """Take the oldest queued analysis (or one whose run went silent, ANALYSIS_STALE) for this
    run: a conditional update, so that two runs never take the same one."""
    while True:
        now = timezone.now()
        queued = Q(status=GameAnalysis.Status.PENDING) | Q(
            status=GameAnalysis.Status.RUNNING, started_at__lt=now - ANALYSIS_STALE
        )
        row = GameAnalysis.objects.filter(queued).exclude(pk__in=skip).order_by("queued_at").first()
        if row is None:
            return None
        taken = GameAnalysis.objects.filter(
            pk=row.pk, status=row.status, started_at=row.started_at
        ).update(status=GameAnalysis.Status.RUNNING, started_at=now, progress=0.0)
        if taken:
            row.status, row.started_at, row.progress = GameAnalysis.Status.RUNNING, now, 0.0
            return row


def analysis_run(row: GameAnalysis) -> GameAnalysis | None:
    """Compute one claimed analysis (`_analysis_claim`) and store it; its progress is stored as
    it goes. A game whose deal may not be shown (no read queues one: R19) is not analysed:
    its row goes (None)."""
    game = Game.objects.select_related("challenge", SEAT_MATCH).get(pk=row.pk)
    mine = GameAnalysis.objects.filter(pk=row.pk, started_at=row.started_at)
    if game.status == Game.Status.PLAYING or game_is_private(game):
        mine.delete()
        return None
    log = [EngineAction.from_dict(logged_action(action)) for action in game.actions.order_by("n")]

    def progress(share: float) -> None:
        mine.update(progress=share)

    found = analysis.analyse(game_engine_new(game), log, progress=progress)
    result = _analysis_result(game, found)
    digest = hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()
    row.status, row.progress, row.result = GameAnalysis.Status.DONE, 1.0, result
    row.etag, row.done_at = f'"{digest[:32]}"', timezone.now()
    with transaction.atomic():
        stored = mine.update(
            status=row.status, progress=1.0, result=result, etag=row.etag, done_at=row.done_at
        )
        if stored:  # (not when another run took the row back meanwhile)
            event_add(user=game.owner_id, kind="analysis_ready", data={"game": str(game.pk)})
    return row


def analyses_run() -> list[GameAnalysis]:
    """Compute the queued analyses, oldest first, until none is left. One game's failure (a
    bug) does not stop the queue behind it: it stays queued, and the log says why."""
    done: list[GameAnalysis] = []
    failed: list[Any] = []
    while (row := _analysis_claim(failed)) is not None:
        try:
            if (computed := analysis_run(row)) is not None:
                done.append(computed)
        except (OperationalError, InterfaceError):  # the database is away: the next run retries
            raise
        except Exception:
            logger.exception("analysis_failed", extra={"fields": {"game": str(row.pk)}})
            GameAnalysis.objects.filter(pk=row.pk, started_at=row.started_at).update(
                status=GameAnalysis.Status.PENDING, started_at=None, progress=0.0
            )
            failed.append(row.pk)
    return done
