"""REST API of accounts and games (API.md "Accounts" and "Games"): thin views that parse the
input, call one service or selector, and shape the output. Errors go through games.errors."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from canfield_site.clients import client_address_hash
from games import accounts, selectors, services
from games.authentication import game_read_for
from games.engine import RULESETS, DealCode, describe
from games.engine import Game as EngineGame
from games.engine.actions import ACTION_TYPES, MAX_COUNT, PILE_NAMES
from games.errors import InvalidRequest
from games.models import Action, Game
from games.throttling import FixedWindowScopedThrottle
from leaderboard import selectors as leaderboard_selectors
from leaderboard import services as leaderboard_services

LANGUAGES = ("hu", "en", "pl")

# ---- output shapes ----------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def action_payload(row: Action) -> dict[str, Any]:
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


def _daily(game: Game) -> dict[str, Any] | None:
    """API.md's `daily`, plus the board standing (`rank`, `players`) once the game is over."""
    if game.challenge is None:
        return None
    daily: dict[str, Any] = {"date": game.challenge.date.isoformat()}
    standing = leaderboard_selectors.game_standing(game=game, now=timezone.now())
    if standing is not None:
        daily.update(standing)
    return daily


def game_payload(
    game: Game, *, with_log: bool = False, engine: EngineGame | None = None
) -> dict[str, Any]:
    """API.md's GAME. The code and the log only once they reveal nothing (R19). `engine`: the
    game's state already loaded, if the caller has it."""
    private = selectors.game_is_private(game)
    end = game.finished_at or timezone.now()
    payload: dict[str, Any] = {
        "id": str(game.id),
        "code": selectors.game_code_shown(game),
        "practice": game.practice,
        "daily": _daily(game),
        "seconds": round((end - game.created_at).total_seconds(), 3),
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "hints": game.hints,
    }
    payload.update((engine or EngineGame.from_dict(game.state)).public_view())
    if with_log and not private:
        payload["actions"] = [action_payload(row) for row in selectors.action_list_for(game=game)]
    return payload


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    rule = serializers.CharField(required=False)


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class ActionOutSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    type = serializers.CharField()
    # `from` is a Python keyword: the field is renamed in __init__.
    from_ = serializers.CharField(allow_null=True)
    to = serializers.CharField(allow_null=True)
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


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    rank = serializers.IntegerField(required=False, help_text="once the game is over")
    players = serializers.IntegerField(required=False, help_text="once the game is over")


class CountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


class WasteSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    fan = serializers.ListField(child=serializers.CharField())


class ReserveSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class FoundationSerializer(serializers.Serializer):
    suit = serializers.ChoiceField(choices=["H", "S", "D", "C"])
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class GameOutSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.ChoiceField(choices=list(RULESETS))
    draw = serializers.IntegerField()
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
    status = serializers.ChoiceField(choices=Game.Status.values)
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    starting_rank = serializers.CharField()
    stock = CountSerializer()
    waste = WasteSerializer()
    reserve = ReserveSerializer()
    foundations = FoundationSerializer(many=True)
    tableau = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    undo_available = serializers.IntegerField()
    hints = serializers.IntegerField(help_text="hints used (R30)")
    actions = ActionOutSerializer(many=True, required=False)


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameOutSerializer(many=True)


class ActedSerializer(serializers.Serializer):
    action = ActionOutSerializer()
    game = GameOutSerializer()


class LegalActionSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["move", "draw", "recycle", "undo"])
    from_ = serializers.CharField(required=False)
    to = serializers.CharField(required=False)
    count = serializers.IntegerField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("from_")


class HintActionSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["move", "draw", "recycle"])
    from_ = serializers.CharField(required=False)
    to = serializers.CharField(required=False)
    count = serializers.IntegerField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("from_")


class HintSerializer(serializers.Serializer):
    action = HintActionSerializer(allow_null=True, help_text="the next action of a winning line")
    winnable = serializers.BooleanField(
        allow_null=True, help_text="false: no winning line exists; null: undecided in time"
    )


class TextSerializer(serializers.Serializer):
    lang = serializers.ChoiceField(choices=LANGUAGES)
    text = serializers.CharField()


# ---- input shapes (documentation; parsing below is strict about types) -------------------------


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096)


class RegisteredSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenOutSerializer(serializers.Serializer):
    token = serializers.CharField()


class GameCreateSerializer(serializers.Serializer):
    draw = serializers.ChoiceField(choices=[1, 3], required=False)
    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False)
    code = serializers.CharField(
        required=False,
        help_text="a deal code: CF1-D3-AAAAACL (R3) or CF2-D3- and 26 characters (R4a)",
    )
    deck = serializers.ListField(
        child=serializers.CharField(), min_length=52, max_length=52, required=False
    )
    daily = serializers.BooleanField(required=False)


class ActionInSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(ACTION_TYPES))
    from_ = serializers.ChoiceField(choices=[p for p in PILE_NAMES if p != "foundation"])
    to = serializers.ChoiceField(choices=list(PILE_NAMES), required=False)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False)
    columns = serializers.BooleanField(required=False)
    expect = serializers.IntegerField(min_value=0, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.pop("from_")
        field.required = False
        self.fields["from"] = field


def _errors(*codes: int) -> dict[int, type[serializers.Serializer]]:
    return dict.fromkeys(codes, ErrorSerializer)


def _body(request: Request) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise InvalidRequest("the body must be a JSON object")
    return data


def _string(data: dict[str, Any], key: str, *, max_length: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidRequest(f"{key} must be a non-empty string")
    if len(value) > max_length or "\x00" in value:
        raise InvalidRequest(f"{key} must be at most {max_length} characters, without NUL")
    return value


def _only(data: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise InvalidRequest(f"unknown field(s): {', '.join(unknown)[:200]}")


# ---- accounts ----------------------------------------------------------------------------------


def _credentials(request: Request) -> tuple[str, str]:
    """The `{"username", "password"}` body of both account endpoints."""
    data = _body(request)
    _only(data, {"username", "password"})
    return _string(data, "username", max_length=150), _string(data, "password", max_length=4096)


class RegisterApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "register"

    @extend_schema(
        request=CredentialsSerializer,
        responses={201: RegisteredSerializer, **_errors(400, 429)},
        summary="Create an account and its API token",
        operation_id="auth_register",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        username, password = _credentials(request)
        user_model = get_user_model()
        try:
            accounts.username_validate(username)
            validate_password(password, user=user_model(username=username))
        except DjangoValidationError as error:
            raise InvalidRequest(" ".join(error.messages)) from None
        wait = accounts.signup_slot_take(request._request)
        if wait is not None:
            raise Throttled(wait, "too many accounts created from this address")
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(username=username, password=password)
                token = Token.objects.create(user=user)
        except IntegrityError:
            raise InvalidRequest("that username is taken") from None
        return Response({"username": user.username, "token": token.key}, status=201)


class TokenApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "token"

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenOutSerializer, **_errors(400, 429)},
        summary="Get the API token of an account",
        operation_id="auth_token",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        username, password = _credentials(request)
        # A locked-out account or address is refused here before any hashing (django-axes);
        # its 429 comes from games.accounts.lockout_response.
        user = authenticate(request._request, username=username, password=password)
        if user is None:
            raise InvalidRequest("wrong username or password")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


# ---- games -------------------------------------------------------------------------------------


class GamePagination(PageNumberPagination):
    page_size = 20


def parse_game_create(data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of game_create for a POST /games body (API.md)."""
    _only(data, {"draw", "ruleset", "code", "deck", "daily"})
    ruleset = data.get("ruleset", "app")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InvalidRequest(f"ruleset must be one of {', '.join(RULESETS)}")
    draw = data.get("draw")
    if draw is not None and (type(draw) is not int or draw not in (1, 3)):
        raise InvalidRequest("draw must be 1 or 3")
    if "daily" in data and type(data["daily"]) is not bool:
        raise InvalidRequest("daily must be true or false")
    if data.get("daily"):
        if "code" in data or "deck" in data or ruleset != "app":
            raise InvalidRequest("a daily game is today's deal with the app rules: send only draw")
        return {"daily": True, "draw": draw or 3}
    if "code" in data and "deck" in data:
        raise InvalidRequest("send a code or a deck, not both")
    if "code" in data:
        code = DealCode.parse(data["code"])
        if draw is not None and draw != code.draw:
            raise InvalidRequest(f"draw {draw} contradicts the code's draw {code.draw}")
        return {"ruleset": ruleset, "draw": code.draw, "code": code}
    if "deck" in data and not isinstance(data["deck"], list):
        raise InvalidRequest("deck must be a list of 52 card names")
    return {"ruleset": ruleset, "draw": draw or 3, "deck": data.get("deck")}


class GameListCreateApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("page", int, required=False)],
        responses={200: GamePageSerializer, **_errors(401, 404, 429)},
        summary="The caller's games, newest first",
        operation_id="games_list",
    )
    def get(self, request: Request) -> Response:
        paginator = GamePagination()
        page = paginator.paginate_queryset(
            selectors.game_list_for(user=request.user), request, self
        )
        return paginator.get_paginated_response([game_payload(game) for game in page or []])

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameOutSerializer, **_errors(400, 401, 429)},
        summary="Deal a new game: random, by deal code, or a custom deck",
        operation_id="games_create",
    )
    def post(self, request: Request) -> Response:
        options = parse_game_create(_body(request))
        address_hash = client_address_hash(request._request)  # for the fair-play review
        if options.pop("daily", False):
            # The caller's ranked game of the day: returned (200) if it exists already.
            game, created = leaderboard_services.daily_game_get_or_create(
                player=request.user, draw=options["draw"], address_hash=address_hash
            )
            return Response(game_payload(game), status=201 if created else 200)
        game = services.game_create(owner=request.user, address_hash=address_hash, **options)
        return Response(game_payload(game), status=201)


class GameDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: GameOutSerializer, **_errors(404, 429)},
        summary="A game (a finished public game with its action log)",
        operation_id="games_get",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response(game_payload(game, with_log=True))


class GameActionsApi(APIView):
    throttle_scope = "actions"

    def get_permissions(self) -> list[Any]:
        # Anyone may read a visible game's log; only an account may act.
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    def get_throttles(self) -> list[Any]:
        return [FixedWindowScopedThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        responses={200: ActionOutSerializer(many=True), **_errors(404, 429)},
        summary="The game's action log, oldest first",
        operation_id="games_actions_list",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response([action_payload(row) for row in selectors.action_list_for(game=game)])

    @extend_schema(
        request=ActionInSerializer,
        responses={200: ActedSerializer, **_errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Apply one action (optionally only if `moves` still equals `expect`)",
        operation_id="games_actions_create",
    )
    def post(self, request: Request, game_id: str) -> Response:
        action = dict(_body(request))
        expect = action.pop("expect", None)
        if expect is not None and (
            isinstance(expect, bool) or not isinstance(expect, int) or expect < 0
        ):
            raise InvalidRequest("expect must be a whole number of moves (0 or more)")
        row, game, engine = services.game_act(
            game=game_read_for(request, game_id), user=request.user, action=action, expect=expect
        )
        return Response({"action": action_payload(row), "game": game_payload(game, engine=engine)})


class GameLegalActionsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: LegalActionSerializer(many=True), **_errors(404, 429)},
        summary="Every legal action now (empty once the game is over)",
        operation_id="games_legal_actions",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response(EngineGame.from_dict(game.state).legal_actions())


class GameTextApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("lang", str, enum=list(LANGUAGES), required=False)],
        responses={200: TextSerializer, **_errors(400, 404, 429)},
        summary="The table in words (R28)",
        operation_id="games_text",
    )
    def get(self, request: Request, game_id: str) -> Response:
        lang = request.query_params.get("lang", "en")
        if lang not in LANGUAGES:
            raise InvalidRequest(f"lang must be one of {', '.join(LANGUAGES)}")
        game = game_read_for(request, game_id)
        return Response({"lang": lang, "text": describe(EngineGame.from_dict(game.state), lang)})


class GameHintApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "hints"

    @extend_schema(
        responses={200: HintSerializer, **_errors(401, 403, 404, 409, 429)},
        summary="The next action of a winning line, if the solver finds one in time (R30)",
        operation_id="games_hint",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_read_for(request, game_id)
        return Response(services.game_hint(game=game, user=request.user))
