"""The match deal pool (R32, R29): CF2 deals from MATCH_SECRET that the solver proved winnable,
made ahead by `manage.py fill_match_deals`; joining takes one and never solves."""

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from games.engine import Action, DealCode
from games.engine import Game as EngineGame
from matches import deals, services
from matches.models import MatchDeal

# Under this secret, deal 2 of draw 3 is unwinnable (the solver proves it): the pool skips it.
SECRET = "dev-only-insecure-match-secret-do-not-use-in-production"


@override_settings(MATCH_SECRET=SECRET)
def test_the_scheduler_fills_the_pool_with_proved_winnable_deals_only(db):
    call_command("fill_match_deals", size=3, seconds=5)

    pool = list(MatchDeal.objects.filter(draw=3).order_by("index"))
    assert [deal.index for deal in pool] == [0, 1, 3]
    assert MatchDeal.objects.filter(draw=1, used_at=None).count() == 3
    for deal in MatchDeal.objects.all():
        code = DealCode.parse(deal.deal_code)
        assert deal.deal_code == str(deals.match_deal_code(deal.draw, deal.index))
        assert code.version == 2 and code.draw == deal.draw
        game = EngineGame.deal(code.number, ruleset="app", draw=code.draw, version=2)
        for action in deal.line:
            game.apply(Action.from_dict(action))
        assert game.status == "won"  # R29: the stored line wins, replayed through the engine
    # a second run adds nothing: the pool is full
    call_command("fill_match_deals", size=3, seconds=5)
    assert MatchDeal.objects.count() == 6


def test_deals_depend_on_the_secret_and_differ_from_the_dailies(settings):
    settings.MATCH_SECRET = "one-secret-" + "x" * 50
    first = deals.match_deal_code(3, 0)
    settings.MATCH_SECRET = "another-secret-" + "x" * 50
    assert deals.match_deal_code(3, 0) != first
    assert deals.match_deal_code(3, 0) != deals.match_deal_code(3, 1) != deals.match_deal_code(1, 0)
    settings.MATCH_SECRET = ""
    with pytest.raises(deals.NoMatchSecret):
        deals.match_deal_code(3, 0)


def test_without_a_secret_joining_answers_503_and_the_command_fails(db, settings, players, pool):
    settings.MATCH_SECRET = ""
    ((_, client),) = players(1)
    answer = client.post("/api/v1/matches", {"size": 2}, format="json")
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"
    with pytest.raises(CommandError):
        call_command("fill_match_deals", size=1)


def test_opening_a_match_takes_a_pool_deal_in_order(pool, make_user):
    made = pool(3)
    match = services.match_join(player=make_user("anna"), size=2, draw=3, address_hash="a").match
    assert match.deal_id == made[0].pk
    made[0].refresh_from_db()
    assert made[0].used_at is not None
