"""Matchmaking's rules (R32, R34), one join at a time: the nearest rating within a distance that
widens with the match's age, never with an account of a shared address that day, not the same
opponent twice in a row when another match fits, bots with bots only."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from accounts.identity import account_bot_declare
from core.errors import Forbidden
from games.models import Game
from games.services import game_act, game_create
from matches import services
from matches.models import MatchDeal, Rating

HASH = {name: f"{i + 1:064x}" for i, name in enumerate("abcdefghij")}


def rate(user, rating: int, size: int = 2, draw: int = 3) -> None:
    Rating.objects.create(
        player=user, size=size, draw=draw, mu=25, sigma=8, rating=rating, matches=5,
        updated_at=timezone.now(),
    )  # fmt: skip


def join(user, name, size=2, draw=3):
    match, created, _ = services.match_join(
        player=user, size=size, draw=draw, address_hash=HASH[name]
    )
    assert created
    return match


def test_a_joiner_sits_with_the_nearest_rating_and_far_ones_wait_for_the_window(pool, make_user):
    pool(10)
    low, high, mid, far = (make_user(name) for name in ("low", "high", "mid", "far"))
    rate(low, 1500), rate(high, 1700), rate(mid, 1640), rate(far, 3200)
    low_match, high_match = join(low, "a"), join(high, "b")
    assert low_match.pk != high_match.pk  # 200 apart: beyond the window of a new match
    # the nearest open match within the window
    assert join(mid, "c").pk == high_match.pk
    # 1700 from the open one: a match of its own, until the window has widened enough
    far_match = join(far, "d")
    assert far_match.pk != low_match.pk
    late = make_user("late")
    rate(late, 1500 + 150 + 20 * 30)  # 750 from low: fits once low's match is 30 minutes old
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=31)):
        assert join(late, "e").pk == low_match.pk


def test_accounts_that_shared_an_address_that_day_never_meet(pool, make_user):
    pool(10)
    anna, bob, carl = make_user("anna"), make_user("bob"), make_user("carl")
    # bob played from anna's address today (a practice game), then joins from his own
    game_create(owner=bob, address_hash=HASH["a"])
    first = join(anna, "a")
    assert join(bob, "b").pk != first.pk
    assert join(carl, "c").pk == first.pk


def test_not_the_same_opponent_twice_in_a_row_when_another_match_fits(pool, make_user):
    pool(10)
    anna, bob, carl = make_user("anna"), make_user("bob"), make_user("carl")
    duel = join(anna, "a")
    assert join(bob, "b").pk == duel.pk
    for user in (anna, bob):
        game_act(
            game=user.games.get(match_seat__match=duel),
            user=user,
            action={"type": "resign"},
            expect=None,
        )
    # anna opens a new duel; carl opens another (anna's is taken by nobody yet)...
    second = join(anna, "a")
    third_for_carl = join(carl, "c")
    assert third_for_carl.pk == second.pk
    # ...bob now finds only carl's-and-anna's full match: a new one
    assert join(bob, "b").pk not in (duel.pk, second.pk)


def test_bob_meets_anna_again_when_no_other_match_fits(pool, make_user):
    pool(10)
    anna, bob = make_user("anna"), make_user("bob")
    duel = join(anna, "a")
    join(bob, "b")
    for user in (anna, bob):
        game_act(
            game=user.games.get(match_seat__match=duel),
            user=user,
            action={"type": "resign"},
            expect=None,
        )
    again = join(anna, "a")
    assert join(bob, "b").pk == again.pk


def test_bots_play_bots_only(pool, make_user):
    pool(10)
    robot, person, other_robot = make_user("robot"), make_user("person"), make_user("robot2")
    account_bot_declare(user=robot)
    account_bot_declare(user=other_robot)
    bots_match = join(robot, "a")
    people_match = join(person, "b")
    assert people_match.pk != bots_match.pk and bots_match.bot and not people_match.bot
    assert join(other_robot, "c").pk == bots_match.pk
    # a match game is a ranked game: no bot declaration after it
    late = make_user("late")
    join(late, "d")
    with pytest.raises(Forbidden):
        account_bot_declare(user=late)


def test_four_seats_fill_in_turn_and_the_full_match_takes_nobody(pool, make_user):
    pool(10)
    users = [make_user(f"u{i}") for i in range(5)]
    matches = [join(user, name, size=4) for user, name in zip(users, "abcde", strict=True)]
    assert len({m.pk for m in matches[:4]}) == 1 and matches[4].pk != matches[0].pk
    matches[0].refresh_from_db()
    assert matches[0].full and matches[0].seats == 4


def test_an_empty_pool_deals_a_solved_deal_on_the_spot_and_says_so(make_user, caplog):
    # given: no deal in the pool (the scheduler fell behind)
    anna, bob = make_user("anna"), make_user("bob")
    # when: anna joins, then bob
    with caplog.at_level("WARNING", logger="matches.services"):
        first = join(anna, "a")
    second = join(bob, "b")
    # then: a deal solved for anna's match, marked used, and bob seated with her on it
    assert [record.getMessage() for record in caplog.records] == ["match_pool_empty"]
    deal = MatchDeal.objects.get()
    assert deal.used_at is not None and deal.line
    assert first.deal_id == deal.pk and second.pk == first.pk
    assert set(Game.objects.values_list("deal_code", flat=True)) == {deal.deal_code}
