"""The account event stream (docs/api.md "Streams and exports"): what happens to an account's games,
matches and reviews, and each new day, kept as rows (`AccountEvent`) so that a stream resumes
with `since` (an event id) across reconnections and process restarts.

Each kind is written in one place, by `event_add` in the writer's transaction (the event is
committed with what it tells, or not at all), and its streams are woken after the commit: a
wake-up on the account's topic of the realtime hub (core/hub.py; `account_name`), or on
EVERY_ACCOUNT's for a broadcast, which the streams (games/streams.py) listen to. A broadcast (a
new day) is one row every account's stream reads (`user` null), never a row per account.

Adding a kind: a line in KINDS (its name and what it tells, for docs/api.md), and a call of
`event_add(user=..., kind=..., data=...)` where it happens. Events are kept EVENTS_KEPT_DAYS
(`events_forget`, run hourly by the scheduler: `manage.py forget_events`).

Where a stream starts: it opens with a line of type OPENED whose id is the position it starts
after (`since` if given, else the clock's last stamp, `events_position`), so that a client
that loses the connection before any event resumes from there. A `since` is a position, not
necessarily an event of the account: it is accepted iff no event after it was forgotten and it
is no later than the last stamp (`since_accepted`; the clock keeps the highest forgotten
`seq`). The day's event is written by the scheduler's `manage.py announce_day` (every round)
once the day has begun.

Why an event's id on the stream (`seq`) is not its row's id: row ids come from a sequence when
the row is written, and two transactions may commit them out of order (id 8 committed, then 7);
a reader that had sent 8 and resumed after it would never send 7. So an event gets its `seq`
only once it is committed (`events_stamp`): every committed event without one gets the next
ones, in one short transaction that holds the one EventClock row's lock, so that stamps commit
in the order they are given, and a reader that sent `seq` N has seen every event that will ever
have a lower one. The writer only wakes the streams after its commit; every read stamps first
what is not stamped yet (`events_after`, `events_last`, the streams' periodic check), so the
write path pays no second transaction and an event is stamped by whoever reads it first.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone

from accounts.models import AccountEvent, EventClock
from core import hub
from core.commits import after_commit

# Every kind an event may have (its `type` on the stream), with what its `data` tells.
KINDS = {
    "game_started": "a game of the account was dealt: game, match, daily",
    "game_ended": "a game of the account ended: game, status, score, end_reason",
    "challenge_created": (
        "a challenge to a duel between the account and another player was made (by either): "
        "challenge, challenger, player, draw, rated, match (null)"
    ),
    "challenge_accepted": "the challenge was accepted: the same, match (the duel's)",
    "challenge_declined": "the challenged player declined the challenge: the same",
    "challenge_cancelled": (
        "the challenger cancelled the challenge (or either account was closed): the same"
    ),
    "challenge_expired": "nobody accepted the challenge within 24 hours: the same",
    "match_seat_filled": "a player took a seat of the account's match: match, seat, seats, size",
    "match_found": "the account's match has all its seats (a duel: once accepted): match",
    "match_finished": "the account's match finished: match, status, place",
    "match_rated": "the account's finished match was rated: match, rating",
    "review_decided": "the fair-play review of the account's game decided: game, decision",
    "analysis_ready": "the analysis of the account's finished game is stored (R37): game",
    "daily_published": "a new day's challenges are playable (every account): date",
}
# The type of a stream's first line (not stored, not in KINDS): its id is where the stream
# starts (after which events it sends), `data` empty.
OPENED = "stream_opened"
# How many events a stream reads at once (a resumed stream reads the rest right after).
READ_BATCH = 200

# The hub's topics (core/hub.py) of an account's events (`account_name`), and of the events
# every account receives: the account event streams (games/streams.py) listen to them.
ACCOUNT = "account:"
EVERY_ACCOUNT = "accounts"


def account_name(user_id: Any) -> str:
    return f"{ACCOUNT}{user_id}"


def event_add(*, user: Any, kind: str, data: dict[str, Any]) -> None:
    """Record the event `kind` of the account `user` (a user id or None: every account) in the
    current transaction, and wake its streams once it commits."""
    events_add([(user, kind, data)])


def events_add(added: list[tuple[Any, str, dict[str, Any]]]) -> None:
    """`event_add` of each (user, kind, data), in one statement."""
    assert all(kind in KINDS for _, kind, _ in added), added
    if not added:
        return
    now = timezone.now()
    AccountEvent.objects.bulk_create(
        [AccountEvent(user_id=user, kind=kind, data=data, at=now) for user, kind, data in added]
    )
    _wake_later({user for user, _, _ in added})


def _wake_later(users: set[Any]) -> None:
    """The current transaction's new events: their streams are woken once it commits, and the
    reads they make stamp them (the writer does not: a stamp is a transaction of its own, and
    a write path such as Play now or `POST games` would wait for a second flush to disk)."""
    after_commit(partial(_wake, list(users)))


def _wake(users: list[Any]) -> None:
    """After the commit of events of the accounts `users` (a user id, or None: every account):
    wake their streams, in every process. Never raises."""
    for user in users:
        hub.publish(EVERY_ACCOUNT if user is None else account_name(user), via="pubsub")


# How many events one stamp gives their `seq` at most (a read stamps again for the rest).
STAMP_BATCH = 1000


def events_stamp() -> int:
    """Give the committed events that have no `seq` yet theirs, in the order of their ids,
    after every `seq` given before (module docstring); returns how many. Outside a transaction
    its own; one query when there are none."""
    if not AccountEvent.objects.filter(seq=None).exists():
        return 0
    with transaction.atomic():
        # (a write first: on SQLite it takes the database's write lock, which orders the stamps
        # there as the clock row's lock does on PostgreSQL)
        EventClock.objects.bulk_create([EventClock(pk=1)], ignore_conflicts=True)
        clock = EventClock.objects.select_for_update().get(pk=1)
        # (read after the lock: every stamp committed before is seen, and skipped)
        pending = list(
            AccountEvent.objects.filter(seq__isnull=True)
            .order_by("pk")
            .values_list("pk", flat=True)[:STAMP_BATCH]
        )
        if not pending:
            return 0
        offset = clock.last + 1 - pending[0]
        AccountEvent.objects.filter(pk__in=pending).update(seq=F("id") + offset)
        clock.last = pending[-1] + offset
        clock.save(update_fields=["last"])
    return len(pending)


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
            _wake_later({None})
    except IntegrityError:
        return False
    return True


def _of(user_id: int) -> QuerySet[AccountEvent]:
    return AccountEvent.objects.filter(Q(user_id=user_id) | Q(user__isnull=True))


def event_known(*, user_id: int, event_id: int) -> bool:
    """Whether `event_id` is an event this account received that is still kept."""
    return _of(user_id).filter(seq=event_id).exists()


def _clock() -> EventClock:
    return EventClock.objects.filter(pk=1).first() or EventClock(pk=1)


def events_position() -> int:
    """Where a stream opened now without `since` starts: after the last stamp (every event
    stamped so far is before the opening; the next ones, of any account, after it)."""
    events_stamp()
    return _clock().last


def since_accepted(since: int) -> bool:
    """Whether a stream may start after the position `since`: no event after it was forgotten
    (EVENTS_KEPT_DAYS) and it is no later than the last stamp (not from the future). Any
    account's event id or opening id that satisfies this is accepted."""
    clock = _clock()
    if since > clock.last:  # (perhaps stamped since the clock was read)
        events_stamp()
        clock = _clock()
    return clock.forgotten <= since <= clock.last


def opened_payload(after: int) -> dict[str, Any]:
    """A stream's first line: it starts after `after` (module docstring)."""
    at = timezone.now().isoformat().replace("+00:00", "Z")
    return {"id": after, "type": OPENED, "at": at, "data": {}}


def events_last(*, user_id: int) -> int:
    """The id of the last event this account received (0: none kept)."""
    events_stamp()
    last = _of(user_id).exclude(seq=None).order_by("-seq").values_list("seq", flat=True).first()
    return last or 0


def events_after(*, user_id: int, after: int) -> list[dict[str, Any]]:
    """The account's events after the event `after`, oldest first (at most READ_BATCH), as the
    stream sends them."""
    events_stamp()
    rows = _of(user_id).filter(seq__gt=after).order_by("seq")[:READ_BATCH]
    return [event_payload(row) for row in rows]


def event_payload(row: AccountEvent) -> dict[str, Any]:
    at = row.at.isoformat().replace("+00:00", "Z")
    return {"id": row.seq, "type": row.kind, "at": at, "data": row.data}


def events_forget(*, now: dt.datetime) -> int:
    """Delete the events older than EVENTS_KEPT_DAYS; returns how many. The clock keeps the
    highest `seq` deleted (a `since` under it is refused: `since_accepted`). Only stamped events
    are deleted (an unstamped one is stamped by the next read, and deleted by a later run)."""
    events_stamp()
    before = now - dt.timedelta(days=settings.EVENTS_KEPT_DAYS)
    with transaction.atomic():
        EventClock.objects.bulk_create([EventClock(pk=1)], ignore_conflicts=True)
        clock = EventClock.objects.select_for_update().get(pk=1)
        old = AccountEvent.objects.filter(at__lt=before).exclude(seq=None)
        highest = old.aggregate(highest=Max("seq"))["highest"]
        if highest is None:
            return 0
        deleted, _ = old.delete()
        if highest > clock.forgotten:
            clock.forgotten = highest
            clock.save(update_fields=["forgotten"])
    return deleted
