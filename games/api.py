"""REST API of accounts and games (docs/api.md "Accounts" and "Games"): thin views that parse the
input, call one service or selector, and shape the output. Errors go through core.errors."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import identity
from accounts import services as key_services
from accounts.authentication import AuthenticatedRequest
from accounts.scopes import ScopeRequired
from core.api import (
    MAX_PAGE,
    JsonTextField,
    PageQuerySerializer,
    QueryBooleanField,
    answers,
    body_object,
    body_read,
    page_links,
    page_params,
    query_read,
    refused,
    whole_number,
)
from core.clients import client_address_hash, client_device_hash
from core.errors import InvalidRequest, Throttled
from core.renderers import JSONRenderer
from core.throttling import (
    AddressScopedThrottle,
    BurstScopedThrottle,
    FixedWindowScopedThrottle,
)
from games import selectors, services
from games.access import game_read_for
from games.engine import RULESETS, DealCode, describe
from games.engine import Game as EngineGame
from games.engine.actions import ACTION_TYPES, MAX_COUNT, PILE_NAMES
from games.models import Action, Game
from games.models import Analysis as AnalysisRow
from games.seats import game_match_id

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission

LANGUAGES = ("hu", "en", "pl")
CONCRETE_PILES = [pile for pile in PILE_NAMES if pile != "foundation"]
DRAW_CHOICES = [(3, "3"), (1, "1")]
# Why a finished game ended (R26a): won, resigned by its player, or ended by the server at the
# end of its day (a daily game still in progress then: its status is "resigned").
# match_over: a match game the server ended when its match's 24 hours were up (R32).
END_REASONS = ["won", "resigned", services.DAY_OVER, services.MATCH_OVER]
GAMES_PAGE_SIZE = 20
# R37: when to ask again for an analysis being computed (a game's takes seconds at most).
ANALYSIS_RETRY_SECONDS = 2

# The viewer a GAME is shaped for: the caller (None: no one in particular).
Viewer = User | AnonymousUser | None

# ---- output shapes ----------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def action_payload(row: Action) -> dict[str, object]:
    return {
        "n": row.n,
        "type": row.type,
        "from": row.from_pile,
        "to": row.to_pile,
        "count": row.count,
        "cards": row.cards,
        "score_delta": row.score_delta,
        "auto_fill": row.auto_fill,
        "undoes": row.undoes,
        "auto_finish": row.auto_finish or [],
        "at": _iso(row.at),
    }


def log_json(game: Game) -> bytes:
    """The game's log as docs/api.md's ACTIONs, oldest first, as the JSON the API answers: read,
    shaped and rendered once per game and action count, then served from the cache (Redis in
    production) for GAME_LOG_CACHE_SECONDS, as bytes, so that a long log's read costs a cache
    read, not a query, thousands of rows shaped and megabytes of JSON rendered again. The key
    holds the action count: a log only grows, so a new action is a new key."""
    key = f"game-log-json:{game.pk}:{game.actions_count}"
    log: bytes | None = cache.get(key)
    if log is None:
        rows = [action_payload(row) for row in selectors.action_list_for(game=game)]
        log = JSONRenderer().render(rows)
        cache.set(key, log, settings.GAME_LOG_CACHE_SECONDS)
    return log


def log_payload(game: Game) -> list[dict[str, object]]:
    """`log_json` as data."""
    log: list[dict[str, object]] = json.loads(log_json(game))
    return log


def game_with_log_response(game: Game, *, viewer: Viewer) -> HttpResponse:
    """`game_payload(with_log=True)` as the API's JSON answer, its log spliced in as the cached
    JSON it is (`log_json`), not decoded and rendered again."""
    body = JSONRenderer().render(game_payload(game, viewer=viewer))
    if not selectors.game_is_private(game):
        body = body[:-1] + b',"actions":' + log_json(game) + b"}"
    return HttpResponse(body, content_type="application/json")


def _daily(game: Game, viewer: Viewer) -> dict[str, object] | None:
    """docs/api.md's `daily`, plus the board standing (`rank`, `players`) once the game is over,
    and for its owner the fair-play `review` (R35)."""
    if game.challenge is None:
        return None
    daily: dict[str, object] = {"date": game.challenge.date.isoformat()}
    standing = services.daily_boards().standing(game=game, now=timezone.now()) or {}
    review = standing.pop("review", None)
    daily.update(standing)
    if viewer is not None and viewer.pk == game.owner_id:
        daily["review"] = review
    return daily


def game_payload(
    game: Game, *, viewer: Viewer, with_log: bool = False, engine: EngineGame | None = None
) -> dict[str, object]:
    """docs/api.md's GAME as `viewer` (the caller) sees it. The code and the log only once they
    reveal nothing (R19). `engine`: the game's state already loaded, if the caller has it."""
    private = selectors.game_is_private(game)
    end = game.finished_at or timezone.now()
    payload: dict[str, object] = {
        "id": str(game.id),
        "code": selectors.game_code_shown(game),
        "practice": game.practice,
        "daily": _daily(game, viewer),
        "seconds": round((end - game.created_at).total_seconds(), 3),
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "end_reason": game.end_reason,
        "hints": game.hints,
        "match": None if (match_id := game_match_id(game)) is None else str(match_id),
    }
    payload.update((engine or EngineGame.from_dict(game.state)).public_view())
    if with_log and not private:
        payload["actions"] = log_payload(game)
    return payload


GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="the game's `id`"
)


class ActionOutSerializer(serializers.Serializer[object]):
    n = serializers.IntegerField(min_value=1)
    type = serializers.ChoiceField(choices=list(ACTION_TYPES))
    # `from` is a Python keyword: the field is renamed in __init__.
    from_ = serializers.ChoiceField(choices=CONCRETE_PILES, allow_null=True)
    to = serializers.ChoiceField(choices=CONCRETE_PILES, allow_null=True)
    count = serializers.IntegerField(allow_null=True)
    cards = serializers.ListField(child=serializers.CharField(), allow_null=True)
    score_delta = serializers.IntegerField()
    auto_fill = serializers.CharField(allow_null=True)
    undoes = serializers.IntegerField(allow_null=True)
    auto_finish = serializers.ListField(child=serializers.CharField())
    at = serializers.DateTimeField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("from_")


class DailySerializer(serializers.Serializer[object]):
    date = serializers.DateField()
    rank = serializers.IntegerField(required=False, help_text="once the game is over")
    players = serializers.IntegerField(required=False, help_text="once the game is over")
    provisional = serializers.BooleanField(
        required=False,
        help_text="once the game is over, for a provisional entry (R36): listed apart, no rank",
    )
    review = serializers.ChoiceField(
        choices=["held", "cleared"],
        allow_null=True,
        required=False,
        help_text="the owner's only: the fair-play review (R35); held: off the boards until "
        "staff decide",
    )


class CountSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()


class WasteSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()
    fan = serializers.ListField(child=serializers.CharField())


class ReserveSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class FoundationSerializer(serializers.Serializer[object]):
    suit = serializers.ChoiceField(choices=["H", "S", "D", "C"])
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class GameOutSerializer(serializers.Serializer[object]):
    id = serializers.UUIDField()
    ruleset = serializers.ChoiceField(choices=list(RULESETS))
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    code = serializers.CharField(
        allow_null=True,
        help_text="the deal code (R3, R4a); null for a custom deck, for a random game until it "
        "has ended and for a daily game until its day is over (R19)",
    )
    practice = serializers.BooleanField(
        help_text="dealt from a code or a deck the player chose: never counts in rankings or "
        "player statistics (R19)"
    )
    daily = DailySerializer(allow_null=True)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.ChoiceField(
        choices=END_REASONS,
        allow_null=True,
        help_text="null while in progress; day_over: a daily game the server ended when its day "
        "ended (R26a), with its figures then and status resigned",
    )
    starting_rank = serializers.CharField()
    stock = CountSerializer()
    waste = WasteSerializer()
    reserve = ReserveSerializer()
    foundations = FoundationSerializer(many=True)
    tableau = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    undo_available = serializers.IntegerField()
    stuck = serializers.BooleanField(
        help_text="R20a: in progress, the whole talon drawn through since the last other action "
        "and nothing but draw, recycle, undo or a move from a foundation can be played"
    )
    no_progress = serializers.BooleanField(
        help_text="R20c: in progress, and two whole passes through the talon went by with no "
        "card reaching a foundation and none leaving the reserve or the waste"
    )
    hints = serializers.IntegerField(help_text="hints used (R30)")
    match = serializers.UUIDField(
        allow_null=True, help_text="the match this game is a seat of (R32); null for others"
    )
    actions = ActionOutSerializer(many=True, required=False)


class GamePageSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameOutSerializer(many=True)


class ActedSerializer(serializers.Serializer[object]):
    action = ActionOutSerializer()
    game = GameOutSerializer()


# ---- NDJSON lines: a game stream's (`GET games/{id}/stream`), one schema per `type` ----------


class StreamGameLineSerializer(serializers.Serializer[object]):
    """The first line: the game as `GET games/{id}` answers it."""

    type = serializers.ChoiceField(choices=["game"])
    game = GameOutSerializer()


class StreamActionLineSerializer(serializers.Serializer[object]):
    """An applied action, and the game as it is when the line is written."""

    type = serializers.ChoiceField(choices=["action"])
    action = ActionOutSerializer()
    game = GameOutSerializer()


class StreamEndLineSerializer(serializers.Serializer[object]):
    """The last line: the game, ended."""

    type = serializers.ChoiceField(choices=["end"])
    game = GameOutSerializer()


STREAM_LINE = PolymorphicProxySerializer(
    component_name="StreamLine",
    serializers={
        "game": StreamGameLineSerializer,
        "action": StreamActionLineSerializer,
        "end": StreamEndLineSerializer,
    },
    resource_type_field_name="type",
)


class TextSerializer(serializers.Serializer[object]):
    lang = serializers.ChoiceField(choices=LANGUAGES)
    text = serializers.CharField()


# ---- input shapes (documentation; parsing below is strict about types) -------------------------


def _not_text(field: str) -> str:
    return _("%(field)s must be a non-empty string.") % {"field": field}


def _too_long(field: str, most: int) -> str:
    return _("%(field)s must be at most %(max)s characters, without NUL.") % {
        "field": field,
        "max": most,
    }


def _credential(field: str, max_length: int) -> JsonTextField:
    """A field of the account endpoints' bodies, taken as it is (spaces too)."""
    too_long = lazy(_too_long, str)(field, max_length)
    return JsonTextField(
        max_length=max_length,
        trim_whitespace=False,
        error_messages={
            **refused(lazy(_not_text, str)(field)),
            "max_length": too_long,
            "null_characters_not_allowed": too_long,
        },
    )


class CredentialsSerializer(serializers.Serializer[object]):
    username = _credential("username", 150)
    password = _credential("password", 4096)


class RegisteredSerializer(serializers.Serializer[object]):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenOutSerializer(serializers.Serializer[object]):
    token = serializers.CharField()


class RandomGameSerializer(serializers.Serializer[object]):
    """A random deal."""

    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False, default=3)
    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False, default="app")


class CodeGameSerializer(serializers.Serializer[object]):
    """The deal of a deal code (a practice game)."""

    code = serializers.CharField(
        help_text="a deal code: CF1-D3-AAAAACL (R3) or CF2-D3- and 26 characters (R4a)"
    )
    draw = serializers.ChoiceField(
        choices=DRAW_CHOICES, required=False, help_text="if sent, the code's draw"
    )
    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False, default="app")


class DeckGameSerializer(serializers.Serializer[object]):
    """A custom deck d[0]..d[51] dealt by R5 (a practice game)."""

    deck = serializers.ListField(child=serializers.CharField(), min_length=52, max_length=52)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False, default=3)
    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False, default="app")


class DailyGameSerializer(serializers.Serializer[object]):
    """The caller's ranked game on today's daily challenge (200 if it exists already)."""

    daily = serializers.ChoiceField(choices=[True])
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False, default=3)
    ranked = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: a ranked game or none: 403 `standing` for an account not in good "
        "standing (R36), whose daily game is otherwise provisional",
    )


GAME_CREATE = PolymorphicProxySerializer(
    component_name="GameCreate",
    serializers=[
        RandomGameSerializer, CodeGameSerializer, DeckGameSerializer, DailyGameSerializer,
    ],
    resource_type_field_name=None,
)  # fmt: skip


# ---- an action: one schema per type, a `oneOf` keyed by `type` (what the server takes of each
# type, and no more: games.engine.actions refuses the fields a type does not list). A legal
# action and a hint's action are the same schema: they can be posted back as they are.

EXPECT_HELP = (
    "the `moves` value the client last saw: if the game has moved on, 409 stale and nothing "
    "changes (safe retries)"
)


class _ExpectSerializer(serializers.Serializer[object]):
    expect = serializers.IntegerField(min_value=0, required=False, help_text=EXPECT_HELP)


class MoveActionSerializer(_ExpectSerializer):
    """Move `count` cards (default 1) from the end of one pile onto another."""

    type = serializers.ChoiceField(choices=["move"])
    from_ = serializers.ChoiceField(choices=CONCRETE_PILES)
    to = serializers.ChoiceField(
        choices=list(PILE_NAMES), help_text="`foundation`: the foundation of the card's suit"
    )
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False, default=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("from_")


class TapActionSerializer(_ExpectSerializer):
    """The server picks the destination (R27)."""

    type = serializers.ChoiceField(choices=["tap"])
    from_ = serializers.ChoiceField(choices=CONCRETE_PILES)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False, default=1)
    columns = serializers.BooleanField(
        required=False, default=True, help_text="false: to a foundation only"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("from_")


def _plain_action(kind: str, doc: str) -> type[serializers.Serializer[object]]:
    fields = {"type": serializers.ChoiceField(choices=[kind]), "__doc__": doc}
    return type(f"{kind.capitalize()}ActionSerializer", (_ExpectSerializer,), fields)


DrawActionSerializer = _plain_action("draw", "Turn cards from the stock onto the waste (R17).")
RecycleActionSerializer = _plain_action("recycle", "Turn the waste over as the stock (R18).")
UndoActionSerializer = _plain_action("undo", "Take back the last action (R24).")
ResignActionSerializer = _plain_action("resign", "End the game as it stands.")
FinishActionSerializer = _plain_action(
    "finish",
    "Send every card left home in one action, once none is hidden and they can all go home "
    "one after another (R20b); 409 cannot_finish otherwise.",
)

ACTION = PolymorphicProxySerializer(
    component_name="Action",
    serializers={
        "move": MoveActionSerializer, "tap": TapActionSerializer, "draw": DrawActionSerializer,
        "recycle": RecycleActionSerializer, "undo": UndoActionSerializer,
        "resign": ResignActionSerializer, "finish": FinishActionSerializer,
    },
    resource_type_field_name="type",
)  # fmt: skip
ACTION_LIST = PolymorphicProxySerializer(
    component_name="Action",
    serializers=ACTION.serializers,
    resource_type_field_name="type",
    many=True,
)


class HintSerializer(serializers.Serializer[object]):
    action = PolymorphicProxySerializer(
        component_name="Action",
        serializers=ACTION.serializers,
        resource_type_field_name="type",
        allow_null=True,
        help_text="the next action of a winning line",
    )
    winnable = serializers.BooleanField(
        allow_null=True, help_text="false: no winning line exists; null: undecided in time"
    )


class AnalysisLineSerializer(serializers.Serializer[object]):
    after = serializers.IntegerField(
        min_value=0, help_text="the `n` of the action the line starts after (0: the deal)"
    )
    actions = PolymorphicProxySerializer(
        component_name="Action",
        serializers=ACTION.serializers,
        resource_type_field_name="type",
        many=True,
        help_text="the solver's winning line from there",
    )


class AnalysisParSerializer(serializers.Serializer[object]):
    moves = serializers.IntegerField(help_text="the fewest moves of a winning line found (R31)")
    exact = serializers.BooleanField(help_text='proved the fewest possible; else "<= moves"')


class AnalysisPendingSerializer(serializers.Serializer[object]):
    status = serializers.ChoiceField(choices=["pending", "running"])
    progress = serializers.FloatField(
        min_value=0, max_value=1, help_text="the share of positions decided so far"
    )


class AnalysisSerializer(serializers.Serializer[object]):
    """R37: where the win was lost (docs/api.md, "Games": the analysis)."""

    status = serializers.ChoiceField(choices=["done"])
    progress = serializers.FloatField(min_value=1, max_value=1)
    kept = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="the `n` of each action of the line the player kept (no undo took it back)",
    )
    winnable = serializers.ListField(
        child=serializers.BooleanField(allow_null=True),
        help_text="per position, the deal first, then after each kept action: null undecided",
    )
    lost_at = serializers.IntegerField(
        min_value=1, allow_null=True, help_text="the `n` of the action that lost the win"
    )
    line = AnalysisLineSerializer(allow_null=True)
    undecided = serializers.IntegerField(min_value=0, help_text="positions left undecided")
    moves = serializers.IntegerField(min_value=0, help_text="the game's moves (R25)")
    kept_moves = serializers.IntegerField(min_value=0, help_text="the kept line's moves")
    par = AnalysisParSerializer(allow_null=True, help_text="a daily game's par (R31), else null")
    over_par = serializers.IntegerField(
        allow_null=True, help_text="moves - par, for a won daily game"
    )
    nodes = serializers.IntegerField(min_value=1, help_text="each search's node budget")
    computed_at = serializers.DateTimeField()


# The schema's action components (canfield_site.schema.schema_contract makes the request and
# the response side one component each).
ACTION_COMPONENTS = ("Action", "MoveAction", "TapAction", "DrawAction", "RecycleAction",
                     "UndoAction", "ResignAction", "FinishAction")  # fmt: skip


def _only(data: Mapping[str, object], allowed: set[str]) -> None:
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise InvalidRequest(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(unknown)[:200]}
        )


# ---- accounts ----------------------------------------------------------------------------------


def _credentials(request: Request) -> tuple[str, str]:
    """The `{"username", "password"}` body of both account endpoints."""
    data = body_read(request, CredentialsSerializer)
    return data["username"], data["password"]


class RegisterApi(APIView):
    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny, ScopeRequired]
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "register"

    @extend_schema(
        request=CredentialsSerializer,
        responses=answers({201: RegisteredSerializer}, 400, 429, body=True),
        summary="Create an account and its API token",
        operation_id="auth_register",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        username, password = _credentials(request)
        user_model = get_user_model()
        try:
            identity.username_validate(username)
            validate_password(password, user=user_model(username=username))
        except DjangoValidationError as error:
            raise InvalidRequest(" ".join(error.messages)) from None
        wait = identity.signup_slot_take(request._request)
        if wait is not None:
            raise Throttled(wait, _("Too many accounts were created from this address."))
        try:
            with transaction.atomic():
                user = identity.account_create(username, password)
                key = key_services.key_create_for_login(user=user, name="auth/register")
        except (DjangoValidationError, IntegrityError):
            raise InvalidRequest(_("That username is taken.")) from None
        return Response({"username": user.username, "token": key}, status=201)


class TokenApi(APIView):
    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny, ScopeRequired]
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "token"

    @extend_schema(
        request=CredentialsSerializer,
        responses=answers({200: TokenOutSerializer}, 400, 429, body=True),
        summary="A new API key of an account, with every scope",
        operation_id="auth_token",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        username, password = _credentials(request)
        # A locked-out account or address is refused here before any hashing (django-axes);
        # its 429 comes from accounts.identity.lockout_response.
        user = authenticate(request._request, username=username, password=password)
        if user is None:
            raise InvalidRequest(_("Wrong username or password."))
        # Only keys' hashes are kept: each login makes a new key with every scope (the older
        # ones keep working until revoked: GET/DELETE account/tokens).
        key = key_services.key_create_for_login(user=user, name="auth/token")
        return Response({"token": key})


# ---- games -------------------------------------------------------------------------------------


def _game_create_body(request: Request) -> dict[str, Any]:
    """The body of POST /games, refusing what the schema refuses and parse_game_create would
    read as left out: a null field, and `"daily": false` (only `true` is a daily game's)."""
    data = body_object(request)
    nulls = sorted(str(key) for key, value in data.items() if value is None)
    if nulls:
        raise InvalidRequest(_("These fields cannot be null: %s.") % ", ".join(nulls)[:200])
    if "daily" in data and data["daily"] is not True:
        raise InvalidRequest(_("daily must be true; leave it out for any other game."))
    return data


# A body read whole (`body_object`) is JSON whose shape the code below checks: its values, and the
# options made of them, stay Any (the edge).
def parse_game_create(data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of game_create for a POST /games body (docs/api.md)."""
    _only(data, {"draw", "ruleset", "code", "deck", "daily", "ranked"})
    ruleset = data.get("ruleset", "app")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InvalidRequest(
            _("ruleset must be one of: %(values)s.") % {"values": ", ".join(RULESETS)}
        )
    draw = data.get("draw")
    # The schema's bodies: draw is 1 or 3 when sent (never null); daily is only ever true.
    if "draw" in data and (type(draw) is not int or draw not in (1, 3)):
        raise InvalidRequest(_("draw must be 1 or 3."))
    if "daily" in data and data["daily"] is not True:
        raise InvalidRequest(
            _("daily can only be true (leave it out for a game that is not the daily one).")
        )
    if "ranked" in data and (not data.get("daily") or type(data["ranked"]) is not bool):
        raise InvalidRequest(_("ranked is true or false, and only with daily."))
    if data.get("daily"):
        if "code" in data or "deck" in data or ruleset != "app":
            raise InvalidRequest(
                _("A daily game is today's deal with the app rules: send only draw.")
            )
        return {"daily": True, "draw": draw or 3, "ranked": data.get("ranked", False)}
    if "code" in data and "deck" in data:
        raise InvalidRequest(_("Send a code or a deck, not both."))
    if "code" in data:
        code = DealCode.parse(data["code"])
        if draw is not None and draw != code.draw:
            raise InvalidRequest(
                _("draw %(draw)s contradicts the code's draw %(code_draw)s.")
                % {"draw": draw, "code_draw": code.draw}
            )
        return {"ruleset": ruleset, "draw": code.draw, "code": code}
    if "deck" in data and not isinstance(data["deck"], list):
        raise InvalidRequest(_("deck must be a list of 52 card names."))
    return {"ruleset": ruleset, "draw": draw or 3, "deck": data.get("deck")}


class GameFilterSerializer(serializers.Serializer[object]):
    """The filters of every list of games (docs/api.md, "Games": lists and their filters)."""

    since = serializers.DateTimeField(
        required=False, help_text="dealt at or after this moment (ISO 8601; a date: its 00:00 UTC)"
    )
    until = serializers.DateTimeField(required=False, help_text="dealt before this moment")
    max = whole_number("max", MAX_PAGE, help_text="at most this many games, in the list's order")
    daily = QueryBooleanField(
        required=False, help_text="true: ranked daily games only; false: the others"
    )
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False)
    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False)
    match = QueryBooleanField(
        required=False, help_text="true: match games only (R32); false: the others"
    )


GAME_FILTERS = ("since", "until", "status", "daily", "draw", "ruleset", "match")


def game_filters(query: Mapping[str, object]) -> selectors.GameFilters:
    """The `games_filtered` filters of a query `query_read` read (its serializer checked them)."""
    return cast(
        selectors.GameFilters,
        {name: value for name, value in query.items() if name in GAME_FILTERS},
    )


def game_page(
    request: Request,
    games: QuerySet[Game] | list[Game],
    *,
    query: dict[str, Any],
    default_size: int,
) -> dict[str, object]:
    """A page of `games` (at most `max` of them in all) as docs/api.md's lists answer it."""
    page, size = page_params(query, default_size=default_size)
    if "max" in query:
        games = games[: query["max"]]
    count = len(games) if isinstance(games, list) else games.count()
    body = page_links(request, page=page, size=size, count=count)
    body["results"] = [
        game_payload(game, viewer=request.user) for game in games[(page - 1) * size : page * size]
    ]
    return body


IDS_MAX = 100


class GameListQuerySerializer(GameFilterSerializer, PageQuerySerializer):
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    ids = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        max_length=IDS_MAX,
        help_text=f"a batch read: these games (up to {IDS_MAX}; `ids=a,b` or `ids=a&ids=b`), "
        f"those the caller may see, in the order asked ({IDS_MAX} a page); takes no filter",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "ids" in attrs and set(self.initial_data) - {"ids", "page", "page_size"}:
            raise serializers.ValidationError(
                {"ids": _("ids takes no filter: only page and page_size.")}, code="ids_alone"
            )
        return attrs


def _created(description: str) -> OpenApiResponse:
    return OpenApiResponse(GameOutSerializer, description=description)


# What limits `POST games` (and the site's Play now, which deals a game the same way): per
# account (scope `games`, and `games_burst` a second) and per client address whatever the
# account (`games_address`).
GAME_CREATE_THROTTLES = (FixedWindowScopedThrottle, BurstScopedThrottle, AddressScopedThrottle)


class GameListCreateApi(APIView):
    throttle_scope = "games"
    burst_throttle_scope = "games_burst"
    address_throttle_scope = "games_address"

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method != "POST":
            return []
        return [throttle() for throttle in GAME_CREATE_THROTTLES]

    @extend_schema(
        parameters=[GameListQuerySerializer],
        responses=answers({200: GamePageSerializer}, 400, 401, 404),
        summary=f"The caller's games, newest first ({GAMES_PAGE_SIZE} a page by default)",
        operation_id="games_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query = query_read(request, GameListQuerySerializer)
        if "ids" in query:
            listed = services.game_list_read(ids=query["ids"], user=request.user)
            return Response(game_page(request, listed, query=query, default_size=IDS_MAX))
        # R26a: none of the caller's games is listed in progress after its day.
        services.games_end_day_over(now=timezone.now(), owner=request.user)
        games = selectors.game_list_for(user=request.user, **game_filters(query))
        return Response(game_page(request, games, query=query, default_size=GAMES_PAGE_SIZE))

    @extend_schema(
        request=GAME_CREATE,
        responses=answers(
            {
                201: _created("the new game"),
                200: _created('{"daily": true}: the caller\'s game of the day, which existed'),
            },
            400,
            401,
            403,
            429,
            body=True,
        ),  # fmt: skip
        summary="Deal a new game: random, by deal code, a custom deck, or today's daily",
        operation_id="games_create",
    )
    def post(self, request: Request) -> Response:
        options = parse_game_create(_game_create_body(request))
        # for the fair-play review
        address_hash = client_address_hash(request._request)
        device_hash = client_device_hash(request._request)
        if options.pop("daily", False):
            # The caller's ranked game of the day: returned (200) if it exists already.
            game, created = services.daily_boards().game_get_or_create(
                player=request.user,
                draw=options["draw"],
                address_hash=address_hash,
                device_hash=device_hash,
                ranked=options["ranked"],
            )
            return Response(game_payload(game, viewer=request.user), status=201 if created else 200)
        game = services.game_create(
            owner=request.user, address_hash=address_hash, device_hash=device_hash, **options
        )
        return Response(game_payload(game, viewer=request.user), status=201)


class GameDetailApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[GAME_ID],
        responses=answers({200: GameOutSerializer}, 401, 404),
        summary="A game (a finished public game with its action log)",
        operation_id="games_get",
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = game_read_for(request, game_id)
        return game_with_log_response(game, viewer=request.user)


class GameActionsApi(APIView):
    throttle_scope = "actions"

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        # Anyone may read a visible game's log; only an account may act.
        return (
            [AllowAny(), ScopeRequired()]
            if self.request.method == "GET"
            else super().get_permissions()
        )

    def get_throttles(self) -> list[BaseThrottle]:
        return [FixedWindowScopedThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[GAME_ID],
        responses=answers({200: ActionOutSerializer(many=True)}, 401, 404),
        summary="The game's action log, oldest first",
        operation_id="games_actions_list",
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = game_read_for(request, game_id)
        return HttpResponse(log_json(game), content_type="application/json")

    @extend_schema(
        parameters=[GAME_ID],
        request=ACTION,
        responses=answers({200: ActedSerializer}, 400, 401, 403, 404, 409, 422, 429, body=True),
        summary="Apply one action (optionally only if `moves` still equals `expect`)",
        operation_id="games_actions_create",
    )
    def post(self, request: Request, game_id: str) -> Response:
        action = dict(body_object(request))
        expect = action.pop("expect", None)
        if expect is not None and (
            isinstance(expect, bool) or not isinstance(expect, int) or expect < 0
        ):
            raise InvalidRequest(_("expect must be a whole number of moves (0 or more)."))
        row, game, engine = services.game_act(
            game=game_read_for(request, game_id), user=request.user, action=action, expect=expect
        )
        return Response(
            {
                "action": action_payload(row),
                "game": game_payload(game, viewer=request.user, engine=engine),
            }
        )


class GameLegalActionsApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[GAME_ID],
        responses=answers({200: ACTION_LIST}, 401, 404),
        summary="Every legal action now (empty once the game is over)",
        operation_id="games_legal_actions",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response(EngineGame.from_dict(game.state).legal_actions())


class TextQuerySerializer(serializers.Serializer[object]):
    lang = serializers.ChoiceField(choices=list(LANGUAGES), required=False, default="en")


class GameTextApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[GAME_ID, TextQuerySerializer],
        responses=answers({200: TextSerializer}, 400, 401, 404),
        summary="The table in words (R28)",
        operation_id="games_text",
    )
    def get(self, request: Request, game_id: str) -> Response:
        lang = query_read(request, TextQuerySerializer)["lang"]
        game = game_read_for(request, game_id)
        return Response({"lang": lang, "text": describe(EngineGame.from_dict(game.state), lang)})


class GameHintApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle, AddressScopedThrottle]
    throttle_scope = "hints"
    address_throttle_scope = "hints_address"

    @extend_schema(
        parameters=[GAME_ID],
        responses=answers({200: HintSerializer}, 401, 403, 404, 409, 429),
        summary="The next action of a winning line, if the solver finds one in time (R30)",
        operation_id="games_hint",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response(services.game_hint(game=game, user=request.user))


class GameAnalysisApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="the ETag of the analysis the client has: 304 if it is still it",
            ),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="the analysis's version",
            ),
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[202],
                description="seconds before asking again",
            ),
        ],
        responses=answers(
            {
                200: OpenApiResponse(
                    AnalysisSerializer, description="the analysis, with its `ETag`"
                ),
                202: OpenApiResponse(
                    AnalysisPendingSerializer,
                    description="queued or being computed; ask again after `Retry-After`",
                ),
                304: OpenApiResponse(description="`If-None-Match` holds the analysis's ETag"),
            },
            401,
            404,
            409,
        ),
        summary="Where the win was lost (R37): computed once, off the request path",
        operation_id="games_analysis",
    )
    def get(self, request: Request, game_id: str) -> Response | HttpResponseBase:
        row = services.game_analysis(game=game_read_for(request, game_id))
        if row.status != AnalysisRow.Status.DONE:
            headers = {"Retry-After": str(ANALYSIS_RETRY_SECONDS)}
            return Response(services.analysis_payload(row), status=202, headers=headers)
        unchanged = get_conditional_response(request._request, etag=row.etag)
        if unchanged is not None:  # a 304: If-None-Match holds the ETag
            unchanged["ETag"] = row.etag
            return unchanged
        return Response(services.analysis_payload(row), headers={"ETag": row.etag})
