"""Writes of matches (R32) and ratings (R33).

Joining is one short transaction: the player's row is locked (so one player's two joins take
turns and one of them finds the other's match), then a few open matches of the mode nearest to
the player's rating are locked with SKIP LOCKED (a joiner never waits on another's match: it
takes the next, or opens one), filtered by the rules of R32, and the player is seated with a
game dealt at once from the match's deal, taken from the pool the scheduler fills
(matches.deals): nothing on the path waits for the solver.

A match game's change reaches `match_game_changed` inside its own write's transaction
(games.changes tells it): the match row is locked there, so of two last games ending at
once the second sees the first's end and finishes the match, once; finishing ranks the places.
R35: a match is rated only after the fair-play review of all its games (each game's end queues
its review in the same write, before the match hears of it): at once if they were all reviewed
already, else by `match_rate_reviewed` when the last review ends clean or staff decide a held
one (`fairplay.services`).
R33a: finishing marks aborted the seats whose game ended with fewer than ABORT_BELOW_ACTIONS
actions (no place, not rated); rating damps what provisional opponents do to an established
rating (matches.ratings) and holds for staff, instead of rating, a winner's repeated wins over
fresh accounts (`_farming`; staff rate it with `match_hold_release` or drop it with
`match_hold_drop`, in the matches admin).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.events import events_add
from accounts.identity import player_lock
from core import hub
from core.commits import after_commit
from core.errors import Forbidden
from core.rows import row_instance, row_reader
from games.changes import GameChanged
from games.days import day_today, day_zone
from games.engine import DealCode
from games.models import Game
from games.selectors import account_standing_require
from games.services import game_create, game_end_day_over
from matches import ratings, selectors
from matches.deals import match_deal_solve
from matches.models import Match, MatchDeal, MatchPlayer, Rating

logger = logging.getLogger(__name__)

SIZES = (2, 4)
DRAWS = (3, 1)
# R32: a match is open this long; its running games then end `match_over`.
MATCH_HOURS = 24
# Joiners are seated only in matches opened less than this long ago (so nobody starts a game
# its match ends minutes later).
JOIN_WITHIN = dt.timedelta(hours=20)
# The open matches of a mode locked and weighed per join, nearest rating first.
CANDIDATES = 8
# R32: the acceptable distance between a joiner's rating and a match's, widening with its age.
RATING_WINDOW = 150
RATING_WIDEN_PER_MINUTE = 20
# R35: the fair-play review's states (fairplay.models.Review.State) in which a game no longer
# holds its match's ratings back.
REVIEWED = ("clean", "cleared", "disqualified")
# R33a: a seat whose game ended with fewer actions than this is aborted (resigning at once, or a
# game left untouched until the match's close, is no match played: no place, no rating).
ABORT_BELOW_ACTIONS = 10
# R33a farming: a win over accounts that are provisional (R33) and younger than this (or that
# share a client address with the winner) is a "fresh win"; fresh accounts are what a farmer
# makes, and an honest newcomer is past this age by the time a farmer could have beaten them
# FARM_WINS times.
FRESH_ACCOUNT_AGE = dt.timedelta(days=7)
# R33a farming: a winner with this many rated fresh wins in FARM_WINDOW has the next one held for
# staff, not rated (the farmer gained 300 points in 6 such matches; three wins over
# newcomers in a week happen to honest players, a fourth is where staff look).
FARM_WINS = 3
FARM_WINDOW = dt.timedelta(days=7)
# The match's fields the farming check sets (saved with its rating, or alone when it holds).
HOLD_FIELDS = ["fresh_win", "hold", "held_at", "hold_reason"]


# ---- joining -----------------------------------------------------------------------------


def _day_start(now: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(day_today(now), dt.time(), tzinfo=day_zone())


def _read(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of one plain SQL read (the join's reads are written out: the ORM's compilation
    of them cost more CPU than the rest of a join, bench/matches.py)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def _uuid(value: Any) -> Any:
    """A UUID as the database takes it (SQLite: 32 hex digits)."""
    return Match._meta.pk.get_db_prep_value(value, connection)


def _moment(value: dt.datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


# The player's open match of the mode (to answer with it; a duel is no such match), and their
# rating of the mode.
OPEN_AND_RATING = """
SELECT (SELECT mp.match_id FROM matches_matchplayer mp
        JOIN matches_match m ON m.id = mp.match_id
        WHERE mp.player_id = %s AND m.size = %s AND m.draw = %s AND m.status = 'open'
        AND NOT m.duel LIMIT 1),
       (SELECT r.rating FROM matches_rating r
        WHERE r.player_id = %s AND r.size = %s AND r.draw = %s)
"""

# The open matches of the mode nearest the joiner's rating (`CANDIDATES` of them) that no other
# joiner holds (locked, SKIP LOCKED on PostgreSQL), with their distance and deal.
CANDIDATES_READ = """
SELECT {columns}, ABS(matches_match.rating - %s), matches_matchdeal.deal_code
FROM matches_match JOIN matches_matchdeal ON matches_matchdeal.id = matches_match.deal_id
WHERE matches_match.size = %s AND matches_match.draw = %s AND matches_match.bot = %s
AND matches_match.status = 'open' AND NOT matches_match."full" AND matches_match.created_at > %s
ORDER BY ABS(matches_match.rating - %s), matches_match.created_at LIMIT %s{lock}
"""

# The players seated in the candidate matches: whether each shared a client address hash with
# the joiner today (R32: a hash of the joiner's games today, or of this join, among theirs of
# today), and whether each was the joiner's opponent in their last match of the mode.
SEATED = """
SELECT mp.match_id, mp.player_id,
       EXISTS (SELECT 1 FROM games_game g
               WHERE g.owner_id = mp.player_id AND g.created_at >= %s AND g.address_hash <> ''
               AND (g.address_hash = %s OR g.address_hash IN (
                   SELECT h.address_hash FROM games_game h
                   WHERE h.owner_id = %s AND h.created_at >= %s))),
       EXISTS (SELECT 1 FROM matches_matchplayer o
               WHERE o.player_id = mp.player_id AND o.match_id = (
                   SELECT l.match_id FROM matches_matchplayer l
                   JOIN matches_match m ON m.id = l.match_id
                   WHERE l.player_id = %s AND m.size = %s AND m.draw = %s
                   ORDER BY l.joined_at DESC LIMIT 1))
FROM matches_matchplayer mp WHERE mp.match_id IN ({matches})
"""


def _seat_find(
    *,
    player: Any,
    size: int,
    draw: int,
    bot: bool,
    rating: int,
    address_hash: str,
    now: dt.datetime,
) -> Match | None:
    """The open match to seat the player in (locked), or None: of the few nearest in rating
    that no other joiner holds, those within the distance their age allows, without an account
    that shared an address with the player today; one without the player's last opponents if
    any fits."""
    db = connections[DEFAULT_DB_ALIAS]
    locks = db.features.has_select_for_update_skip_locked
    rows = _read(
        CANDIDATES_READ.format(
            columns=row_reader(Match)[0], lock=" FOR UPDATE OF matches_match SKIP LOCKED" * locks
        ),
        [rating, size, draw, bot, _moment(now - JOIN_WITHIN), rating, CANDIDATES],
    )
    width = len(Match._meta.concrete_fields)
    fits = {}
    for row in rows:
        match = row_instance(db, Match, row[:width])
        distance, deal_code = row[width:]
        age = (now - match.created_at).total_seconds() / 60
        if distance <= RATING_WINDOW + RATING_WIDEN_PER_MINUTE * age:
            match.deal = MatchDeal(id=match.deal_id, draw=draw, deal_code=deal_code)
            fits[match.pk] = match
    if not fits:
        return None
    since = _moment(_day_start(now))
    rows = _read(
        SEATED.format(matches=", ".join(["%s"] * len(fits))),
        [since, address_hash, player.pk, since, player.pk, size, draw] + [_uuid(pk) for pk in fits],
    )
    banned, met = set(), set()
    for match_id, _player_id, shared, last in rows:
        pk = Match._meta.pk.to_python(match_id)
        if shared:
            banned.add(pk)
        if last:
            met.add(pk)
    allowed = [match for pk, match in fits.items() if pk not in banned]
    fresh = [match for match in allowed if match.pk not in met]
    return (fresh or allowed)[0] if allowed else None


# An unused pool deal of the draw mode, marked used in the same statement.
DEAL_TAKE = """
UPDATE matches_matchdeal SET used_at = %s WHERE id = (
    SELECT id FROM matches_matchdeal WHERE draw = %s AND used_at IS NULL
    ORDER BY "index" LIMIT 1 {lock})
RETURNING id, "index", deal_code
"""


def _deal_take(*, draw: int, now: dt.datetime) -> MatchDeal:
    """An unused pool deal of the draw mode, marked used; solved here only if the pool is empty
    (the scheduler keeps it filled: a warning says it did not)."""
    lock = "FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked else ""
    taken = _read(DEAL_TAKE.format(lock=lock), [_moment(now), draw])
    if taken:
        ((pk, index, deal_code),) = taken
        return MatchDeal(id=pk, draw=draw, index=index, deal_code=deal_code, used_at=now)
    logger.warning("match_pool_empty", extra={"fields": {"draw": draw}})
    deal = match_deal_solve(draw=draw)
    deal.used_at = now
    deal.save(update_fields=["used_at"])
    return deal


class Joined(NamedTuple):
    match: Match
    created: bool  # False: the player's unfinished match of the mode, nothing joined
    seats: list[MatchPlayer] | None  # the match's seats if in hand (a new match's one), else None


def match_join(
    *, player: Any, size: int, draw: int, address_hash: str = "", device_hash: str = ""
) -> Joined:
    """R32: seat the player in a match of that size and draw, their game dealt at once; or
    answer with their unfinished match of the mode if they have one."""
    if size not in SIZES or draw not in DRAWS:
        raise ValueError(f"no match of size {size} and draw {draw}")
    with transaction.atomic():
        locked = player_lock(user=player)
        if locked.guest:  # a rated game needs an account with a name (as a daily does)
            raise Forbidden(_("Sign up to play a match: your games stay yours."))
        # R36: a rated match needs an account in good standing (403 `standing` otherwise).
        account_standing_require(user=player, now=timezone.now())
        bot = locked.bot
        ((existing, row),) = _read(OPEN_AND_RATING, [player.pk, size, draw] * 2)
        if existing is not None:
            return Joined(Match.objects.get(pk=existing), False, None)
        now = timezone.now()
        rating = ratings.START if row is None else row
        match = _seat_find(
            player=player, size=size, draw=draw, bot=bot, rating=rating,
            address_hash=address_hash, now=now,
        )  # fmt: skip
        if match is None:  # a match of its own, written with its first seat taken
            match = Match.objects.create(
                size=size, draw=draw, bot=bot, deal=_deal_take(draw=draw, now=now),
                created_at=now, ends_at=now + dt.timedelta(hours=MATCH_HOURS), rating=rating,
                seats=1,
            )  # fmt: skip
            seat = 1
        else:
            seat = match.seats + 1
            match.rating = (match.rating * match.seats + rating) / seat
            match.seats = seat
            match.full = seat >= size
        game = game_create(
            owner=player,
            ruleset="app",
            draw=draw,
            code=DealCode.parse(match.deal.deal_code),
            match=match,
            address_hash=address_hash,
            device_hash=device_hash,
        )
        joined = MatchPlayer.objects.create(
            match=match,
            player=player,
            game=game,
            seat=seat,
            bot=bot,
            address_hash=address_hash,
            joined_at=now,
            rating_before=rating,
        )
        if seat == 1:  # nobody can listen to a match before its first seat is committed
            return Joined(match, True, [joined])
        match.save(update_fields=["rating", "seats", "full"])
        _seat_events(match, joined, size)
        # The new row to the match's live listeners, from what is in hand (no read).
        event = {"type": "player", **selectors.player_row(joined)}
        after_commit(lambda: _send(match.pk, {"event": event}))
    return Joined(match, True, None)


def _seat_events(match: Match, joined: MatchPlayer, size: int) -> None:
    """In the write of a seat taken: the other seated players' `match_seat_filled` events, and
    when it was the last seat, every player's `match_found`."""
    match_id = str(match.pk)
    players = list(match.players.values_list("player_id", flat=True))
    data = {"match": match_id, "seat": joined.seat, "seats": match.seats, "size": size}
    added = [
        (player, "match_seat_filled", data) for player in players if player != joined.player_id
    ]
    if match.full:
        added += [(player, "match_found", {"match": match_id}) for player in players]
    events_add(added)


# ---- a match game changed ----------------------------------------------------------------


def match_game_changed(change: GameChanged) -> None:
    """Inside the write of a match game's change (games.changes): finish the match if that was
    its last game to end and every seat is taken, or its time is up (R32)."""
    if not change.finished:
        return
    seat = change.game.match_seat  # (a match game's change: games.changes.GameKind)
    match = Match.objects.select_for_update().get(pk=seat.match_id)
    if match.status != Match.Status.OPEN:
        return
    if Game.objects.filter(match_seat__match=match, status=Game.Status.PLAYING).exists():
        return
    if match.full or change.at >= match.ends_at:
        match_finish(match=match, at=change.at)


def match_game_committed(change: GameChanged) -> None:
    """After a match game's change committed: its row to the match's live listeners."""
    match_publish_player(match_id=change.game.match_seat.match_id, game_id=change.game.pk)


def _place_key(seat: MatchPlayer) -> tuple[Any, ...]:
    """R32: places as a daily board ranks (score, then moves, then seconds, then who finished
    first), seat last (who joined first) so that places are always distinct."""
    game = seat.game
    end = game.finished_at or timezone.now()
    return (-game.score, game.moves, (end - game.created_at).total_seconds(), end, seat.seat)


def match_finish(*, match: Match, at: dt.datetime) -> None:
    """Finish a locked open match whose games have all ended: its seats whose game ended with
    fewer than ABORT_BELOW_ACTIONS actions aborted (R33a), places for the others, then ratings if
    all its games are reviewed already (R35; else `match_rate_reviewed` rates it later); a match
    of fewer than two played seats is cancelled (no rating changes)."""
    seats = selectors.match_seats(match)
    match.finished_at = at
    for seat in seats:
        seat.aborted = seat.game.actions_count < ABORT_BELOW_ACTIONS
    played = [seat for seat in seats if not seat.aborted]
    if len(played) < 2:
        match.status = Match.Status.CANCELLED
        match.save(update_fields=["status", "finished_at"])
    else:
        for place, seat in enumerate(sorted(played, key=_place_key), start=1):
            seat.place = place
        match.status = Match.Status.FINISHED
        if match_reviewed(match):
            match_rate(match=match, seats=seats, at=at, save=False)
        match.save(update_fields=["status", "finished_at", "rated_at", *HOLD_FIELDS])
    _seats_write(seats)
    events_add(
        [
            (
                seat.player_id,
                "match_finished",
                {"match": str(match.pk), "status": match.status, "place": seat.place},
            )
            for seat in seats
        ]
    )
    # The finished match to its live listeners, from the rows in hand.
    after_commit(lambda: _publish_finished(match, seats))


def match_reviewed(match: Match) -> bool:
    """R35: every game of the match has its fair-play review decided and none is held: each
    is `clean`, `cleared` or `disqualified` (a disqualified game's player keeps their place:
    the match happened). Every match game, bots' too, is queued for review when it ends, so a
    game with no review is not reviewed."""
    return not (
        Game.objects.filter(match_seat__match=match)
        .exclude(fairplay_review__state__in=REVIEWED)
        .exists()
    )


# Each seat's player's rating row of the mode, made at the start values where there is none,
# locked and returned: the conflict's update (a no-op) locks an existing row, and a row another
# transaction is making is waited for, then locked (so two matches of one player rate in turn).
RATINGS_LOCK = """
INSERT INTO matches_rating (player_id, size, draw, bot, mu, sigma, rating, matches, updated_at)
VALUES {rows}
ON CONFLICT (player_id, size, draw) DO UPDATE SET matches = matches_rating.matches
RETURNING player_id, mu, sigma, rating, matches
"""
# The same rows' new values (every row exists and is locked: each conflict is the update).
RATINGS_WRITE = """
INSERT INTO matches_rating (player_id, size, draw, bot, mu, sigma, rating, matches, updated_at)
VALUES {rows}
ON CONFLICT (player_id, size, draw) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
    rating = excluded.rating, matches = excluded.matches, updated_at = excluded.updated_at
"""
# The rating history's rows of the match (RatingChange), in one statement.
HISTORY_WRITE = """
INSERT INTO matches_ratingchange (player_id, match_id, size, draw, bot, place, mu_before,
    sigma_before, mu_after, sigma_after, rating_before, rating_after, at)
VALUES {rows}
"""
RATED_WRITE = "UPDATE matches_match SET rated_at = %s, fresh_win = %s WHERE id = %s"
# The seats' places, ratings after and aborted marks (R33a), in one statement.
SEATS_WRITE = """
UPDATE matches_matchplayer SET place = CAST(v.column2 AS INTEGER),
    rating_after = CAST(v.column3 AS INTEGER), aborted = CAST(v.column4 AS BOOLEAN)
FROM (VALUES {rows}) AS v WHERE matches_matchplayer.id = CAST(v.column1 AS INTEGER)
"""


def _rows(count: int, width: int) -> str:
    return ", ".join(["(" + ", ".join(["%s"] * width) + ")"] * count)


def _seats_write(seats: list[MatchPlayer]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            SEATS_WRITE.format(rows=_rows(len(seats), 4)),
            [
                value
                for seat in seats
                for value in (seat.pk, seat.place, seat.rating_after, seat.aborted)
            ],
        )


def _farming(*, match: Match, played: list[MatchPlayer], at: dt.datetime) -> str:
    """R33a farming: why the match is held for staff instead of rated ("" if it is not). Sets
    `match.fresh_win` when its winner beat fresh accounts only: provisional (R33) ones made
    less than FRESH_ACCOUNT_AGE ago or that dealt a game from a client address (hashed) the
    winner dealt one from. Held when that winner already has FARM_WINS such rated wins in the
    last FARM_WINDOW: one account beating its own alts over and over."""
    winner = next(seat for seat in played if seat.place == 1)
    others = [seat for seat in played if seat is not winner]
    established = Rating.objects.filter(
        player_id__in=[seat.player_id for seat in others],
        size=match.size,
        draw=match.draw,
        matches__gte=ratings.PROVISIONAL_MATCHES,
    )
    if established.exists():
        return ""
    old = [seat.player_id for seat in others if seat.player.date_joined < at - FRESH_ACCOUNT_AGE]
    if old:
        winners = Game.objects.filter(owner_id=winner.player_id).exclude(address_hash="")
        shared = Game.objects.filter(
            owner_id__in=old, address_hash__in=winners.values("address_hash")
        )
        if len(set(shared.values_list("owner_id", flat=True))) < len(old):
            return ""
    match.fresh_win = True
    wins = Match.objects.filter(
        fresh_win=True,
        rated_at__gte=at - FARM_WINDOW,
        players__player_id=winner.player_id,
        players__place=1,
    ).count()
    if wins < FARM_WINS:
        return ""
    return (
        f"{winner.player.username} beat fresh provisional accounts only, as in {wins} rated "
        f"matches of the last {FARM_WINDOW.days} days: "
        + ", ".join(seat.player.username for seat in others)
    )


def match_rate(
    *, match: Match, seats: list[MatchPlayer], at: dt.datetime, save: bool = True
) -> None:
    """R33: update the players' ratings of the mode from their places, inside the caller's
    transaction with the match row locked (so once: `rated_at` is set here, and RatingChange's
    unique constraint would refuse a second). Only played seats are rated (R33a: an aborted
    seat moves nobody's rating); a provisional opponent's share damps an established player's
    change (matches.ratings.rate). Three statements: the rating rows made or locked and read,
    written, and the history (plain SQL, as the match's `rated_at`: the ORM compiled both on
    every match), after the farming check's reads (`_farming`): a match it holds is not rated
    and waits for staff (`match_hold_release`, `match_hold_drop`). `save` False: the caller
    saves the seats' `rating_after` and the match's `rated_at` and hold fields."""
    if match.rated_at is not None or match.unrated:
        return
    if match.hold in (Match.Hold.HELD, Match.Hold.DROPPED):
        return
    players = sorted((seat for seat in seats if not seat.aborted), key=lambda seat: seat.player_id)
    reason = _farming(match=match, played=players, at=at)
    if reason and match.hold != Match.Hold.RELEASED:
        match.hold, match.held_at, match.hold_reason = Match.Hold.HELD, at, reason
        logger.warning("match_held", extra={"fields": {"match": str(match.pk), "why": reason}})
        if save:
            match.save(update_fields=HOLD_FIELDS)
        return
    when = _moment(at)

    def values(rows: list[tuple[float, float, int, int]]) -> list[Any]:
        return [
            value
            for seat, (mu, sigma, rating, matches) in zip(players, rows, strict=True)
            for value in (seat.player_id, match.size, match.draw, seat.bot, mu, sigma, rating,
                          matches, when)
        ]  # fmt: skip

    start = (ratings.MU, ratings.SIGMA, ratings.START, 0)
    with connection.cursor() as cursor:
        cursor.execute(
            RATINGS_LOCK.format(rows=_rows(len(players), 9)), values([start] * len(players))
        )
        rows = {row[0]: row[1:] for row in cursor.fetchall()}
    before = [rows[seat.player_id] for seat in players]
    places = [seat.place for seat in players if seat.place is not None]
    assert len(places) == len(players)
    after = ratings.rate(
        [(mu, sigma) for mu, sigma, _rating, _matches in before],
        places,
        [ratings.provisional(matches) for _mu, _sigma, _rating, matches in before],
    )
    new = []
    history: list[Any] = []
    match_id = _uuid(match.pk)
    for seat, (mu0, sigma0, rating0, matches), (mu1, sigma1) in zip(
        players, before, after, strict=True
    ):
        seat.rating_after = ratings.displayed(mu1, sigma1)
        new.append((mu1, sigma1, seat.rating_after, matches + 1))
        history += [seat.player_id, match_id, match.size, match.draw, seat.bot, seat.place, mu0,
                    sigma0, mu1, sigma1, rating0, seat.rating_after, when]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(RATINGS_WRITE.format(rows=_rows(len(players), 9)), values(new))
        cursor.execute(HISTORY_WRITE.format(rows=_rows(len(players), 13)), history)
    match.rated_at = at
    events_add(
        [
            (seat.player_id, "match_rated", {"match": str(match.pk), "rating": seat.rating_after})
            for seat in players
        ]
    )
    if save:
        _seats_write(players)
        with connection.cursor() as cursor:
            cursor.execute(RATED_WRITE, [when, match.fresh_win, match_id])


def match_rate_reviewed(match_id: Any) -> bool:
    """R35: the review of a game of this match (None: not a match game) ended clean, or staff
    cleared or disqualified it: rate the match if it is finished, not rated yet and all its
    games are reviewed, with its row locked (so it rates once: a second caller finds
    `rated_at` set), and tell its live listeners; True if it was rated now (False too when
    the farming check holds it for staff, R33a)."""
    if match_id is None:
        return False
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.FINISHED or match.rated_at is not None or match.unrated:
            return False
        if not match_reviewed(match):
            return False
        seats = selectors.match_seats(match)
        match_rate(match=match, seats=seats, at=timezone.now())
        if match.rated_at is None:
            return False
        after_commit(lambda: _publish_rated(match, seats))
    return True


def match_hold_release(*, match_id: Any) -> bool:
    """Staff looked at a match the farming check held (R33a) and found it honest: it is rated
    now if its games' reviews allow (else when they do, `match_rate_reviewed`); True if it was
    held."""
    with transaction.atomic():
        released = Match.objects.filter(pk=match_id, hold=Match.Hold.HELD).update(
            hold=Match.Hold.RELEASED
        )
        if released:
            match_rate_reviewed(match_id)
    return bool(released)


def match_hold_drop(*, match_id: Any) -> bool:
    """Staff found a held match farmed (R33a): it is never rated (its places stay, as a record
    of what was played); True if it was held."""
    return bool(
        Match.objects.filter(pk=match_id, hold=Match.Hold.HELD).update(hold=Match.Hold.DROPPED)
    )


# ---- the 24 h close ------------------------------------------------------------------------


def match_close(*, match: Match, now: dt.datetime) -> Match:
    """R32: a match whose time is up: its running games end `match_over` (each ending is a
    match game change, so the last one finishes the match), then, if none was running, the
    match is finished here (or cancelled with fewer than two players)."""
    playing = Game.objects.filter(match_seat__match=match, status=Game.Status.PLAYING)
    for game in playing.select_related("match_seat__match"):
        game_end_day_over(game, now=now)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status == Match.Status.OPEN and not (
            Game.objects.filter(match_seat__match=match, status=Game.Status.PLAYING).exists()
        ):
            match_finish(match=match, at=match.ends_at)
    return match


def matches_close(*, now: dt.datetime) -> int:
    """Close every open match whose time is up (the scheduler, `manage.py close_matches`);
    returns how many."""
    closed = 0
    for match in Match.objects.filter(status=Match.Status.OPEN, ends_at__lte=now):
        if match_close(match=match, now=now).status != Match.Status.OPEN:
            closed += 1
    return closed


def match_read(*, match: Match, now: dt.datetime | None = None) -> Match:
    """The match as a read may see it: closed first if its time is up (R32)."""
    if match.status == Match.Status.OPEN and (now or timezone.now()) >= match.ends_at:
        return match_close(match=match, now=now or timezone.now())
    return match


# ---- live --------------------------------------------------------------------------------


def match_group(match_id: Any) -> str:
    return f"match.{match_id}"


def _send(match_id: Any, message: dict[str, Any]) -> None:
    """To the match's live listeners in every process (matches.consumers); a message lost
    (Redis away) is in the listeners' next snapshot."""
    hub.publish(match_group(match_id), message, via="layer")


def match_publish_player(*, match_id: Any, game_id: Any) -> None:
    """A player's row changed: to the match's live listeners (never a card: R32)."""
    seat = MatchPlayer.objects.select_related("game", "player").filter(game_id=game_id).first()
    if seat is None:
        return
    _send(match_id, {"event": {"type": "player", **selectors.player_row(seat)}})


def _publish_finished(match: Match, seats: list[MatchPlayer]) -> None:
    payload = selectors.match_payload(match, viewer=None, seats=seats)
    _send(match.pk, {"event": {"type": "finished", "match": payload}})


def _publish_rated(match: Match, seats: list[MatchPlayer]) -> None:
    """A finished match that waited for its review (or for staff, R33a) is rated: `rated`
    follows its one `finished` message."""
    payload = selectors.match_payload(match, viewer=None, seats=seats)
    _send(match.pk, {"event": {"type": "rated", "match": payload}})
