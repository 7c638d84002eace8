"""REST API of matches and ratings (docs/api.md "Matches and ratings (R32, R33)"): thin views
over matches.services and matches.selectors."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ScopeRequired
from core.api import (
    MAX_PAGE,
    JsonBooleanField,
    JsonChoiceField,
    JsonTextField,
    PageQuerySerializer,
    answers,
    body_read,
    one_of,
    page_links,
    page_params,
    query_read,
    refused,
    true_or_false,
    whole_number,
)
from core.clients import client_address_hash, client_device_hash
from core.errors import ApiError, NotFound
from core.throttling import FixedWindowScopedThrottle
from matches import challenges, selectors, services
from matches.deals import NoMatchSecret
from matches.models import Challenge, Match

SIZE_CHOICES = [(2, "2"), (4, "4")]
DRAW_CHOICES = [(3, "3"), (1, "1")]
MATCHES_PAGE_SIZE = 20
RATINGS_PAGE_SIZE = 50


class Unavailable(ApiError):
    status_code = 503
    code = "unavailable"


# ---- shapes ------------------------------------------------------------------------------------


class MatchPlayerSerializer(serializers.Serializer[object]):
    player = serializers.CharField()
    bot = serializers.BooleanField()
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    status = serializers.ChoiceField(choices=["playing", "won", "resigned"])
    end_reason = serializers.CharField(allow_null=True, help_text="as the game's (R26a, R32)")
    aborted = serializers.BooleanField(
        help_text="its game ended with fewer than 10 actions: no place, no rating change (R33a)"
    )
    place = serializers.IntegerField(
        allow_null=True, help_text="null until finished (R32), and for an aborted seat"
    )
    rating_before = serializers.IntegerField(help_text="the player's rating when they joined")
    rating_after = serializers.IntegerField(
        allow_null=True, help_text="null until the match is rated (R33)"
    )


class MatchSerializer(serializers.Serializer[object]):
    id = serializers.UUIDField()
    size = serializers.ChoiceField(choices=SIZE_CHOICES)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    status = serializers.ChoiceField(choices=["open", "finished"])
    cancelled = serializers.BooleanField(
        help_text="finished with fewer than two players: no rating changes (R32)"
    )
    rated = serializers.BooleanField(
        help_text="its ratings changed (R33); a finished match waits while one of its games is "
        "held for a fair-play review (R35)"
    )
    created = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="24 hours after it opened (R32)")
    finished_at = serializers.DateTimeField(allow_null=True)
    code = serializers.CharField(allow_null=True, help_text="the deal's code, once finished")
    game = serializers.UUIDField(allow_null=True, help_text="the caller's game (null for others)")
    players = MatchPlayerSerializer(many=True)
    duel = serializers.BooleanField(help_text="a challenge's match: its two seats were reserved")
    unrated = serializers.BooleanField(
        help_text="a duel played unrated: its ratings never change (R33)"
    )


DRAW_REFUSED = one_of("draw", services.DRAWS)


class MatchCreateSerializer(serializers.Serializer[object]):
    size = JsonChoiceField(
        choices=SIZE_CHOICES, error_messages=refused(one_of("size", services.SIZES))
    )
    draw = JsonChoiceField(
        choices=DRAW_CHOICES, required=False, default=3, error_messages=refused(DRAW_REFUSED)
    )


class MatchPageSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MatchSerializer(many=True)


class RatingEntrySerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    rating = serializers.IntegerField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="fewer than 10 matches (R33)")


class RatingPageSerializer(serializers.Serializer[object]):
    size = serializers.ChoiceField(choices=SIZE_CHOICES)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingEntrySerializer(many=True)


class WeeklyEntrySerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    gain = serializers.IntegerField(help_text="the sum of the week's rating changes")
    matches = serializers.IntegerField(help_text="rated matches this week")


class WeeklyPageSerializer(serializers.Serializer[object]):
    size = serializers.ChoiceField(choices=SIZE_CHOICES)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    week = serializers.DateField(help_text="the Monday the week began")
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = WeeklyEntrySerializer(many=True)


class MatchListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(choices=["open", "finished"], required=False)
    since = serializers.DateTimeField(
        required=False, help_text="opened at or after this moment (ISO 8601; a date: its 00:00 UTC)"
    )
    until = serializers.DateTimeField(required=False, help_text="opened before this moment")
    max = whole_number("max", MAX_PAGE, help_text="at most this many matches, newest first")
    size = serializers.ChoiceField(choices=SIZE_CHOICES, required=False)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False)


class ModeQuerySerializer(PageQuerySerializer):
    size = serializers.ChoiceField(choices=SIZE_CHOICES, required=False, default=2)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False, default=3)


class RatingsQuerySerializer(ModeQuerySerializer):
    players = serializers.ChoiceField(
        choices=["people", "bots"], required=False, default="people",
        help_text="people's ratings, or bots' (R34)",
    )  # fmt: skip


MATCH_ID = OpenApiParameter(
    "match_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="the match's `id`"
)


# ---- parsing -----------------------------------------------------------------------------------


def _match_for(match_id: str) -> Match:
    try:
        pk = uuid.UUID(str(match_id))
    except ValueError:
        pk = None
    match = None if pk is None else selectors.match_find(pk)
    if match is None:
        raise NotFound(_("No such match."))
    return services.match_read(match=match)


# ---- views -------------------------------------------------------------------------------------


# A list (a read, not counted) and its POST, counted against `throttle_scope`.
class _PostThrottledApi(APIView):
    def get_throttles(self) -> list[Any]:
        return [FixedWindowScopedThrottle()] if self.request.method == "POST" else []


class MatchListCreateApi(_PostThrottledApi):
    throttle_scope = "matches"

    @extend_schema(
        parameters=[MatchListQuerySerializer],
        responses=answers({200: MatchPageSerializer}, 400, 401, 404),
        summary=f"The caller's matches, newest first ({MATCHES_PAGE_SIZE} a page by default)",
        operation_id="matches_list",
    )
    def get(self, request: Request) -> Response:
        query = query_read(request, MatchListQuerySerializer)
        page, size = page_params(query, default_size=MATCHES_PAGE_SIZE)
        matches = selectors.match_list_for(
            user=request.user,
            **{
                name: query[name]
                for name in ("status", "since", "until", "size", "draw")
                if name in query
            },
        )
        if "max" in query:
            matches = matches[: query["max"]]
        body = page_links(request, page=page, size=size, count=matches.count())
        body["results"] = [
            selectors.match_payload(services.match_read(match=match), viewer=request.user)
            for match in matches[(page - 1) * size : page * size]
        ]
        return Response(body)

    @extend_schema(
        request=MatchCreateSerializer,
        responses=answers(
            {
                201: OpenApiResponse(MatchSerializer, description="seated, the game dealt"),
                200: OpenApiResponse(
                    MatchSerializer,
                    description="the caller's unfinished match of that size and draw",
                ),
            },
            400,
            401,
            403,
            429,
            body=True,
        ),  # fmt: skip
        summary="Join a match (R32): seated at once, the caller's game dealt",
        operation_id="matches_create",
    )
    def post(self, request: Request) -> Response:
        data = body_read(request, MatchCreateSerializer, required=False)
        size, draw = data["size"], data["draw"]
        try:
            joined = services.match_join(
                player=request.user,
                size=size,
                draw=draw,
                address_hash=client_address_hash(request._request),
                device_hash=client_device_hash(request._request),
            )
        except NoMatchSecret:
            raise Unavailable(_("Matches are not set up on this server.")) from None
        return Response(
            selectors.match_payload(joined.match, viewer=request.user, seats=joined.seats),
            status=201 if joined.created else 200,
        )


class MatchDetailApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[MATCH_ID],
        responses=answers({200: MatchSerializer}, 401, 404),
        summary="A match: opponents' figures only until it is finished (R32)",
        operation_id="matches_get",
    )
    def get(self, request: Request, match_id: str) -> Response:
        return Response(selectors.match_payload(_match_for(match_id), viewer=request.user))


# ---- challenges (matches.challenges) -----------------------------------------------------------

CHALLENGES_PAGE_SIZE = 20


class ChallengeSerializer(serializers.Serializer[object]):
    id = serializers.UUIDField()
    challenger = serializers.CharField()
    player = serializers.CharField(help_text="the challenged player")
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    rated = serializers.BooleanField(
        help_text="the challenger asked for a rated duel (R33); the match is rated only if the "
        "player accepted it rated too (MATCH.unrated)"
    )
    status = serializers.ChoiceField(
        choices=["pending", "accepted", "declined", "cancelled", "expired"],
        help_text="a pending challenge not accepted by `expires_at` is expired",
    )
    created = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="24 hours after it was made")
    decided_at = serializers.DateTimeField(
        allow_null=True, help_text="when it stopped being pending (null while it is)"
    )
    match = serializers.UUIDField(allow_null=True, help_text="the duel, once accepted")


RATED_REFUSED = true_or_false("rated")


class ChallengeCreateSerializer(serializers.Serializer[object]):
    player = JsonTextField(
        trim_whitespace=False,
        allow_nul=True,
        help_text="the username of the player to challenge",
        error_messages=refused(gettext_lazy("player must be a username.")),
    )
    draw = JsonChoiceField(
        choices=DRAW_CHOICES, required=False, default=3, error_messages=refused(DRAW_REFUSED)
    )
    rated = JsonBooleanField(
        required=False,
        default=False,
        help_text="ask for a rated duel (R33, R36)",
        error_messages=refused(RATED_REFUSED),
    )


class ChallengeAcceptSerializer(serializers.Serializer[object]):
    rated = JsonBooleanField(
        required=False,
        allow_null=True,
        help_text="false: play a rated challenge unrated (default, or null: as the challenge asks)",
        error_messages=refused(RATED_REFUSED),
    )


class ChallengePageSerializer(serializers.Serializer[object]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ChallengeSerializer(many=True)


CHALLENGE_ID = OpenApiParameter(
    "challenge_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="the challenge's `id`"
)


def _challenge_id(challenge_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(challenge_id))
    except ValueError:
        raise NotFound(_("No such challenge.")) from None


class ChallengeListCreateApi(_PostThrottledApi):
    throttle_scope = "challenges"

    @extend_schema(
        parameters=[PageQuerySerializer],
        responses=answers({200: ChallengePageSerializer}, 400, 401, 404),
        summary="The caller's challenges, sent and received: pending ones first, then newest first",
        operation_id="challenges_list",
    )
    def get(self, request: Request) -> Response:
        query = query_read(request, PageQuerySerializer)
        now = timezone.now()
        page, size = page_params(query, default_size=CHALLENGES_PAGE_SIZE)
        rows = selectors.challenge_list_for(user=request.user, now=now)
        body = page_links(request, page=page, size=size, count=rows.count())
        body["results"] = [
            selectors.challenge_payload(row, now=now)
            for row in rows[(page - 1) * size : page * size]
        ]
        return Response(body)

    @extend_schema(
        request=ChallengeCreateSerializer,
        responses=answers(
            {201: OpenApiResponse(ChallengeSerializer, description="pending for 24 hours")},
            400,
            401,
            403,
            404,
            409,
            429,
            body=True,
        ),  # fmt: skip
        summary="Challenge a player by name to a duel on a fresh winnable deal",
        operation_id="challenges_create",
    )
    def post(self, request: Request) -> Response:
        data = body_read(request, ChallengeCreateSerializer, required=False)
        challenge = challenges.challenge_create(
            challenger=request.user,
            username=data["player"],
            draw=data["draw"],
            rated=data["rated"],
            address_hash=client_address_hash(request._request),
            device_hash=client_device_hash(request._request),
        )
        return Response(selectors.challenge_payload(challenge, now=timezone.now()), status=201)


class ChallengeDetailApi(APIView):
    @extend_schema(
        parameters=[CHALLENGE_ID],
        responses=answers({200: ChallengeSerializer}, 401, 404),
        summary="A challenge of the caller's (404 to anyone else)",
        operation_id="challenges_get",
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        challenge = challenges.challenge_find(
            challenge_id=_challenge_id(challenge_id), user=request.user
        )
        return Response(selectors.challenge_payload(challenge, now=timezone.now()))


class ChallengeAcceptApi(APIView):
    @extend_schema(
        parameters=[CHALLENGE_ID],
        request=ChallengeAcceptSerializer,
        responses=answers(
            {201: OpenApiResponse(MatchSerializer, description="the duel, both games dealt")},
            400,
            401,
            403,
            404,
            409,
            body=True,
        ),  # fmt: skip
        summary="Accept a challenge made to the caller: the duel starts (R32)",
        operation_id="challenges_accept",
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        rated = body_read(request, ChallengeAcceptSerializer, required=False).get("rated")
        try:
            accepted = challenges.challenge_accept(
                challenge_id=_challenge_id(challenge_id),
                user=request.user,
                rated=rated,
                address_hash=client_address_hash(request._request),
                device_hash=client_device_hash(request._request),
            )
        except NoMatchSecret:
            raise Unavailable(_("Matches are not set up on this server.")) from None
        return Response(
            selectors.match_payload(accepted.match, viewer=request.user, seats=accepted.seats),
            status=201,
        )


# Decline or cancel (`decision`): one view, two paths (each with its own scope entry).
class _ChallengeDecideApi(APIView):
    decision: str

    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = challenges.challenge_decide(
            challenge_id=_challenge_id(challenge_id), user=request.user, status=self.decision
        )
        return Response(selectors.challenge_payload(challenge, now=timezone.now()))


def _decide_schema(summary: str, operation_id: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            parameters=[CHALLENGE_ID],
            request=None,
            responses=answers({200: ChallengeSerializer}, 401, 403, 404, 409),
            summary=summary,
            operation_id=operation_id,
        )
    )


@_decide_schema("Decline a challenge made to the caller", "challenges_decline")
class ChallengeDeclineApi(_ChallengeDecideApi):
    decision = Challenge.Status.DECLINED


@_decide_schema("Cancel a challenge the caller made", "challenges_cancel")
class ChallengeCancelApi(_ChallengeDecideApi):
    decision = Challenge.Status.CANCELLED


class RatingsApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[RatingsQuerySerializer],
        responses=answers({200: RatingPageSerializer}, 400, 401, 404),
        summary=f"A mode's ratings board, best first (R33; {RATINGS_PAGE_SIZE} a page)",
        operation_id="ratings_list",
    )
    def get(self, request: Request) -> Response:
        query = query_read(request, RatingsQuerySerializer)
        size, draw = query["size"], query["draw"]
        page, page_size = page_params(query, default_size=RATINGS_PAGE_SIZE)
        rows = selectors.ratings_board(size=size, draw=draw, bots=query["players"] == "bots")
        body: dict[str, Any] = {"size": size, "draw": draw}
        body.update(page_links(request, page=page, size=page_size, count=rows.count()))
        start = (page - 1) * page_size
        body["results"] = [
            selectors.rating_entry(row, rank)
            for rank, row in enumerate(rows[start : start + page_size], start=start + 1)
        ]
        return Response(body)


class WeeklyRatingsApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[ModeQuerySerializer],
        responses=answers({200: WeeklyPageSerializer}, 400, 401, 404),
        summary="The week's best rating gains of a mode (reset every Monday)",
        operation_id="ratings_weekly",
    )
    def get(self, request: Request) -> Response:
        query = query_read(request, ModeQuerySerializer)
        size, draw = query["size"], query["draw"]
        page, page_size = page_params(query, default_size=RATINGS_PAGE_SIZE)
        rows = selectors.weekly_gains(size=size, draw=draw)
        body: dict[str, Any] = {
            "size": size,
            "draw": draw,
            "week": selectors.week_start().date().isoformat(),
        }
        body.update(page_links(request, page=page, size=page_size, count=rows.count()))
        start = (page - 1) * page_size
        body["results"] = [
            {
                "rank": rank,
                "player": row["player__username"],
                "gain": row["gain"],
                "matches": row["matches"],
            }
            for rank, row in enumerate(rows[start : start + page_size], start=start + 1)
        ]
        return Response(body)


class RatingChangeSerializer(serializers.Serializer[object]):
    match = serializers.UUIDField()
    at = serializers.DateTimeField()
    place = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()


class RatingHistorySerializer(serializers.Serializer[object]):
    player = serializers.CharField()
    size = serializers.ChoiceField(choices=SIZE_CHOICES)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    results = RatingChangeSerializer(many=True)


class ModeOnlyQuerySerializer(serializers.Serializer[object]):
    size = serializers.ChoiceField(choices=SIZE_CHOICES, required=False, default=2)
    draw = serializers.ChoiceField(choices=DRAW_CHOICES, required=False, default=3)


class RatingHistoryApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[ModeOnlyQuerySerializer],
        responses=answers({200: RatingHistorySerializer}, 400, 401, 404),
        summary="A player's rating history in a mode, oldest first (the last 200 matches)",
        operation_id="players_ratings_history",
    )
    def get(self, request: Request, username: str) -> Response:
        query = query_read(request, ModeOnlyQuerySerializer)
        size, draw = query["size"], query["draw"]
        player = None
        if "\x00" not in username:  # PostgreSQL refuses NUL in text: no such name either
            player = get_user_model().objects.filter(username__iexact=username[:150]).first()
        if player is None:
            raise NotFound(_("No such player."))
        history = selectors.rating_history(user=player, size=size, draw=draw)
        return Response({"player": player.username, "size": size, "draw": draw, "results": history})
