"""The identity links of the fair-play review (R35, R35a): the device cookie and its hash, a
device-linked forward scout, a history of ending just before the winner's wins, private OAuth
apps, provisional accounts' games (R36), and strangers, who link to nobody."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model

from core.clients import DEVICE_COOKIE, DEVICE_COOKIE_SECONDS
from fairplay import services, signals
from fairplay.models import Review
from games import services as game_services
from games.days import day_today
from games.engine import Action, DealCode
from games.models import DailyChallenge, Game
from games.solver import solve
from leaderboard import services as board_services
from leaderboard.models import Entry
from tests.fairplay.test_review import act, cycle

DEVICE = "d" * 64


def old_account(make_user, name: str, days: int = 60):
    """An account that signed up long ago (no sign-up link to anyone made today)."""
    user = make_user(name)
    get_user_model().objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - dt.timedelta(days=days)
    )
    return get_user_model().objects.get(pk=user.pk)


def forward_scout(user, *, address: str, device: str = "") -> Game:
    """The user's daily: draws through the whole stock (never an undo), then resigns."""
    game, _ = board_services.daily_game_get_or_create(
        player=user, draw=3, address_hash=address, device_hash=device
    )
    game = cycle(user, game, 12)  # 34 stock cards, 3 a draw
    return act(user, game, "resign")


def champion(user, *, address: str, device: str = "", planned: bool = False) -> Game:
    """The user's daily, won along the solver's line (R29), or, `planned`, along the line
    foresight's first plan finds (the day's line comes from a search the clock limits, so on a
    loaded machine it may be another winning line)."""
    game, _ = board_services.daily_game_get_or_create(
        player=user, draw=3, address_hash=address, device_hash=device
    )
    line = [action.as_dict() for action in foresight_plan(game)] if planned else None
    for action in line or game.challenge.line:
        move = dict(action)
        game = act(user, game, move.pop("type"), **move)
    assert game.status == "won"
    return Game.objects.select_related("owner", "challenge").get(pk=game.pk)


def foresight_plan(game: Game) -> tuple[Action, ...]:
    """The line foresight's first plan finds from the game's deal: within its node budget only."""
    deal = signals.dealt(services.game_logs([game])[game.pk])
    return solve(deal, seconds=600, max_nodes=signals.DEAL_NODES).line


def found(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    return [(other.owner.username, links) for other, links, _ in services.scout_candidates(game)]


def test_a_browser_gets_a_device_cookie_and_its_daily_stores_only_its_hash(make_user):
    # given: a browser opening a page, then signed in
    browser = Client()
    page = browser.get("/")
    cookie = page.cookies[DEVICE_COOKIE]
    browser.force_login(make_user("anna"))

    # when: it deals its daily through the API, with its session
    response = browser.post("/api/v1/games", {"daily": True}, content_type="application/json")

    # then: a long-lived HttpOnly, Lax cookie; the game keeps a keyed hash, never the value
    assert response.status_code == 201, response.content
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == DEVICE_COOKIE_SECONDS
    game = Game.objects.get(pk=response.json()["id"])
    assert len(game.device_hash) == 64 and cookie.value not in game.device_hash
    assert DEVICE_COOKIE not in response.cookies  # given once, kept by the browser


def test_an_api_client_without_cookies_gets_none_and_its_game_has_no_device(make_user, client_for):
    # when: a key-authenticated client deals a game
    response = client_for(make_user("bot")).post("/api/v1/games", {"draw": 3}, format="json")

    # then
    assert response.status_code == 201
    assert DEVICE_COOKIE not in response.cookies
    assert Game.objects.get(pk=response.json()["id"]).device_hash == ""


def test_a_device_linked_provisional_forward_scout_is_seen(make_user, settings):
    # given: a fresh account (provisional, R36) on the champion's browser but another address
    # draws through the deal's stock; then the champion (in standing) wins it
    settings.RANKED_MIN_AGE_HOURS = 24
    scout = make_user("scout")
    scouted = forward_scout(scout, address="a" * 64, device=DEVICE)
    champ = champion(old_account(make_user, "champ"), address="b" * 64, device=DEVICE, planned=True)

    # when
    review = services.review_run(Review.objects.select_related("game__owner").get(game=champ))

    # then: the scout's game is evidence, linked by the device alone, and the champion's
    # line used the stock cards it had seen before they showed (the second signal, R35a)
    assert Entry.objects.get(game=scouted).provisional
    scouting = review.signals["scouting"]
    assert scouting["score"] > 0
    assert scouting["evidence"]["label"] == str(scouted.pk)
    assert scouting["evidence"]["links"] == ["device"]
    assert review.signals["foresight"]["score"] >= 0.5


def test_a_stranger_who_ended_just_before_links_nobody(make_user):
    # given: a stranger (other address, other device, signed up long before the champion)
    # draws through the stock and ends just before the champion wins
    forward_scout(old_account(make_user, "stranger", 90), address="c" * 64, device="e" * 64)
    champ = champion(old_account(make_user, "champ"), address="b" * 64, device=DEVICE)

    # when
    review = services.review_run(Review.objects.select_related("game__owner").get(game=champ))

    # then
    assert found(champ) == []
    assert review.signals["scouting"]["score"] == 0.0
    assert review.signals["foresight"]["score"] == 0.0


def past_day(days_ago: int) -> DailyChallenge:
    """A past day's draw-3 challenge (its deal: any code; only the rows matter here)."""
    date = day_today() - dt.timedelta(days=days_ago)
    return DailyChallenge.objects.create(
        date=date,
        draw=3,
        deal_code=str(DealCode(days_ago, 3, version=2)),
        ends_at=timezone.now() - dt.timedelta(days=days_ago - 1),
    )


def past_game(user, challenge: DailyChallenge, *, started: dt.datetime, ended: dt.datetime, won):
    game = game_services.game_create(owner=user, draw=3, challenge=challenge)
    status = Game.Status.WON if won else Game.Status.RESIGNED
    Game.objects.filter(pk=game.pk).update(created_at=started, finished_at=ended, status=status)


def pattern(shadow, champ, days: int, *, gap: dt.timedelta = dt.timedelta(hours=1)) -> None:
    """On each of the `days` days before today, the shadow ends its daily `gap` before the
    champion starts the one it wins."""
    for days_ago in range(1, days + 1):
        challenge = past_day(days_ago)
        start = timezone.now() - dt.timedelta(days=days_ago)
        past_game(shadow, challenge, started=start - gap * 2, ended=start - gap, won=False)
        past_game(champ, challenge, started=start, ended=start + gap, won=True)


def today(make_user, *, days: int) -> tuple[Game, object]:
    """A shadow (no address, device or sign-up link) with `days` days of the pattern, whose
    game of today ended before the champion's; the champion's game of today, resigned."""
    shadow = old_account(make_user, "shadow", 90)
    champ = old_account(make_user, "champ")
    pattern(shadow, champ, days)
    forward_scout(shadow, address="c" * 64)
    game, _ = board_services.daily_game_get_or_create(player=champ, draw=3, address_hash="b" * 64)
    act(champ, game, "resign")
    return Game.objects.select_related("owner").get(pk=game.pk), shadow


def test_the_history_link_appears_after_three_days_of_the_pattern(make_user):
    # given: three days where the shadow ended just before the champion's win
    game, _ = today(make_user, days=3)

    # then
    assert found(game) == [("shadow", ("history: 3 days",))]


def test_one_day_near_in_time_is_no_history_link(make_user):
    # given: once (R35a: being near in time once is no evidence)
    game, _ = today(make_user, days=1)

    # then
    assert found(game) == []


def test_ending_long_before_the_wins_makes_no_history(make_user):
    # given: a shadow that ends 3 hours before each of the champion's wins
    shadow, champ = old_account(make_user, "shadow", 90), old_account(make_user, "champ")
    pattern(shadow, champ, 5, gap=dt.timedelta(hours=3))
    forward_scout(shadow, address="c" * 64)
    game, _ = board_services.daily_game_get_or_create(player=champ, draw=3)
    act(champ, game, "resign")

    # then
    assert found(Game.objects.select_related("owner").get(pk=game.pk)) == []


def test_the_scout_query_count_does_not_grow_with_the_history(make_user):
    def queries(game: Game) -> int:
        with CaptureQueriesContext(connection) as captured:
            services.scout_candidates(game)
        return len(captured)

    # given: a champion with 3 days of the pattern, then 25 more
    game, shadow = today(make_user, days=3)
    few = queries(game)
    for days_ago in range(4, 29):
        challenge = past_day(days_ago)
        start = timezone.now() - dt.timedelta(days=days_ago)
        past_game(shadow, challenge, started=start, ended=start + dt.timedelta(minutes=5), won=0)
        ended = start + dt.timedelta(hours=1)
        past_game(
            game.owner, challenge, started=start + dt.timedelta(minutes=30), ended=ended, won=1
        )

    # then: the same queries, a handful
    assert found(game) == [("shadow", ("history: 28 days",))]
    assert queries(game) == few <= 5


def oauth_app(creator, *users) -> None:
    """An OAuth app `creator` made, authorised by `users` (an access token each)."""
    app = get_application_model().objects.create(
        name=f"app of {creator.username}",
        user=creator,
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris="https://example.org/cb",
    )
    for n, user in enumerate(users):
        get_access_token_model().objects.create(
            user=user,
            application=app,
            token=f"{app.pk}-{n}",
            expires=timezone.now() + dt.timedelta(hours=1),
            scope="board:read",
        )


def test_a_private_oauth_app_links_its_creator_and_those_who_authorised_it(make_user):
    # given: the scout made an app the champion authorised; a published app of a developer,
    # authorised by the champion and many others, links nobody
    scout = old_account(make_user, "scout", 90)
    dev = old_account(make_user, "dev", 90)
    champ = old_account(make_user, "champ")
    oauth_app(scout, champ)
    oauth_app(dev, champ, *(old_account(make_user, f"user{n}", 90) for n in range(5)))
    for user in (scout, dev):
        forward_scout(user, address=f"{user.pk:064x}")
    game, _ = board_services.daily_game_get_or_create(player=champ, draw=3, address_hash="b" * 64)
    act(champ, game, "resign")

    # then
    assert found(Game.objects.select_related("owner").get(pk=game.pk)) == [
        ("scout", ("oauth app",))
    ]


def test_device_hashes_are_forgotten_with_the_address_hashes(make_user):
    # given: a game dealt 31 days ago from a browser, another today
    alice = make_user("alice")
    old = game_services.game_create(owner=alice, address_hash="a" * 64, device_hash=DEVICE)
    recent = game_services.game_create(owner=alice, address_hash="a" * 64, device_hash=DEVICE)
    Game.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=31))

    # when
    call_command("forget_addresses")

    # then
    assert Game.objects.filter(pk=old.pk, address_hash="", device_hash="").exists()
    assert Game.objects.filter(pk=recent.pk, device_hash=DEVICE).exists()
