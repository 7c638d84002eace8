"""The fair-play review's Django side (R35): when ranked games are reviewed, the signals'
inputs read from the database, what a hold does, and the staff's decisions.

A ranked game that ends (won, resigned, or ended at its day's end) is queued in the write that
ends it: a pending `Review`, made by the ranked-game listener installed in `FairplayConfig`
(so the request does no review work). `manage.py review_games` (the scheduler) takes the
pending reviews, oldest first, within a time budget: it computes the pure signals of
`fairplay.signals` and their verdict, and holds the game's board entry when the verdict says so.
A match is rated only once all its games are reviewed and none is held (`match_rate_reviewed`,
after a clean review or a staff decision).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections import defaultdict
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Case, F, Max, Q, QuerySet, Value, When
from django.db.models.functions import Abs
from django.utils import timezone

from accounts.events import event_add
from fairplay import signals
from fairplay.models import Review
from games.changes import CHANGED, Clause, GameChanged
from games.engine import DealCode
from games.engine.deal import shuffled_deck
from games.models import Action, Game
from games.seats import SEAT, game_match_id
from leaderboard import services as board_services
from leaderboard.models import Entry
from matches.services import match_rate_reviewed

logger = logging.getLogger(__name__)

# `identical` compares the game with at most this many other accounts' games of the deal that
# ended before it, of a similar length (a copy has the original's length), nearest score first.
IDENTICAL_CANDIDATES = 50
SIMILAR_LENGTH = (0.8, 1.25)
# `scouting` weighs at most this many other accounts' games of the deal joined to the player's
# by an identity link: the same address or device (hashes), sign-ups within SIGNED_UP_CLOSE, a
# history (below) or a private OAuth app (below). Having played the deal shortly before, once,
# is no link (R35a): any stranger may have, and counting it let anyone's early game cast doubt
# on the winner.
SCOUTS = 20
SIGNED_UP_CLOSE = dt.timedelta(hours=1)
# A history link: over the HISTORY_DAYS before a won daily, the other account ended its game
# of the day within HISTORY_BEFORE before the winner's began, on at least HISTORY_MIN_DAYS
# days the winner won: a pattern, where once is chance (R35a).
HISTORY_DAYS, HISTORY_BEFORE, HISTORY_MIN_DAYS = 30, dt.timedelta(hours=2), 3
# An OAuth app link: an app created by one of the two accounts and authorised by the other,
# private: authorised by at most OAUTH_APP_ACCOUNTS accounts (a published client links nobody).
OAUTH_APP_ACCOUNTS = 5
# `surprise` compares a daily with at most this many of the account's previous dailies.
SURPRISE_RECORD = 30


# ---- queueing: the ranked-game listener ------------------------------------------------------


def review_queue(change: GameChanged) -> None:
    """Inside the write of a ranked game's change: queue the review of a game that ended."""
    if change.finished:
        review = Review(game=change.game, queued_at=change.at)
        Review.objects.bulk_create([review], ignore_conflicts=True)


def review_queue_statement(change: GameChanged) -> Clause | None:
    """`review_queue` as a clause of the action's one statement on PostgreSQL (games.changes)."""
    if not change.finished:
        return None
    sql = (
        f"INSERT INTO {Review._meta.db_table} (game_id, state, queued_at) "
        f"SELECT id, %s, %s FROM {CHANGED} ON CONFLICT (game_id) DO NOTHING"
    )
    return Clause("fairplay_queued", sql, (Review.State.PENDING, change.at))


# ---- the signals' inputs -------------------------------------------------------------------


def _deck(game: Game) -> tuple[str, ...]:
    if game.deal_code is None:
        return tuple(game.deck or ())
    code = DealCode.parse(game.deal_code)
    return tuple(shuffled_deck(code.number, code.version))


def game_logs(games: list[Game]) -> dict[uuid.UUID, signals.GameLog]:
    """Each game as the signals see it (its deal and its log, times from its creation), by id:
    one query for all the logs."""
    rows: dict[uuid.UUID, list[signals.LoggedAction]] = defaultdict(list)
    created = {game.pk: game.created_at for game in games}
    for game_id, kind, from_pile, to_pile, count, at in (
        Action.objects.filter(game__in=list(created))
        .order_by("game_id", "n")
        .values_list("game_id", "type", "from_pile", "to_pile", "count", "at")
    ):
        seconds = (at - created[game_id]).total_seconds()
        rows[game_id].append(signals.LoggedAction(kind, from_pile, to_pile, count, seconds))
    return {
        game.pk: signals.GameLog(
            deck=_deck(game),
            draw=game.draw,
            ruleset=game.ruleset,
            actions=tuple(rows[game.pk]),
            label=str(game.pk),
        )
        for game in games
    }


def _others(game: Game) -> QuerySet[Game]:
    """Other accounts' games of the same ranked deal: the day's, or the match's (R32: a match
    deal serves that match alone)."""
    if game.challenge_id is not None:
        others = Game.objects.filter(challenge_id=game.challenge_id)
    else:  # the games seated in the match the game is seated in (no read of its seat first)
        others = Game.objects.filter(match_seat__match__players__game=game)
    return others.exclude(owner_id=game.owner_id)


def identical_candidates(game: Game) -> list[Game]:
    """The games `identical` compares with: other accounts' games of the deal that ended before
    this one (the earlier game is the original), of a similar length, nearest score first."""
    low, high = SIMILAR_LENGTH
    return list(
        _others(game)
        .filter(finished_at__lt=game.finished_at)
        .filter(actions_count__gte=game.actions_count * low)
        .filter(actions_count__lte=game.actions_count * high)
        .order_by(Abs(F("score") - game.score), "finished_at")[:IDENTICAL_CANDIDATES]
    )


def history_links(game: Game) -> dict[int, int]:
    """Accounts that often ended their daily just before this game's owner started one they
    won: {account id: days} for those on at least HISTORY_MIN_DAYS of the owner's won dailies
    of the HISTORY_DAYS before this game (this one included, when won). Two queries, bounded by
    the days: the owner's wins, then the games of those challenges that ended in each window."""
    if game.challenge_id is None:
        return {}
    wins = Game.objects.filter(
        owner_id=game.owner_id,
        challenge__isnull=False,
        status=Game.Status.WON,
        created_at__gte=game.created_at - dt.timedelta(days=HISTORY_DAYS),
        created_at__lte=game.created_at,
    ).values_list("challenge_id", "created_at")
    windows = Q(pk__in=[])
    for challenge_id, started in wins:
        windows |= Q(
            challenge_id=challenge_id, finished_at__range=(started - HISTORY_BEFORE, started)
        )
    days: dict[int, set[dt.date]] = defaultdict(set)
    for owner_id, date in (
        Game.objects.filter(windows)
        .exclude(owner_id=game.owner_id)
        .values_list("owner_id", "challenge__date")
    ):
        days[owner_id].add(date)
    return {owner: len(dates) for owner, dates in days.items() if len(dates) >= HISTORY_MIN_DAYS}


def oauth_links(owner_id: int) -> set[int]:
    """Accounts joined to this one by a private OAuth app: one of the two created it
    (`Application.user`) and the other authorised it (holds a grant or a token of it), and at
    most OAUTH_APP_ACCOUNTS accounts did. Two queries."""
    from oauth2_provider.models import (
        get_access_token_model,
        get_application_model,
        get_grant_model,
        get_refresh_token_model,
    )

    holders = (get_access_token_model(), get_refresh_token_model(), get_grant_model())
    mine = Q(user_id=owner_id)
    for holder in holders:
        mine |= Q(pk__in=holder.objects.filter(user_id=owner_id).values("application_id"))
    creators = dict(
        get_application_model()
        .objects.filter(mine, user__isnull=False)
        .values_list("pk", "user_id")
    )
    if not creators:
        return set()
    first, *rest = (
        holder.objects.filter(application_id__in=list(creators)).values_list(
            "application_id", "user_id"
        )
        for holder in holders
    )
    accounts: dict[int, set[int]] = defaultdict(set)
    for app, user in first.union(*rest):
        accounts[app].add(user)
    linked = set()
    for app, creator in creators.items():
        users = accounts[app] | {creator}
        if len(users) <= OAUTH_APP_ACCOUNTS and owner_id in users:
            # the creator and those who authorised it; the owner is one of them
            linked |= users if creator == owner_id else {creator}
    return linked - {owner_id}


def scout_candidates(game: Game) -> list[tuple[Game, tuple[str, ...], float]]:
    """The games `scouting` weighs: other accounts' games of the deal joined to this one by an
    identity link (the same address or device hash, sign-ups within SIGNED_UP_CLOSE, a history
    of ending just before the owner's wins, a private OAuth app) that ended before it (or are
    still running), each with its links and how many seconds before this game's end it ended
    (or last moved). Provisional games (R36) are games of the deal like any other: the cards
    they revealed count. At most six queries, whatever the history."""
    joined = game.owner.date_joined
    history = history_links(game)
    apps = oauth_links(game.owner_id)
    linked = Q(owner__date_joined__range=(joined - SIGNED_UP_CLOSE, joined + SIGNED_UP_CLOSE))
    linked |= Q(owner_id__in=[*history, *apps])
    same = Q(pk__in=[])  # the same address or device: the strongest links, weighed first
    if game.address_hash:
        same |= Q(address_hash=game.address_hash)
    if game.device_hash:
        same |= Q(device_hash=game.device_hash)
    end = game.finished_at or timezone.now()
    found: list[tuple[Game, tuple[str, ...], float]] = []
    for other in (
        _others(game)
        .filter(linked | same)
        .filter(Q(finished_at__lt=end) | Q(finished_at__isnull=True))
        .select_related("owner")
        .annotate(
            last_at=Max("actions__at"),
            shares=Case(When(same, then=Value(1)), default=Value(0)),
        )
        .order_by("-shares", "-finished_at")[:SCOUTS]
    ):
        links = []
        if game.address_hash and other.address_hash == game.address_hash:
            links.append("address")
        if game.device_hash and other.device_hash == game.device_hash:
            links.append("device")
        apart = abs(other.owner.date_joined - joined)
        if apart <= SIGNED_UP_CLOSE:
            links.append(f"signed up {round(apart.total_seconds() / 60)} min apart")
        if other.owner_id in history:
            links.append(f"history: {history[other.owner_id]} days")
        if other.owner_id in apps:
            links.append("oauth app")
        ended = other.finished_at or other.last_at or other.created_at
        found.append((other, tuple(links), (end - ended).total_seconds()))
    return found


def surprise_inputs(game: Game) -> tuple[signals.DailyStats, list[signals.DailyStats]]:
    """`surprise`'s inputs: the daily game and the account's previous finished dailies (at most
    SURPRISE_RECORD, newest first), each with its deal's par. A match game has no par: it is
    compared with nothing. One query (two without the game's challenge loaded)."""
    if game.challenge_id is None:
        return signals.DailyStats(game.status == Game.Status.WON, game.moves), []
    challenge = game.challenge
    assert challenge is not None  # (its challenge_id is set)
    stats = signals.DailyStats(game.status == Game.Status.WON, game.moves, challenge.par)
    record = (
        Game.objects.filter(
            owner_id=game.owner_id, challenge__isnull=False, finished_at__lt=game.created_at
        )
        .order_by("-finished_at")
        .values_list("status", "moves", "challenge__par")[:SURPRISE_RECORD]
    )
    return stats, [
        signals.DailyStats(status == Game.Status.WON, moves, par) for status, moves, par in record
    ]


# ---- reviewing -----------------------------------------------------------------------------


def review_run(review: Review) -> Review:
    """Compute the game's signals and verdict (each with its fixed budget: the same verdict
    whenever the game is reviewed, R35a) and decide: clean, or held (its entry leaves the
    public boards). A review decided meanwhile (another run) is left as it is."""
    game = review.game
    others = identical_candidates(game)
    scouts = scout_candidates(game)
    logs = game_logs([game, *others, *(other for other, _, _ in scouts)])
    log = logs[game.pk]
    scouted = [
        signals.Scout(str(other.pk), signals.uncovered(logs[other.pk]), before, links)
        for other, links, before in scouts
    ]
    results = [
        signals.timing(log),
        signals.identical(log, [logs[other.pk] for other in others]),
        signals.clairvoyance(log),
        signals.scouting(log, scouted),
        signals.foresight(log, scouted),
        signals.surprise(*surprise_inputs(game)),
    ]
    score, held = signals.verdict(results)
    review.score = score
    review.signals = {
        signal.name: {"score": signal.score, "evidence": signal.evidence} for signal in results
    }
    review.state = Review.State.HELD if held else Review.State.CLEAN
    review.reviewed_at = timezone.now()
    with transaction.atomic():
        decided = Review.objects.filter(pk=review.pk, state=Review.State.PENDING).update(
            state=review.state,
            score=review.score,
            signals=review.signals,
            reviewed_at=review.reviewed_at,
        )
        if decided and held:
            board_services.entry_hold(game=game)
            _review_event(review)
        elif decided:
            # R35: a match rates once all its games are reviewed (its row locked, in this
            # transaction: of two reviews ending at once, the second to lock it rates)
            match_rate_reviewed(game_match_id(game))
    if decided and held:
        logger.warning(
            "game_held",
            extra={"fields": {"game": str(game.pk), "player": game.owner_id, "score": score}},
        )
    return review


def reviews_run(*, budget: float) -> list[Review]:
    """Review pending games, oldest first: at least one, then more until none is left or
    `budget` seconds have passed. The budget decides how many games a run takes, never how
    much a game gets: each review has its fixed budget, and a backlog is served by more runs."""
    start = time.monotonic()
    done: list[Review] = []
    failed: list[int] = []
    while True:
        review = (
            Review.objects.filter(state=Review.State.PENDING)
            .exclude(pk__in=[each.pk for each in done] + failed)
            .select_related("game__owner", f"game__{SEAT}")
            .order_by("queued_at")
            .first()
        )
        if review is None:
            break
        try:
            done.append(review_run(review))
        except (OperationalError, InterfaceError):  # the database is away: the next run retries
            raise
        except Exception:
            # One game's failure (a bug, evidence the database refuses) must not stop the
            # queue behind it: the game stays pending, and the log says why.
            logger.exception("review_failed", extra={"fields": {"game": str(review.pk)}})
            failed.append(review.pk)
        if time.monotonic() - start >= budget:
            break
    return done


# ---- the staff's decisions (fairplay.admin) ------------------------------------------------


def reviews_clear(*, reviews: QuerySet[Review], by: Any) -> list[Review]:
    """Staff cleared these held games: their entries come back on the boards; returns those
    that were held."""
    cleared = []
    for review in reviews.filter(state=Review.State.HELD).select_related(f"game__{SEAT}"):
        with transaction.atomic():
            if _decide(review, Review.State.CLEARED, by):
                board_services.entry_clear(game=review.game)
                match_rate_reviewed(game_match_id(review.game))  # R35: its match may rate now
                cleared.append(review)
    return cleared


def reviews_disqualify(*, reviews: QuerySet[Review], by: Any) -> list[Review]:
    """Staff disqualified these held games: their entries leave every board for good
    (leaderboard.services.entries_disqualify); returns those that were held."""
    decided = [
        review
        for review in reviews.filter(state=Review.State.HELD).select_related(f"game__{SEAT}")
        if _decide(review, Review.State.DISQUALIFIED, by)
    ]
    entries = Entry.objects.filter(game__in=[review.game_id for review in decided])
    board_services.entries_disqualify(entries=entries, by=by)
    for review in decided:  # R35: its match may rate now (the player's place stands)
        match_rate_reviewed(game_match_id(review.game))
    return decided


def _decide(review: Review, state: str, by: Any) -> bool:
    now = timezone.now()
    changed = Review.objects.filter(pk=review.pk, state=Review.State.HELD).update(
        state=state, decided_by=by, decided_at=now
    )
    review.state, review.decided_by, review.decided_at = state, by, now
    if changed:
        _review_event(review)
    return bool(changed)


def _review_event(review: Review) -> None:
    """In the write of a decision that changes where a game stands (held, then cleared or
    disqualified): its player's `review_decided` event (a clean review changes nothing)."""
    data = {"game": str(review.game_id), "decision": review.state}
    event_add(user=review.game.owner_id, kind="review_decided", data=data)
