"""REST API of the daily challenges, leaderboards and player figures (API.md "Daily
challenges and leaderboards"): thin views over leaderboard.services and selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from games.errors import InvalidRequest, NotFound
from leaderboard import selectors, services
from leaderboard.days import DRAWS, day_parse, day_today
from leaderboard.models import DailyChallenge


class ParSerializer(serializers.Serializer):
    moves = serializers.IntegerField(help_text="the fewest moves of a winning line found (R31)")
    exact = serializers.BooleanField(help_text='proved the fewest possible; else "<= moves"')


class BoardSerializer(serializers.Serializer):
    draw = serializers.IntegerField()
    players = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text="revealed once the day is over")
    par = ParSerializer(allow_null=True, help_text="R31, once the day is over")


class DailyOutSerializer(serializers.Serializer):
    date = serializers.DateField()
    ends_at = serializers.DateTimeField()
    boards = BoardSerializer(many=True)


class EntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    status = serializers.ChoiceField(choices=["playing", "won", "resigned"])
    game = serializers.UUIDField()


class LeaderboardOutSerializer(serializers.Serializer):
    date = serializers.DateField()
    draw = serializers.IntegerField()
    par = ParSerializer(allow_null=True, help_text="R31, once the day is over")
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EntrySerializer(many=True)


class PlayerOutSerializer(serializers.Serializer):
    username = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    best_score = serializers.IntegerField(allow_null=True)
    best_win_seconds = serializers.FloatField(allow_null=True)
    best_win_moves = serializers.IntegerField(allow_null=True)
    daily_streak = serializers.IntegerField()


class ErrorOutSerializer(serializers.Serializer):
    error = serializers.DictField()


def _errors(*codes: int) -> dict[int, type[serializers.Serializer]]:
    return dict.fromkeys(codes, ErrorOutSerializer)


def parse_date(text: str) -> dt.date:
    day = day_parse(text)
    if day is None:
        raise InvalidRequest(f"{text[:20]!r} is not a date: expected YYYY-MM-DD")
    return day


def parse_draw(text: str | None) -> int:
    if text is None:
        return 3
    if text not in {str(draw) for draw in DRAWS}:
        raise InvalidRequest("draw must be 3 or 1")
    return int(text)


def parse_page(text: str | None) -> int:
    if text is None:
        return 1
    if not text.isascii() or not text.isdigit() or int(text) < 1 or len(text) > 9:
        raise InvalidRequest("page must be a whole number, 1 or more")
    return int(text)


def challenges_of_day(date: dt.date) -> None:
    """Today's boards exist as soon as anyone asks (on demand); other days only if they were
    created (a past day nobody played, or a future one, is not found)."""
    if date == day_today():
        for draw in DRAWS:
            services.challenge_get_or_create(date=date, draw=draw)


def challenge_for(date: dt.date, draw: int) -> DailyChallenge:
    if date == day_today():
        return services.challenge_get_or_create(date=date, draw=draw)
    challenge = selectors.challenge_find(date=date, draw=draw)
    if challenge is None or date > day_today():
        raise NotFound(f"there is no {draw}-card daily challenge on {date.isoformat()}")
    return challenge


class DailyTodayApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: DailyOutSerializer, **_errors(429)},
        summary="Today's daily challenge: its boards (codes revealed after the day)",
        operation_id="daily_today",
    )
    def get(self, request: Request) -> Response:
        today = day_today()
        challenges_of_day(today)
        return Response(selectors.daily_info(date=today, now=timezone.now()))


class DailyDayApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: DailyOutSerializer, **_errors(400, 404, 429)},
        summary="One day's daily challenge",
        operation_id="daily_get",
    )
    def get(self, request: Request, date: str) -> Response:
        day = parse_date(date)
        if day > day_today():
            raise NotFound(f"there is no daily challenge on {day.isoformat()} yet")
        challenges_of_day(day)
        return Response(selectors.daily_info(date=day, now=timezone.now()))


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("draw", int, enum=[3, 1], required=False),
            OpenApiParameter("page", int, required=False),
        ],
        responses={200: LeaderboardOutSerializer, **_errors(400, 404, 429)},
        summary="A day's board: score desc, moves, seconds, then who got there first; live",
        operation_id="daily_leaderboard",
    )
    def get(self, request: Request, date: str) -> Response:
        day = parse_date(date)
        draw = parse_draw(request.query_params.get("draw"))
        page = parse_page(request.query_params.get("page"))
        challenge = challenge_for(day, draw)
        count = selectors.board_count(challenge=challenge)
        pages = max(1, -(-count // selectors.PAGE_SIZE))
        if page > pages:
            raise NotFound(f"page {page} is past the last page ({pages})")
        results = selectors.board_page(challenge=challenge, page=page, now=timezone.now())
        url = request.build_absolute_uri()
        body: dict[str, Any] = {
            "date": day.isoformat(),
            "draw": draw,
            "par": selectors.challenge_par(challenge, timezone.now()),
            "count": count,
            "next": replace_query_param(url, "page", page + 1) if page < pages else None,
            "previous": None,
            "results": results,
        }
        if page == 2:
            body["previous"] = remove_query_param(url, "page")
        elif page > 2:
            body["previous"] = replace_query_param(url, "page", page - 1)
        return Response(body)


class PlayerApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: PlayerOutSerializer, **_errors(404, 429)},
        summary="A player's figures and current daily streak",
        operation_id="players_get",
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(selectors.player_stats(username=username, now=timezone.now()))
