"""The account event stream (docs/api.md "Streams and exports"): what happens to an account's games,
matches and reviews, and each new day, kept as rows (`AccountEvent`) so that a stream resumes
with `since` (an event id) across reconnections and process restarts.

Each kind is written in one place, by `event_add` in the writer's transaction (the event is
committed with what it tells, or not at all), and its streams are woken after the commit
(games/streams.py: the account's channel, or EVERY_ACCOUNT for a broadcast). A broadcast (a new
day) is one row every account's stream reads (`user` null), never a row per account.

Adding a kind: a line in KINDS (its name and what it tells, for docs/api.md), and a call of
`event_add(user=..., kind=..., data=...)` where it happens. Events are kept EVENTS_KEPT_DAYS
(`events_forget`, run hourly by the scheduler: `manage.py forget_events`); a `since` older than
that is refused (400), as an unknown one is. The day's event is written by the scheduler's
`manage.py announce_day` (every round) once the day has begun.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from core.commits import after_commit
from games import streams
from games.models import AccountEvent

# Every kind an event may have (its `type` on the stream), with what its `data` tells.
KINDS = {
    "game_started": "a game of the account was dealt: game, match, daily",
    "game_ended": "a game of the account ended: game, status, score, end_reason",
    "match_seat_filled": "a player took a seat of the account's match: match, seat, seats, size",
    "match_found": "the account's match has all its seats: match",
    "match_finished": "the account's match finished: match, status, place",
    "match_rated": "the account's finished match was rated: match, rating",
    "review_decided": "the fair-play review of the account's game decided: game, decision",
    "analysis_ready": "the analysis of the account's finished game is stored (R37): game",
    "daily_published": "a new day's challenges are playable (every account): date",
}
# How many events a stream reads at once (a resumed stream reads the rest right after).
READ_BATCH = 200


def event_add(*, user: Any, kind: str, data: dict[str, Any]) -> None:
    """Record the event `kind` of the account `user` (a user id or None: every account) in the
    current transaction, and wake its streams once it commits."""
    events_add([(user, kind, data)])


def events_add(added: list[tuple[Any, str, dict[str, Any]]]) -> None:
    """`event_add` of each (user, kind, data), in one statement."""
    assert all(kind in KINDS for _, kind, _ in added), added
    now = timezone.now()
    AccountEvent.objects.bulk_create(
        [AccountEvent(user_id=user, kind=kind, data=data, at=now) for user, kind, data in added]
    )
    for user in dict.fromkeys(user for user, _, _ in added):
        name = streams.EVERY_ACCOUNT if user is None else streams.account_name(user)
        after_commit(partial(streams.changed, name))


def day_event_add(*, date: dt.date) -> bool:
    """The day `date` has begun: its `daily_published` event for every account, written once
    however many schedulers call this (one read when it is written already); True if this call
    wrote it."""
    once = f"daily_published:{date.isoformat()}"
    if AccountEvent.objects.filter(once=once).exists():
        return False
    try:
        with transaction.atomic():
            AccountEvent.objects.create(
                kind="daily_published",
                data={"date": date.isoformat()},
                at=timezone.now(),
                once=once,
            )
    except IntegrityError:
        return False
    streams.changed(streams.EVERY_ACCOUNT)
    return True


def _of(user_id: int) -> Any:
    return AccountEvent.objects.filter(Q(user_id=user_id) | Q(user__isnull=True))


def event_known(*, user_id: int, event_id: int) -> bool:
    """Whether `event_id` is an event this account received that is still kept."""
    return _of(user_id).filter(pk=event_id).exists()


def events_last(*, user_id: int) -> int:
    """The id of the last event this account received (0: none kept)."""
    last = _of(user_id).order_by("-pk").values_list("pk", flat=True).first()
    return last or 0


def events_after(*, user_id: int, after: int) -> list[dict[str, Any]]:
    """The account's events after the event `after`, oldest first (at most READ_BATCH), as the
    stream sends them."""
    rows = _of(user_id).filter(pk__gt=after).order_by("pk")[:READ_BATCH]
    return [event_payload(row) for row in rows]


def event_payload(row: AccountEvent) -> dict[str, Any]:
    at = row.at.isoformat().replace("+00:00", "Z")
    return {"id": row.pk, "type": row.kind, "at": at, "data": row.data}


def events_forget(*, now: dt.datetime) -> int:
    """Delete the events older than EVENTS_KEPT_DAYS; returns how many."""
    since = now - dt.timedelta(days=settings.EVENTS_KEPT_DAYS)
    deleted, _ = AccountEvent.objects.filter(at__lt=since).delete()
    return deleted
