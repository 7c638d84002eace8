"""Challenges (issue 32): one player invites another, by name, to a duel: a match of two (R32)
with both seats reserved for them, on a fresh deal of the pool the solver proved winnable.

A challenge is pending for EXPIRE_HOURS; then the invited player accepts it (the match and
both games are made at once: `challenge_accept`), declines it, or the challenger cancels it;
a pending one past its time is expired (reads say so at once, `selectors.challenge_status`; the
scheduler writes it, `challenges_expire`). Every write of a challenge's state (made, then
decided) goes through `_challenge_change`, the one place to announce it from.

Rules: a duel is rated (R33) only when the challenger asked for it (`rated`) and the invited
player accepted it rated; then both need good standing (R36). Bots challenge bots only, people
people (R34). Guests have no name to be challenged by and may not challenge (as they may not
join a match). One pending challenge between the same two players at a time.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.events import events_add
from accounts.identity import player_lock
from accounts.models import Player
from core.errors import (
    ChallengeClosed,
    ChallengePending,
    Forbidden,
    InvalidRequest,
    NotFound,
    NotInStanding,
)
from games.engine import DealCode
from games.selectors import account_standing, account_standing_require
from games.services import game_create
from matches import ratings
from matches.models import Challenge, Match, MatchPlayer, Rating
from matches.services import MATCH_HOURS, _deal_take

# A pending challenge expires this long after it was made.
EXPIRE_HOURS = 24
DUEL = 2


# The account event (accounts/events.py) of each state a challenge is written with (keyed by
# the status's value: a Challenge.Status is that str).
EVENT_KINDS: dict[str, str] = {
    Challenge.Status.PENDING: "challenge_created",
    Challenge.Status.ACCEPTED: "challenge_accepted",
    Challenge.Status.DECLINED: "challenge_declined",
    Challenge.Status.CANCELLED: "challenge_cancelled",
    Challenge.Status.EXPIRED: "challenge_expired",
}


def _challenge_change(challenge: Challenge, *, status: str, at: dt.datetime) -> None:
    """The one place a challenge's state is written, inside the caller's transaction: made
    (`pending`, a new row), or leaving `pending` (accepted, declined, cancelled, expired; its
    row locked); both players' account events with it (an accepted duel's `match_found` too)."""
    challenge.status = status
    if challenge._state.adding:
        challenge.save(force_insert=True)
    else:
        challenge.decided_at = at
        challenge.save(update_fields=["status", "decided_at", "match"])
    data = {
        "challenge": str(challenge.pk),
        "challenger": challenge.challenger.username,
        "player": challenge.player.username,
        "draw": challenge.draw,
        "rated": challenge.rated,
        "match": None if challenge.match_id is None else str(challenge.match_id),
    }
    players = (challenge.challenger_id, challenge.player_id)
    added = [(user, EVENT_KINDS[status], data) for user in players]
    if status == Challenge.Status.ACCEPTED:
        added += [(user, "match_found", {"match": data["match"]}) for user in players]
    events_add(added)


def _players_lock(*users: Any) -> dict[int, Player]:
    """The accounts' Player rows locked, in id order (two challenges of one pair take turns,
    and never wait on each other in a circle)."""
    return {user.pk: player_lock(user=user) for user in sorted(users, key=lambda user: user.pk)}


def _standing_require(*, user: Any, other: Any, now: dt.datetime) -> None:
    """R36 for a rated duel: `user` (the caller) in good standing, else 403 `standing` with its
    figures; `other` too, else 403 `standing` naming them (their figures are theirs)."""
    account_standing_require(user=user, now=now)
    if not account_standing(user=other, now=now).ranked:
        raise NotInStanding(
            _("%(player)s is not in good standing yet (R36): challenge them unrated.")
            % {"player": other.username},
            rule="R36",
            params={"player": other.username},
        )


def _bots_require(locked: dict[int, Player], challenger: Any, player: Any) -> None:
    """R34: bots play bots only, people people."""
    if locked[challenger.pk].bot != locked[player.pk].bot:
        raise Forbidden(_("Bots play against bots only, people against people."), rule="R34")


def challenge_create(
    *,
    challenger: Any,
    username: str,
    draw: int,
    rated: bool,
    now: dt.datetime | None = None,
    address_hash: str = "",
    device_hash: str = "",
) -> Challenge:
    """Invite the player named `username` to a duel of that draw, from the challenger's client
    (`address_hash`, `device_hash`: their seat's and game's once the duel is made); NotFound
    for no such player (a guest has no name), InvalidRequest for oneself, Forbidden for a guest
    challenger or across R34, NotInStanding for a rated duel without both players in good
    standing (R36), ChallengePending while one between the two is pending."""
    now = now or timezone.now()
    player = None
    if "\x00" not in username:  # PostgreSQL refuses NUL in text: no such name either
        player = (
            get_user_model()
            .objects.filter(username__iexact=username[:150], is_active=True)
            .exclude(player__guest=True)
            .first()
        )
    if player is None:
        raise NotFound(_("No such player."))
    if player.pk == challenger.pk:
        raise InvalidRequest(_("You cannot challenge yourself."))
    with transaction.atomic():
        locked = _players_lock(challenger, player)
        if locked[challenger.pk].guest:
            raise Forbidden(_("Sign up to challenge a player: your games stay yours."))
        _bots_require(locked, challenger, player)
        if rated:
            _standing_require(user=challenger, other=player, now=now)
        pending = (
            Challenge.objects.filter(
                challenger__in=[challenger, player],
                player__in=[challenger, player],
                status=Challenge.Status.PENDING,
                expires_at__gt=now,
            )
            .values_list("pk", flat=True)
            .first()
        )
        if pending is not None:
            raise ChallengePending(
                _("A challenge between you and %(player)s is pending already.")
                % {"player": player.username},
                params={"challenge": str(pending)},
            )
        challenge = Challenge(
            challenger=challenger,
            player=player,
            draw=draw,
            rated=rated,
            created_at=now,
            expires_at=now + dt.timedelta(hours=EXPIRE_HOURS),
            address_hash=address_hash,
            device_hash=device_hash,
        )
        _challenge_change(challenge, status=Challenge.Status.PENDING, at=now)
        return challenge


def challenge_find(*, challenge_id: Any, user: Any) -> Challenge:
    """The challenge if `user` is one of its two players; NotFound otherwise (others never
    learn that it exists)."""
    challenge = (
        Challenge.objects.select_related("challenger", "player", "match")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None or user.pk not in (challenge.challenger_id, challenge.player_id):
        raise NotFound(_("No such challenge."))
    return challenge


def _pending_lock(*, pk: Any, now: dt.datetime) -> Challenge | str:
    """Inside a transaction: the challenge, locked, if it is pending and in time; else the
    status it was closed with here (the caller commits that, then refuses: `_refuse`):
    expired when its time is up, cancelled when either account was closed since.
    ChallengeClosed once it was decided."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "player")
        .get(pk=pk)
    )
    if challenge.status != Challenge.Status.PENDING:
        raise _refuse(challenge.status)
    if now >= challenge.expires_at:
        _challenge_change(challenge, status=Challenge.Status.EXPIRED, at=challenge.expires_at)
        return Challenge.Status.EXPIRED
    if not (challenge.challenger.is_active and challenge.player.is_active):
        _challenge_change(challenge, status=Challenge.Status.CANCELLED, at=now)
        return Challenge.Status.CANCELLED
    return challenge


def _closed_message(status: str) -> str:
    messages: dict[str, str] = {
        Challenge.Status.ACCEPTED: _("The challenge was accepted already."),
        Challenge.Status.DECLINED: _("The challenge was declined."),
        Challenge.Status.CANCELLED: _("The challenge was cancelled."),
        Challenge.Status.EXPIRED: _("The challenge expired: nobody accepted it within 24 hours."),
    }
    return messages[status]


def _refuse(status: str) -> ChallengeClosed:
    return ChallengeClosed(_closed_message(status), params={"status": status})


class Accepted(NamedTuple):
    challenge: Challenge
    match: Match
    seats: list[MatchPlayer]


def challenge_accept(
    *,
    challenge_id: Any,
    user: Any,
    rated: bool | None = None,
    address_hash: str = "",
    device_hash: str = "",
) -> Accepted:
    """The invited player accepts: the duel's match is made with both seats taken and both
    games dealt from a fresh pool deal (the accepter's from their client, `address_hash`,
    `device_hash`; the challenger's from theirs when challenging). Rated if the challenge is
    and `rated` is not False (True on an unrated challenge: InvalidRequest); a rated duel
    needs both players in good standing (R36). Forbidden for the challenger, ChallengeClosed
    once decided or expired."""
    now = timezone.now()
    challenge = challenge_find(challenge_id=challenge_id, user=user)
    if user.pk == challenge.challenger_id:
        raise Forbidden(_("Only the challenged player can accept a challenge."))
    if rated and not challenge.rated:
        raise InvalidRequest(_("This challenge is unrated: it cannot be accepted rated."))
    rated = challenge.rated and rated is not False
    with transaction.atomic():
        locked = _players_lock(challenge.challenger, challenge.player)
        pending = _pending_lock(pk=challenge.pk, now=now)
        if isinstance(pending, Challenge):
            _bots_require(locked, challenge.challenger, challenge.player)
            if rated:
                _standing_require(user=user, other=challenge.challenger, now=now)
            match, seats = _duel_make(
                challenge=pending,
                bot=locked[user.pk].bot,
                rated=rated,
                address_hash=address_hash,
                device_hash=device_hash,
                now=now,
            )
            pending.match = match
            _challenge_change(pending, status=Challenge.Status.ACCEPTED, at=now)
            return Accepted(pending, match, seats)
    raise _refuse(pending)


def _duel_make(
    *,
    challenge: Challenge,
    bot: bool,
    rated: bool,
    address_hash: str,
    device_hash: str,
    now: dt.datetime,
) -> tuple[Match, list[MatchPlayer]]:
    """The duel's match, full at once: the challenger in seat 1, the accepter in seat 2, each
    with their game dealt from a fresh pool deal (R32), their ratings of the mode before and
    their client's hashes (the challenger's kept on the challenge)."""
    draw = challenge.draw
    users = [challenge.challenger, challenge.player]
    known = dict(
        Rating.objects.filter(player__in=users, size=DUEL, draw=draw).values_list(
            "player_id", "rating"
        )
    )
    before = [known.get(user.pk, ratings.START) for user in users]
    deal = _deal_take(draw=draw, now=now)
    match = Match.objects.create(
        size=DUEL, draw=draw, bot=bot, deal=deal, created_at=now,
        ends_at=now + dt.timedelta(hours=MATCH_HOURS), seats=DUEL, full=True,
        rating=sum(before) / DUEL, duel=True, unrated=not rated,
    )  # fmt: skip
    code = DealCode.parse(deal.deal_code)
    seats = []
    hashes = [
        (challenge.address_hash, challenge.device_hash),
        (address_hash, device_hash),
    ]
    for seat, (user, rating, (address, device)) in enumerate(
        zip(users, before, hashes, strict=True), start=1
    ):
        game = game_create(
            owner=user,
            ruleset="app",
            draw=draw,
            code=code,
            match=match,
            address_hash=address,
            device_hash=device,
        )
        seats.append(
            MatchPlayer.objects.create(
                match=match,
                player=user,
                game=game,
                seat=seat,
                bot=bot,
                address_hash=address,
                joined_at=now,
                rating_before=rating,
            )
        )
    return match, seats


def challenge_decide(*, challenge_id: Any, user: Any, status: str) -> Challenge:
    """A pending challenge declined by the invited player (`status` "declined") or cancelled
    by the challenger ("cancelled"); Forbidden for the other player, ChallengeClosed once
    decided or expired."""
    now = timezone.now()
    challenge = challenge_find(challenge_id=challenge_id, user=user)
    by_challenger = status == Challenge.Status.CANCELLED
    if (user.pk == challenge.challenger_id) != by_challenger:
        raise Forbidden(
            _("Only the challenger can cancel a challenge.")
            if by_challenger
            else _("Only the challenged player can decline a challenge.")
        )
    with transaction.atomic():
        pending = _pending_lock(pk=challenge.pk, now=now)
        if isinstance(pending, Challenge):
            _challenge_change(pending, status=status, at=now)
            return pending
    raise _refuse(pending)


def challenges_expire(*, now: dt.datetime) -> int:
    """Write `expired` on every pending challenge whose time is up (the scheduler,
    `manage.py expire_challenges`); returns how many."""
    expired = 0
    for pk in Challenge.objects.filter(
        status=Challenge.Status.PENDING, expires_at__lte=now
    ).values_list("pk", flat=True):
        with transaction.atomic():
            challenge = (
                Challenge.objects.select_for_update(of=("self",))
                .select_related("challenger", "player")
                .filter(pk=pk, status=Challenge.Status.PENDING)
                .first()
            )
            if challenge is not None:
                _challenge_change(
                    challenge, status=Challenge.Status.EXPIRED, at=challenge.expires_at
                )
                expired += 1
    return expired
