"""The archive of past dailies (`GET daily?month=`) and a player's streak and history
(`GET players/{username}/stats`), on dailies written on fixed dates under a frozen clock."""

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import DealCode
from games.models import Game
from games.services import game_create
from leaderboard import selectors
from leaderboard.models import Entry
from tests.leaderboard.conftest import NOON
from tests.leaderboard.dailies import challenge_on, daily_finished

pytestmark = pytest.mark.django_db

DAILY = "/api/v1/daily"
DAY = dt.date(2026, 11, 29)


def day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def test_a_month_lists_its_days_with_codes_only_once_each_day_is_over(noon, make_user, api_client):
    # given: October's last day, two November days with both boards (a player on the 27th, a
    # par on the 28th), and today's 3-card board played (today is 2026-11-29)
    alice, bob = make_user("alice"), make_user("bob")
    challenge_on(day("2026-10-31"))
    daily_finished(alice, day("2026-11-27"))
    challenge_on(day("2026-11-27"), draw=1)
    challenge_on(day("2026-11-28"), par=88)
    challenge_on(day("2026-11-28"), draw=1)
    daily_finished(bob, DAY)

    # when
    november = api_client.get(DAILY, {"month": "2026-11"})
    october = api_client.get(DAILY, {"month": "2026-10"})

    # then: the days oldest first, both boards (3 first), codes and par of the days over only
    assert november.status_code == 200, november.json()
    body = november.json()
    assert (body["month"], body["previous"], body["next"]) == ("2026-11", "2026-10", None)
    assert [entry["date"] for entry in body["days"]] == ["2026-11-27", "2026-11-28", "2026-11-29"]
    first, second, today = body["days"]
    assert [board["draw"] for board in first["boards"]] == [3, 1]
    assert first["boards"][0]["players"] == 1 and first["boards"][1]["players"] == 0
    assert first["boards"][0]["code"].startswith("CF2-D3-") and first["ends_at"].endswith("Z")
    assert second["boards"][0]["par"] == {"moves": 88, "exact": True}
    # today's deal is never shown: both boards exist (made on demand), without code or par
    assert [(b["draw"], b["code"], b["par"]) for b in today["boards"]] == [
        (3, None, None),
        (1, None, None),
    ]
    assert today["boards"][0]["players"] == 1
    assert october.json()["next"] == "2026-11" and october.json()["previous"] is None
    assert [entry["date"] for entry in october.json()["days"]] == ["2026-10-31"]


def test_a_day_listed_in_its_month_is_the_day_the_api_answers(noon, make_user, api_client):
    # given a past day with a player
    daily_finished(make_user("alice"), day("2026-11-20"))

    # when
    month = api_client.get(DAILY, {"month": "2026-11"}).json()
    one = api_client.get(f"{DAILY}/2026-11-20").json()

    # then: the same figures as the day's own answer
    assert month["days"][0] == one


def test_without_a_month_the_answer_is_todays_as_before(noon, api_client):
    body = api_client.get(DAILY).json()

    assert set(body) == {"date", "ends_at", "boards"} and body["date"] == "2026-11-29"


@pytest.mark.parametrize("month", ["2026-13", "2026-1", "11-2026", "2026-11-01", "x" * 40, ""])
def test_a_month_that_is_not_yyyy_mm_is_refused_in_the_callers_language(noon, api_client, month):
    english = api_client.get(DAILY, {"month": month})
    hungarian = api_client.get(DAILY, {"month": month}, HTTP_ACCEPT_LANGUAGE="hu")

    assert english.status_code == 400 and hungarian.status_code == 400
    assert english.json()["error"]["code"] == "invalid_request"
    assert "expected YYYY-MM" in english.json()["error"]["message"]
    assert hungarian.json()["error"]["message"] != english.json()["error"]["message"]


def test_a_month_after_todays_is_not_found(noon, api_client):
    response = api_client.get(DAILY, {"month": "2026-12"})

    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_streak_counts_days_of_the_daily_time_zone(make_user, api_client, settings):
    # given: the dailies run on UTC+14, where noon UTC on the 29th is already the 30th
    settings.DAILY_TIME_ZONE = "Pacific/Kiritimati"
    alice = make_user("alice")
    with time_machine.travel(NOON, tick=False):
        # a run of four days in early November (the best), a gap, then the 28th, the 29th and
        # the 30th of the zone (today there; "tomorrow" in UTC), both boards on the 29th
        for date in ("2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"):
            daily_finished(alice, day(date), status="resigned", moves=30)
        daily_finished(alice, day("2026-11-28"), moves=100, par=90)
        daily_finished(alice, day("2026-11-29"), status="resigned", moves=50)
        daily_finished(alice, day("2026-11-29"), draw=1, moves=120, par=120)
        daily_finished(alice, day("2026-11-30"), moves=95, par=80)
        # ...and dailies that do not count: one the day's end stopped, one disqualified
        stopped = daily_finished(alice, day("2026-11-26"), status="resigned")
        Entry.objects.filter(pk=stopped.pk).update(ended_at=None)
        banned = daily_finished(alice, day("2026-11-25"))
        Entry.objects.filter(pk=banned.pk).update(disqualified=True)

        # when
        stats = api_client.get("/api/v1/players/ALICE/stats")

    # then: three days running up to today in the zone; four at best
    assert stats.status_code == 200, stats.json()
    body = stats.json()
    assert body["username"] == "alice"
    assert body["streak"] == {"current": 3, "best": 4}
    assert body["days"][-3:] == [
        {"date": "2026-11-28", "played": 1, "won": 1},
        {"date": "2026-11-29", "played": 2, "won": 1},
        {"date": "2026-11-30", "played": 1, "won": 1},
    ]
    assert len(body["days"]) == 7
    # moves against par: the won dailies of days that are over (not today's, R31)
    assert body["par"] == [
        {"date": "2026-11-28", "draw": 3, "moves": 100, "par": 90, "over": 10},
        {"date": "2026-11-29", "draw": 1, "moves": 120, "par": 120, "over": 0},
    ]


def test_streak_lives_through_today_and_ends_after_a_day_missed(make_user):
    alice = make_user("alice")
    for date in ("2026-11-26", "2026-11-27", "2026-11-28"):
        daily_finished(alice, day(date))

    def streak(at: dt.datetime) -> selectors.Streak:
        with time_machine.travel(at, tick=False):
            return selectors.player_streak(player=alice)

    assert streak(NOON - dt.timedelta(days=1)) == selectors.Streak(current=3, best=3)
    assert streak(NOON) == selectors.Streak(current=3, best=3)  # today not played yet
    assert streak(NOON + dt.timedelta(days=1)) == selectors.Streak(current=0, best=3)


def test_weeks_give_the_win_rate_of_the_games_that_count(noon, make_user, api_client):
    # given: this week two random games won and one ended, last week one ended; a practice
    # game won this week (does not count)
    alice = make_user("alice")
    outcomes = [("won", 0), ("won", 1), ("resigned", 2), ("resigned", 7)]
    for status, days_ago in outcomes:
        game = game_create(owner=alice)
        Game.objects.filter(pk=game.pk).update(
            status=status, moves=40, finished_at=NOON - dt.timedelta(days=days_ago)
        )
    practice = game_create(owner=alice, code=DealCode.parse("CF1-D3-AAAAACL"))
    Game.objects.filter(pk=practice.pk).update(status="won", moves=40, finished_at=NOON)

    # when
    weeks = api_client.get("/api/v1/players/alice/stats").json()["weeks"]

    # then: 26 weeks, Monday first, the last this week (2026-11-23)
    assert len(weeks) == selectors.CHART_WEEKS
    assert weeks[-1] == {"week": "2026-11-23", "games": 3, "wins": 2, "win_rate": 67}
    assert weeks[-2] == {"week": "2026-11-16", "games": 1, "wins": 0, "win_rate": 0}
    assert weeks[0] == {"week": "2026-06-01", "games": 0, "wins": 0, "win_rate": None}


def test_stats_take_the_same_few_queries_for_a_year_of_dailies(noon, make_user):
    # given a player with a daily finished on each of 120 days
    alice = make_user("alice")
    for back in range(120):
        daily_finished(alice, DAY - dt.timedelta(days=back))

    # when
    with CaptureQueriesContext(connection) as queries:
        stats = selectors.player_history_stats(player=alice, now=NOON)

    # then: one query for the dailies, one for the weeks
    assert len(queries) == 2, [query["sql"] for query in queries]
    assert stats["streak"] == {"current": 120, "best": 120} and len(stats["days"]) == 120


def test_stats_of_a_guest_or_nobody_are_not_found(noon, api_client):
    response = api_client.get("/api/v1/players/nobody/stats")

    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
