"""REST API of the daily challenges, leaderboards and player figures (docs/api.md "Daily
challenges and leaderboards"): thin views over leaderboard.services and selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ScopeRequired
from core.api import (
    WORDED,
    PageQuerySerializer,
    answers,
    page_links,
    page_params,
    query_read,
)
from core.errors import InvalidRequest, NotFound
from games.api import DRAW_CHOICES
from games.days import DRAWS, day_parse, day_today, month_parse
from games.models import DailyChallenge, Game
from leaderboard import selectors, services
from matches.selectors import player_ratings


class ParSerializer(serializers.Serializer[object]):
    moves = serializers.IntegerField(help_text="the fewest moves of a winning line found (R31)")
    exact = serializers.BooleanField(help_text='proved the fewest possible; else "<= moves"')


class BoardSerializer(serializers.Serializer[object]):
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    players = serializers.IntegerField(help_text="people on the board")
    bots = serializers.IntegerField(help_text="bots on the bots' board (R34)")
    code = serializers.CharField(allow_null=True, help_text="revealed once the day is over")
    par = ParSerializer(allow_null=True, help_text="R31, once the day is over")


class DailyOutSerializer(serializers.Serializer[object]):
    date = serializers.DateField()
    ends_at = serializers.DateTimeField()
    boards = BoardSerializer(many=True)


class DailyMonthOutSerializer(serializers.Serializer[object]):
    month = serializers.CharField(help_text="YYYY-MM")
    previous = serializers.CharField(
        allow_null=True, help_text="the nearest earlier month with a daily (YYYY-MM), or null"
    )
    next = serializers.CharField(
        allow_null=True, help_text="the nearest later month with a daily, up to today's, or null"
    )
    days = DailyOutSerializer(
        many=True, help_text="the month's days with a daily up to today, oldest first"
    )


DAILY_ANSWER = PolymorphicProxySerializer(
    component_name="DailyAnswer",
    serializers=[DailyOutSerializer, DailyMonthOutSerializer],
    resource_type_field_name=None,
)


class EntrySerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField(
        allow_null=True, help_text="null in the provisional section (R36): never ranked"
    )
    player = serializers.CharField()
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    game = serializers.UUIDField()
    bot = serializers.BooleanField(help_text="a bot's entry (R34): on the bots' board only")
    home = serializers.IntegerField(
        help_text="cards on the game's foundations, the base card included (0..52)"
    )
    provisional = serializers.BooleanField(
        help_text="an account not in good standing (R36): listed apart (`?section=provisional`)"
    )


class LeaderboardOutSerializer(serializers.Serializer[object]):
    date = serializers.DateField()
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    par = ParSerializer(allow_null=True, help_text="R31, once the day is over")
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EntrySerializer(many=True)


class RatingSerializer(serializers.Serializer[object]):
    rating = serializers.IntegerField(help_text="1500 + 20 (mu - 3 sigma) (R33)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="fewer than 10 matches")


class PlayerOutSerializer(serializers.Serializer[object]):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="a bot (R34)")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    best_score = serializers.IntegerField(allow_null=True)
    best_win_seconds = serializers.FloatField(allow_null=True)
    best_win_moves = serializers.IntegerField(allow_null=True)
    daily_streak = serializers.IntegerField()
    ratings = serializers.DictField(
        child=RatingSerializer(),
        help_text='the match ratings (R33) by "size-draw" ("2-3", "4-1", ...), each mode played',
    )


class StreakSerializer(serializers.Serializer[object]):
    current = serializers.IntegerField(
        help_text="consecutive days with a finished ranked daily, up to today or yesterday"
    )
    best = serializers.IntegerField(help_text="the longest such run ever")


class HeatDaySerializer(serializers.Serializer[object]):
    date = serializers.DateField()
    played = serializers.IntegerField(help_text="finished ranked dailies that day (1 or 2)")
    won = serializers.IntegerField()


class StatsWeekSerializer(serializers.Serializer[object]):
    week = serializers.DateField(help_text="its Monday (daily time zone)")
    games = serializers.IntegerField(help_text="games that count, ended that week")
    wins = serializers.IntegerField()
    win_rate = serializers.IntegerField(allow_null=True, help_text="whole percent; null: no game")


class ParPointSerializer(serializers.Serializer[object]):
    date = serializers.DateField()
    draw = serializers.ChoiceField(choices=DRAW_CHOICES)
    moves = serializers.IntegerField()
    par = serializers.IntegerField(help_text="the day's par (R31)")
    over = serializers.IntegerField(help_text="moves - par (0 or more when par is exact)")


class PlayerStatsOutSerializer(serializers.Serializer[object]):
    username = serializers.CharField()
    streak = StreakSerializer()
    days = HeatDaySerializer(
        many=True,
        help_text=f"the days of the last {selectors.HEAT_DAYS} with a finished ranked daily",
    )
    weeks = StatsWeekSerializer(
        many=True, help_text=f"the last {selectors.CHART_WEEKS} weeks, oldest first"
    )
    par = ParPointSerializer(
        many=True, help_text="won dailies of days that are over and have a par, oldest first"
    )


DATE = OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="YYYY-MM-DD")


class BoardQuerySerializer(PageQuerySerializer):
    draw = serializers.ChoiceField(
        choices=DRAW_CHOICES,
        required=False,
        default=3,
        error_messages={"invalid_choice": gettext_lazy("draw must be 3 or 1.")},
    )
    players = serializers.ChoiceField(
        choices=selectors.POPULATIONS,
        required=False,
        default="people",
        help_text="whose board: people's, or bots' (R34); each ranked among itself",
        error_messages={"invalid_choice": gettext_lazy("players must be people or bots.")},
    )
    section = serializers.ChoiceField(
        choices=selectors.SECTIONS,
        required=False,
        default="ranked",
        help_text="the ranks, or the provisional entries (R36): listed apart, never ranked",
        error_messages={"invalid_choice": gettext_lazy("section must be ranked or provisional.")},
    )


def parse_date(text: str) -> dt.date:
    day = day_parse(text)
    if day is None:
        raise InvalidRequest(_("%s is not a date: expected YYYY-MM-DD.") % repr(text[:20]))
    return day


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
        raise NotFound(
            _("There is no %(draw)s-card daily challenge on %(date)s.")
            % {"draw": draw, "date": date.isoformat()}
        )
    return challenge


@extend_schema_field(OpenApiTypes.STR)
class MonthField(serializers.Field):  # type: ignore[type-arg]
    """A `YYYY-MM` month, as its first day (any text refused in these words, "" too)."""

    def to_internal_value(self, data: Any) -> dt.date:
        month = month_parse(str(data))
        if month is None:
            message = _("%s is not a month: expected YYYY-MM.") % repr(str(data)[:20])
            raise serializers.ValidationError(message, code=WORDED)
        return month


class DailyQuerySerializer(serializers.Serializer[object]):
    """The query `GET daily` takes."""

    month = MonthField(
        required=False, help_text="YYYY-MM: that month's dailies (the archive) instead of today's"
    )


class DailyTodayApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[DailyQuerySerializer],
        responses=answers({200: DAILY_ANSWER}, 400, 401, 404),
        summary=(
            "Today's daily challenge: its boards (codes revealed after the day); with `month`, "
            "that month's days"
        ),
        operation_id="daily_today",
    )
    def get(self, request: Request) -> Response:
        month = query_read(request, DailyQuerySerializer).get("month")
        today = day_today()
        if month is None:
            challenges_of_day(today)
            return Response(selectors.daily_info(date=today, now=timezone.now()))
        if month > today:
            shown = month.isoformat()[:7]
            raise NotFound(_("There is no daily challenge in %(month)s yet.") % {"month": shown})
        if month == today.replace(day=1):
            challenges_of_day(today)
        return Response(selectors.daily_month(month=month, now=timezone.now()))


class DailyDayApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[DATE],
        responses=answers({200: DailyOutSerializer}, 400, 401, 404),
        summary="One day's daily challenge",
        operation_id="daily_get",
    )
    def get(self, request: Request, date: str) -> Response:
        day = parse_date(date)
        if day > day_today():
            raise NotFound(
                _("There is no daily challenge on %(date)s yet.") % {"date": day.isoformat()}
            )
        challenges_of_day(day)
        return Response(selectors.daily_info(date=day, now=timezone.now()))


class LeaderboardApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        parameters=[DATE, BoardQuerySerializer],
        responses=answers({200: LeaderboardOutSerializer}, 400, 401, 404),
        summary=(
            f"A day's board ({selectors.PAGE_SIZE} a page by default): score desc, moves, "
            "seconds, then who got there first; live"
        ),
        operation_id="daily_leaderboard",
    )
    def get(self, request: Request, date: str) -> Response:
        query = query_read(request, BoardQuerySerializer)
        day = parse_date(date)
        draw, bots = query["draw"], query["players"] == "bots"
        provisional = query["section"] == "provisional"
        page, size = page_params(query, default_size=selectors.PAGE_SIZE)
        challenge = challenge_for(day, draw)
        # R36: the provisional entries are a list of their own, never among the ranks.
        count_of = selectors.provisional_count if provisional else selectors.board_count
        page_of = selectors.provisional_page if provisional else selectors.board_page
        count = count_of(challenge=challenge, bots=bots)
        links = page_links(request, page=page, size=size, count=count)
        results = page_of(challenge=challenge, page=page, size=size, now=timezone.now(), bots=bots)
        par = selectors.challenge_par(challenge, timezone.now())
        return Response(
            {"date": day.isoformat(), "draw": draw, "par": par, **links, "results": results}
        )


class PlayerApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        responses=answers({200: PlayerOutSerializer}, 401, 404),
        summary="A player's figures and current daily streak",
        operation_id="players_get",
    )
    def get(self, request: Request, username: str) -> Response:
        body = selectors.player_stats(username=username, now=timezone.now())
        player = get_user_model().objects.get(username=body["username"])
        body["ratings"] = player_ratings(user=player)
        return Response(body)


class PlayerStatsApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        responses=answers({200: PlayerStatsOutSerializer}, 401, 404),
        summary="A player's daily streak (current, best) and history: heat map days, weeks, par",
        operation_id="players_stats",
    )
    def get(self, request: Request, username: str) -> Response:
        player = selectors.player_find(username=username)
        return Response(selectors.player_history_stats(player=player, now=timezone.now()))
