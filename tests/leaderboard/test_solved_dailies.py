"""R29 (dailies are deals the solver won, created ahead) and R31 (par, shown after the day)."""

import datetime as dt

import pytest
import time_machine
from django.core.management import call_command

from games.days import day_deal
from games.engine import Action, Game
from games.models import DailyChallenge
from games.solver import solve
from leaderboard import services

DAY = dt.date(2026, 11, 29)
# Under this DAILY_SECRET, attempts 0 and 1 of this day's draw-3 deal are unwinnable.
SECRET = "solver-test-secret"
SKIPPED_DAY = dt.date(2027, 1, 3)


def replayed(challenge: DailyChallenge) -> Game:
    code = day_deal(challenge.date, challenge.draw, challenge.attempt)
    game = Game.deal(code.number, ruleset="app", draw=challenge.draw, version=2)
    for action in challenge.line:
        game.apply(Action.from_dict(action))
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("draw", [3, 1])
def test_a_challenge_is_a_deal_the_solver_won_with_its_line_and_par(draw):
    challenge = services.challenge_get_or_create(date=DAY, draw=draw)
    assert challenge.deal_code == str(day_deal(DAY, draw, challenge.attempt))
    game = replayed(challenge)
    assert game.status == "won"
    assert challenge.par == game.moves == len(challenge.line) and not challenge.par_exact


@pytest.mark.django_db
def test_attempts_skip_deals_without_a_winning_line(settings):
    settings.DAILY_SECRET = SECRET
    challenge = services.challenge_get_or_create(date=SKIPPED_DAY, draw=3)
    assert challenge.attempt >= 2
    for attempt in range(challenge.attempt):
        skipped = day_deal(SKIPPED_DAY, 3, attempt)
        game = Game.deal(skipped.number, draw=3, version=2)
        assert solve(game, seconds=3).verdict != "won"
    assert challenge.deal_code == str(day_deal(SKIPPED_DAY, 3, challenge.attempt))
    assert replayed(challenge).status == "won"


@pytest.mark.django_db
def test_command_creates_days_ahead_once_and_is_cheap_after(django_assert_max_num_queries):
    with time_machine.travel(dt.datetime(2026, 11, 25, 8, tzinfo=dt.UTC), tick=False):
        call_command("create_daily_challenges", "--days", "3")
        days = sorted(DailyChallenge.objects.values_list("date", "draw"))
        assert days == [(DAY - dt.timedelta(days=4 - i // 2), (1, 3)[i % 2]) for i in range(6)]
        assert all(c.par and c.line for c in DailyChallenge.objects.all())
        with django_assert_max_num_queries(1):
            call_command("create_daily_challenges", "--days", "3")
        assert DailyChallenge.objects.count() == 6


@pytest.mark.django_db
def test_par_is_shown_only_once_the_day_is_over(api_client):
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC), tick=False) as clock:
        boards = api_client.get("/api/v1/daily").json()["boards"]
        assert [board["par"] for board in boards] == [None, None]
        board = api_client.get(f"/api/v1/daily/{DAY}/leaderboard?draw=3").json()
        assert board["par"] is None
        clock.move_to(dt.datetime(2026, 11, 30, 0, 1, tzinfo=dt.UTC))
        pars = {c.draw: c.par for c in DailyChallenge.objects.filter(date=DAY)}
        boards = api_client.get(f"/api/v1/daily/{DAY}").json()["boards"]
        assert {b["draw"]: b["par"] for b in boards} == {
            draw: {"moves": par, "exact": False} for draw, par in pars.items()
        }
        board = api_client.get(f"/api/v1/daily/{DAY}/leaderboard?draw=1").json()
        assert board["par"] == {"moves": pars[1], "exact": False}


@pytest.mark.django_db
def test_challenges_from_before_the_solver_have_no_par(api_client):
    DailyChallenge.objects.create(
        date=DAY,
        draw=3,
        deal_code="CF1-D3-AAAAACL",
        ends_at=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
    )
    with time_machine.travel(dt.datetime(2026, 12, 1, tzinfo=dt.UTC), tick=False):
        board = api_client.get(f"/api/v1/daily/{DAY}/leaderboard?draw=3").json()
    assert board["par"] is None
