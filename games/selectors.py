"""Reads of games, with the visibility rules (docs/api.md "Games") in one place."""

from __future__ import annotations

import datetime
import functools
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, TypeVar, Unpack, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    OperationalError,
    connection,
    connections,
)
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Exists, Max, Model, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import AccountEvent, ApiKey
from core.errors import NotFound, NotInStanding
from core.rows import field_column, row_instance, row_reader
from games.models import Action, Game
from games.seats import SEAT, game_seat, game_seat_known, seat_model

if TYPE_CHECKING:
    from django.db.backends.utils import _ExecuteParameters


def game_is_private(game: Game) -> bool:
    """True while only the owner may see the game: in progress, or a daily game whose day is
    not over (its deal would help the players still on it)."""
    if game.status == Game.Status.PLAYING:
        return True
    if game.challenge is not None:
        return timezone.now() < game.challenge.ends_at
    seat = game_seat(game)  # R32: until its match is finished (or cancelled)
    return seat is not None and bool(seat.match.status == "open")


def game_code_shown(game: Game) -> str | None:
    """The deal code as others may see it (R19): a practice game's always (the player chose
    it), any other game's only once it is no longer private (a random game that has ended, a
    daily game once its day is over too). None for a custom deck."""
    if game_is_private(game) and not game.practice:
        return None
    return game.deal_code


def game_visible_to(game: Game | None, *, user: User | AnonymousUser | None) -> Game:
    """`game` if `user` may see it, else NotFound (never tells a hidden game exists)."""
    if game is None or (game_is_private(game) and game.owner_id != getattr(user, "pk", None)):
        raise NotFound(_("No such game."))
    return game


def _game_pk(game_id: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        return None


def game_find(game_id: object) -> Game | None:
    """The game `game_id`, whoever may see it (games.services.game_get_for checks that)."""
    pk = _game_pk(game_id)
    # No select_related("challenge"): on the action path the join costs more than the lazy
    # load that only daily games need. The seat is joined: every action asks for it
    # (games.changes.game_kind).
    return None if pk is None else Game.objects.select_related(SEAT).filter(pk=pk).first()


class _HealthChecked(Protocol):
    """The connection check Django keeps on every wrapper (missing from django-stubs)."""

    health_check_enabled: bool
    health_check_done: bool


def _fetch_one(
    db: BaseDatabaseWrapper, sql: str, params: _ExecuteParameters
) -> tuple[Any, ...] | None:
    """The first row of a read that may be a request's first query.

    On a connection kept from an earlier request, Django first checks it with a round trip of
    its own (CONN_HEALTH_CHECKS). This read is that check instead: if the connection has died
    since (the database restarted, say), it reconnects and reads once more.
    """
    health = cast(_HealthChecked, db)
    unchecked = (
        db.connection is not None
        and health.health_check_enabled
        and not health.health_check_done
        and not db.in_atomic_block
    )

    def read() -> tuple[Any, ...] | None:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            row: tuple[Any, ...] | None = cursor.fetchone()  # a database row: any column types
            return row

    if unchecked:
        health.health_check_done = True
        try:
            return read()
        except (OperationalError, InterfaceError):
            db.close()
    return read()


@functools.cache
def _token_user_and_game_sql() -> str:
    user_model = get_user_model()
    quote = connection.ops.quote_name
    from oauth2_provider.models import get_refresh_token_model

    key, game = quote(ApiKey._meta.db_table), quote(Game._meta.db_table)
    seats, seat_game = seat_model()
    seat = quote(seats._meta.db_table)
    refresh = quote(get_refresh_token_model()._meta.db_table)
    family = f"{key}.{quote('oauth_family')}"
    user, user_pk = quote(user_model._meta.db_table), quote(field_column(user_model._meta.pk))
    key_columns = ", ".join(
        f"{key}.{quote(column)}" for column in ("id", "scopes", "expires", "last_used")
    )
    return (
        f"SELECT {key_columns}, {row_reader(user_model)[0]}, {row_reader(Game)[0]}, "
        f"{row_reader(seats)[0]} FROM {key} "
        f"JOIN {user} ON {user}.{user_pk} = {key}.{quote('user_id')} "
        f"LEFT JOIN {game} ON {game}.{quote('id')} = %s "
        # A match game's seat (games.seats), which its action asks for.
        f"LEFT JOIN {seat} ON {seat}.{quote(seat_game)} = {game}.{quote('id')} "
        f"WHERE {key}.{quote('key_hash')} = %s "
        # A key made with an OAuth token lives while its grant has a refresh token not revoked.
        f"AND ({family} IS NULL OR EXISTS (SELECT 1 FROM {refresh} "
        f"WHERE {refresh}.{quote('token_family')} = {family} "
        f"AND {refresh}.{quote('revoked')} IS NULL))"
    )


@dataclass(frozen=True)
class KeyFound:
    """An API key's row as the authentication needs it, its user, and the game the URL names
    (with its seat, if it is a match's: games.seats)."""

    id: str
    scopes: frozenset[str]
    expires: datetime.datetime | None
    last_used: datetime.datetime | None
    user: User
    game: Game | None


@dataclass(frozen=True)
class Credential:
    """What a request authenticated with, as a stream remembers it: an API key (`key`, its id),
    an OAuth access token (`oauth`, its row's id), or a session (`user`, the user's id: a
    browser's or a guest's)."""

    kind: str
    id: str | int


def credentials_alive(credentials: Iterable[Credential]) -> set[Credential]:
    """Those of `credentials` that a REST request would still accept now: the key or token not
    revoked or expired, its account not closed (deleted); at most one query per kind."""
    from oauth2_provider.models import get_access_token_model

    by_kind: dict[str, set[str | int]] = {}
    for credential in credentials:
        by_kind.setdefault(credential.kind, set()).add(credential.id)
    now = timezone.now()
    found: list[Credential] = []
    if "key" in by_kind:
        keys = ApiKey.objects.filter(id__in=by_kind["key"], user__is_active=True)
        keys = keys.filter(Q(expires__isnull=True) | Q(expires__gt=now))
        found += [Credential("key", pk) for pk in keys.values_list("id", flat=True)]
    if "oauth" in by_kind:
        tokens = get_access_token_model().objects.filter(
            id__in=by_kind["oauth"], expires__gt=now, user__is_active=True
        )
        found += [Credential("oauth", pk) for pk in tokens.values_list("id", flat=True)]
    if "user" in by_kind:
        users = get_user_model().objects.filter(id__in=by_kind["user"], is_active=True)
        found += [Credential("user", pk) for pk in users.values_list("id", flat=True)]
    return set(found)


def game_moves(game_ids: Iterable[str]) -> dict[str, int | None]:
    """The move count (`actions_count`) of each of the games in progress among `game_ids`, None
    for those over; one query."""
    rows = Game.objects.filter(pk__in=list(game_ids)).values_list("pk", "actions_count", "status")
    return {str(pk): count if status == Game.Status.PLAYING else None for pk, count, status in rows}


def _moment(value: datetime.datetime | str | None) -> datetime.datetime | None:
    """A timestamp column's value as the ORM would give it (SQLite gives UTC text)."""
    if value is None:
        return None
    parsed = (
        value if isinstance(value, datetime.datetime) else datetime.datetime.fromisoformat(value)
    )
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.UTC)


def token_user_and_game(*, key_hash: str, game_id: object) -> KeyFound | None:
    """The API key whose SHA-256 is `key_hash`, its user, and the game `game_id` (None if there
    is no such game), in one query: the game endpoints' requests authenticate and read their
    game in one round trip (bench/api.py). None if no key has that hash, or if the key's OAuth
    grant has ended. Visibility is the caller's: game_visible_to, after games.services.game_read
    ends a game whose day is over."""
    db = connections[DEFAULT_DB_ALIAS]  # the wrapper itself: each use of the proxy costs a lookup
    pk = Game._meta.pk.get_db_prep_value(_game_pk(game_id), db)
    row = _fetch_one(db, _token_user_and_game_sql(), [pk, key_hash])
    if row is None:
        return None
    user_model = get_user_model()
    split = 4 + len(user_model._meta.concrete_fields)
    seat_at = split + len(Game._meta.concrete_fields)
    game = None if row[split] is None else row_instance(db, Game, row[split:seat_at])
    if game is not None:
        seat = None if row[seat_at] is None else row_instance(db, seat_model()[0], row[seat_at:])
        game_seat_known(game, seat)
    return KeyFound(
        id=row[0],
        scopes=frozenset(row[1].split()),
        expires=_moment(row[2]),
        last_used=_moment(row[3]),
        user=row_instance(db, user_model, row[4:split]),
        game=game,
    )


_Row = TypeVar("_Row", bound=Model)


def rows_filtered(rows: QuerySet[_Row], lookups: Mapping[str, object]) -> QuerySet[_Row]:
    """`rows` filtered by each lookup whose value is not None (a list's filters left out)."""
    return rows.filter(**{lookup: value for lookup, value in lookups.items() if value is not None})


def _isnull(wanted: bool | None) -> bool | None:
    return None if wanted is None else not wanted


class GameFilters(TypedDict):
    """The filters of docs/api.md's lists of games, as `games_filtered` takes them."""

    since: NotRequired[datetime.datetime | None]
    until: NotRequired[datetime.datetime | None]
    status: NotRequired[str | None]
    daily: NotRequired[bool | None]
    draw: NotRequired[int | None]
    ruleset: NotRequired[str | None]
    match: NotRequired[bool | None]


def games_filtered(
    games: QuerySet[Game],
    *,
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
    status: str | None = None,
    daily: bool | None = None,
    draw: int | None = None,
    ruleset: str | None = None,
    match: bool | None = None,
) -> QuerySet[Game]:
    """Of `games`, those the filters of docs/api.md's lists of games keep: dealt at or after
    `since` and before `until`, of `status`, ranked daily games (daily=True) or the others, of a
    draw mode and rule set, match games (match=True) or the others; a filter left out keeps all."""
    return rows_filtered(
        games,
        {
            "created_at__gte": since,
            "created_at__lt": until,
            "status": status,
            "challenge__isnull": _isnull(daily),
            "draw": draw,
            "ruleset": ruleset,
            "match_seat__isnull": _isnull(match),
        },
    )


def game_list_for(*, user: User, **filters: Unpack[GameFilters]) -> QuerySet[Game]:
    """The user's own games, newest first, those the `filters` keep (`games_filtered`)."""
    games = Game.objects.select_related("challenge", SEAT).filter(owner=user)
    return games_filtered(games, **filters).order_by("-created_at")


def action_list_for(*, game: Game) -> QuerySet[Action]:
    """The game's log, oldest first."""
    return Action.objects.filter(game=game).order_by("n")


def games_counted(games: QuerySet[Game]) -> QuerySet[Game]:
    """Of `games`, those that count in a player's statistics (docs/api.md, "Daily challenges and
    leaderboards"): over, not practice (R19), without a hint (R30), with at least one move made,
    and not ended by the server after the player left it (`left`). A deal opened and left, or tried
    for a few moves and abandoned, is not a game played."""
    return games.filter(practice=False, hints=0, left=False, moves__gt=0).exclude(
        status=Game.Status.PLAYING
    )


def game_counts(game: Game) -> bool:
    """Whether one game counts in its player's statistics: `games_counted`'s rule for one."""
    return (
        not game.practice
        and game.hints == 0
        and not game.left
        and game.moves > 0
        and game.status != Game.Status.PLAYING
    )


# The statuses of a finished game.
FINISHED = [Game.Status.WON, Game.Status.RESIGNED]


def game_list_public_of(*, username: str, **filters: Unpack[GameFilters]) -> QuerySet[Game]:
    """The finished games of `username` (any case) that anyone may see, newest first: not a
    daily game whose day is not over (R19), nor the game of a match still open (R32); those the
    `filters` keep (`games_filtered`). Guests have no public games (NotFound, as their player
    page)."""
    users = get_user_model().objects.exclude(player__guest=True)
    player = users.filter(username__iexact=username).first()
    if player is None:
        raise NotFound(_("No such player."))
    games = (
        Game.objects.select_related("challenge", SEAT)
        .filter(owner=player, status__in=FINISHED)
        .exclude(challenge__ends_at__gt=timezone.now())
        .exclude(match_seat__match__status="open")
    )
    return games_filtered(games, **filters).order_by("-created_at", "-id")


class StandingShown(TypedDict):
    """docs/api.md's `standing`: a `Standing` as JSON."""

    ranked: bool
    until: str | None
    games_needed: int


@dataclass(frozen=True)
class Standing:
    """R36: whether an account may play ranked dailies and rated matches (`ranked`), and if not,
    when it will be old enough (`until`, None once it is) and how many more finished games it
    needs (`games_needed`, 0 once it has them)."""

    ranked: bool
    until: datetime.datetime | None
    games_needed: int

    def as_dict(self) -> StandingShown:
        """docs/api.md's `standing` (and the 403 `standing`'s params)."""
        until = None if self.until is None else self.until.isoformat().replace("+00:00", "Z")
        return {"ranked": self.ranked, "until": until, "games_needed": self.games_needed}


def account_standing(*, user: User, now: datetime.datetime) -> Standing:
    """R36: the account's standing now: RANKED_MIN_AGE_HOURS since sign-up and RANKED_MIN_GAMES
    finished games of any kind (won or resigned: practice, daily, match, ended by the server).
    At most RANKED_MIN_GAMES games are read, so an old account's history costs nothing."""
    # No age asked for (RANKED_MIN_AGE_HOURS 0): met whatever the clocks say.
    hours = settings.RANKED_MIN_AGE_HOURS
    old_enough = user.date_joined + datetime.timedelta(hours=hours)
    until = old_enough if hours > 0 and old_enough > now else None
    wanted = settings.RANKED_MIN_GAMES
    finished = 0
    if wanted > 0:
        games = Game.objects.filter(owner=user, status__in=FINISHED).values_list("pk", flat=True)
        finished = len(games[:wanted])
    needed = wanted - finished
    return Standing(ranked=until is None and needed == 0, until=until, games_needed=needed)


def account_standing_shown(*, user: User, now: datetime.datetime) -> StandingShown:
    """`account_standing` as docs/api.md's ACCOUNT shows it (lent to accounts.identity)."""
    return account_standing(user=user, now=now).as_dict()


def games_dealt_from(*, username: str, address_hash: str, device_hash: str) -> bool:
    """Whether one of the account `username`'s games (its name's case aside) was dealt from the
    client address hash `address_hash` or the device hash `device_hash` ("": none), as the
    fair-play review keeps them (lent to accounts.identity: a spent budget of failed logins)."""
    known = Q(address_hash=address_hash)
    if device_hash:
        known |= Q(device_hash=device_hash)
    return Game.objects.filter(known, owner__username__iexact=username).exists()


def ranked_game_played(*, user: User) -> bool:
    """Whether the account has a ranked game: a daily's or a match's (R34)."""
    ranked = Q(challenge__isnull=False) | Q(match_seat__isnull=False)
    return Game.objects.filter(ranked, owner=user).exists()


def accounts_active_since(since: datetime.datetime) -> Q:
    """A condition on the user model: the account dealt a game or played an action since
    `since` (lent to accounts.identity: the guests unused are removed)."""
    recent_game = Game.objects.filter(owner=OuterRef("pk"), created_at__gte=since)
    recent_action = Action.objects.filter(game__owner=OuterRef("pk"), at__gte=since)
    return Q(Exists(recent_game)) | Q(Exists(recent_action))


def account_standing_require(*, user: User, now: datetime.datetime) -> Standing:
    """The account's standing if it may play ranked (R36); else NotInStanding (403 `standing`)
    with its figures in `params` and a message saying what is missing."""
    standing = account_standing(user=user, now=now)
    if standing.ranked:
        return standing
    parts = [_("Ranked play needs an account in good standing (R36).")]
    if standing.games_needed:
        parts.append(
            ngettext(
                "Finish %(count)s more game of any kind.",
                "Finish %(count)s more games of any kind.",
                standing.games_needed,
            )
            % {"count": standing.games_needed}
        )
    if standing.until is not None:
        until = standing.until.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        parts.append(_("The account is old enough from %(until)s.") % {"until": until})
    raise NotInStanding(" ".join(parts), rule="R36", params=standing.as_dict())


def account_last_events(user_ids: Iterable[int]) -> dict[int, int]:
    """The id of the last event (accounts/events.py) each account among `user_ids` receives, its
    own or one for every account (0: none kept); one query."""
    ids = list(user_ids)
    rows = (
        AccountEvent.objects.filter(Q(user_id__in=ids) | Q(user__isnull=True))
        .values_list("user_id")
        .annotate(last=Max("seq"))
        .order_by()
    )
    last = dict(rows)
    every = last.get(None) or 0
    return {user_id: max(last.get(user_id) or 0, every) for user_id in ids}
