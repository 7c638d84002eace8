"""The fair-play review's Django side (R35): a ranked game's end queues its review, the
`review_games` command decides, a held game leaves the boards (API and live board) until staff
clear it (it returns) or disqualify it, and its owner alone sees `daily.review`.

The tests rely only on what fairplay/signals.py promises: a game of 60+ actions in under 3 s
is held, a log replayed verbatim by another account is held, a game paced like a person with
its own line is not. Action times are set by updating `Action.at`."""

from __future__ import annotations

import datetime as dt

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from accounts import events
from core import metrics
from fairplay import services
from fairplay.models import Review
from games import services as game_services
from games.days import day_today
from games.engine import Game as EngineGame
from games.models import Action, Game
from games.solver import solve
from leaderboard import services as board_services
from leaderboard.models import Entry
from tests.leaderboard.test_consumer import next_message, open_socket


def act(user, game: Game, kind: str, **action) -> Game:
    game = Game.objects.get(pk=game.pk)
    _, game, _ = game_services.game_act(
        game=game, user=user, action={"type": kind, **action}, expect=None
    )
    return game


def cycle(user, game: Game, actions: int) -> Game:
    """Draw (recycling when the stock is out) `actions` times: a line of its own."""
    for _ in range(actions):
        stock = EngineGame.from_dict(Game.objects.get(pk=game.pk).state).public_view()["stock"]
        game = act(user, game, "draw" if stock["count"] else "recycle")
    return game


def win(user, game: Game) -> Game:
    """The solver's winning line of the game's deal, sent action by action."""
    engine = EngineGame.from_dict(Game.objects.get(pk=game.pk).state)
    for action in solve(engine, seconds=30).line:
        move = {"from": action.src, "to": action.dst, "count": action.count}
        game = act(user, game, action.type, **(move if action.type == "move" else {}))
    return game


# 70 actions in 1.4 s: a machine's pace (R35's timing holds 60 actions in under 3 s).
MACHINE_GAP = 0.02


def pace(game: Game, gap: float) -> None:
    """Set the game's actions `gap` seconds apart from its creation (a person's pace), and its
    end at its last action."""
    game = Game.objects.get(pk=game.pk)
    last = game.created_at
    for row in Action.objects.filter(game=game).order_by("n"):
        last = game.created_at + dt.timedelta(seconds=gap * row.n)
        Action.objects.filter(pk=row.pk).update(at=last)
    Game.objects.filter(pk=game.pk).update(finished_at=last)
    Entry.objects.filter(game=game).update(ended_at=last, reached_at=last)


def ranked_game(user, actions: int, *, gap: float = MACHINE_GAP, draw: int = 3) -> Game:
    """The user's daily game: `actions` draws, then resigned, paced `gap` s apart (by default
    a machine's pace, set rather than read off the clock: on a loaded machine the test's own
    70 actions can take longer than the 3 s that R35's timing calls a machine's)."""
    game, _ = board_services.daily_game_get_or_create(player=user, draw=draw)
    game = cycle(user, game, actions)
    game = act(user, game, "resign")
    pace(game, gap)
    return Game.objects.get(pk=game.pk)


def review_games() -> None:
    """`manage.py review_games`, and what it writes to the live boards after its commit done
    (the test's transaction never commits). Every pending game is reviewed: the run's budget
    is wall time, which a loaded machine can spend on one review (a verdict's own budgets are
    node counts, so the time it takes changes no verdict)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("review_games", "--seconds", "3600", verbosity=0)


def state(game: Game) -> str:
    return Review.objects.get(game=game).state


def board(api_client, draw: int = 3) -> dict:
    response = api_client.get(f"/api/v1/daily/{day_today().isoformat()}/leaderboard?draw={draw}")
    assert response.status_code == 200
    return response.json()


def test_a_ranked_game_is_queued_when_it_ends_and_only_then(make_user):
    alice = make_user("alice")
    game, _ = board_services.daily_game_get_or_create(player=alice, draw=3)
    cycle(alice, game, 3)
    practice = game_services.game_create(owner=alice, draw=3)
    act(alice, practice, "resign")

    assert not Review.objects.exists()  # in progress, and a random game is never reviewed

    act(alice, game, "resign")

    review = Review.objects.get()
    assert (review.game_id, review.state, review.score) == (game.pk, "pending", None)
    assert review.queued_at == Game.objects.get(pk=game.pk).finished_at


def test_the_command_holds_machine_speed_play_and_clears_a_person_paced_own_line(
    make_user, api_client
):
    bot, person = make_user("speedy"), make_user("person")
    fast = ranked_game(bot, 70)  # machine speed
    slow = ranked_game(person, 70, gap=4.0, draw=1)  # another deal: a line of its own

    review_games()

    assert (state(fast), state(slow)) == ("held", "clean")
    held = Review.objects.get(game=fast)
    assert held.score is not None and held.reviewed_at is not None
    assert set(held.signals) == {
        "timing", "identical", "clairvoyance", "scouting", "foresight", "surprise"
    }  # fmt: skip
    assert held.signals["timing"]["score"] > 0
    assert Entry.objects.get(game=fast).review == "held"
    assert Entry.objects.get(game=slow).review is None
    assert board(api_client)["count"] == 0
    assert board(api_client)["results"] == []
    listed = board(api_client, draw=1)
    assert (listed["count"], [e["player"] for e in listed["results"]]) == (1, ["person"])
    daily = api_client.get("/api/v1/daily").json()
    assert {b["draw"]: b["players"] for b in daily["boards"]} == {3: 0, 1: 1}


def test_the_command_is_idempotent_and_keeps_within_its_budget(make_user):
    for name, draw in (("ann", 3), ("ben", 1)):
        ranked_game(make_user(name), 2, gap=5.0, draw=draw)

    call_command("review_games", "--seconds", "0.000001", verbosity=0)
    assert Review.objects.filter(state="pending").count() == 1  # one game, then out of time
    review_games()
    review_games()

    assert sorted(Review.objects.values_list("state", flat=True)) == ["clean", "clean"]


def test_a_log_replayed_verbatim_by_another_account_is_held_the_original_is_not(make_user):
    alice, copycat = make_user("alice"), make_user("copycat")
    original, _ = board_services.daily_game_get_or_create(player=alice, draw=3)
    # A won game: a short lost game's line is no evidence of copying (two people who play a
    # deal's obvious moves and lose often keep the same one: IDENTICAL_MIN).
    original = win(alice, original)
    assert original.status == "won"
    pace(original, 3.0)
    copy, _ = board_services.daily_game_get_or_create(player=copycat, draw=3)
    for row in Action.objects.filter(game=original).order_by("n"):
        fields = {"from": row.from_pile, "to": row.to_pile, "count": row.count}
        act(copycat, copy, row.type, **(fields if row.type == "move" else {}))
    pace(copy, 3.5)  # paced like a person; it ends after the original

    review_games()

    assert (state(original), state(copy)) == ("clean", "held")
    evidence = Review.objects.get(game=copy).signals["identical"]
    assert evidence["score"] > 0 and evidence["evidence"]["label"] == str(original.pk)


def test_daily_review_is_shown_to_the_owner_only(make_user, client_for, time_machine):
    bot, other = make_user("speedy"), make_user("other")
    game = ranked_game(bot, 70)
    owner_view = client_for(bot).get(f"/api/v1/games/{game.pk}").json()["daily"]
    assert owner_view["review"] is None and owner_view["rank"] == 1

    review_games()

    assert client_for(bot).get(f"/api/v1/games/{game.pk}").json()["daily"] == {
        "date": day_today().isoformat(),
        "review": "held",
    }
    listed = client_for(bot).get("/api/v1/games?daily=true").json()["results"]
    assert [g["daily"]["review"] for g in listed] == ["held"]
    time_machine.move_to(game.challenge.ends_at + dt.timedelta(minutes=1))  # public now
    seen = client_for(other).get(f"/api/v1/games/{game.pk}")
    assert seen.status_code == 200
    assert seen.json()["daily"] == {"date": game.challenge.date.isoformat()}


def test_staff_clear_a_held_game_back_onto_the_board_or_disqualify_it(
    make_user, admin_user, api_client, client_for
):
    first, second = make_user("first"), make_user("second")
    cleared = ranked_game(first, 70)
    disqualified = ranked_game(second, 70)
    review_games()
    assert board(api_client)["count"] == 0

    with TestCase.captureOnCommitCallbacks(execute=True):
        services.reviews_clear(reviews=Review.objects.filter(game=cleared), by=admin_user)
        services.reviews_disqualify(reviews=Review.objects.filter(game=disqualified), by=admin_user)

    listed = board(api_client)
    assert (listed["count"], [e["player"] for e in listed["results"]]) == (1, ["first"])
    assert client_for(first).get(f"/api/v1/games/{cleared.pk}").json()["daily"] == {
        "date": day_today().isoformat(),
        "rank": 1,
        "players": 1,
        "review": "cleared",
    }
    assert Entry.objects.get(game=disqualified).disqualified
    assert [(r.state, r.decided_by) for r in Review.objects.order_by("game__owner__username")] == [
        ("cleared", admin_user),
        ("disqualified", admin_user),
    ]
    # a decided review is not decided again
    assert services.reviews_clear(reviews=Review.objects.all(), by=admin_user) == []
    # and each player's account events (accounts/events.py) told each decision, once
    decided = {
        user.username: [
            (e["data"]["game"], e["data"]["decision"])
            for e in events.events_after(user_id=user.pk, after=0)
            if e["type"] == "review_decided"
        ]
        for user in (first, second)
    }
    assert decided == {
        "first": [(str(cleared.pk), "held"), (str(cleared.pk), "cleared")],
        "second": [(str(disqualified.pk), "held"), (str(disqualified.pk), "disqualified")],
    }


@pytest.mark.django_db(transaction=True)
def test_a_held_game_leaves_the_live_board_and_returns_when_cleared(make_user, admin_user):
    today = day_today().isoformat()
    bot = make_user("speedy")
    game = ranked_game(bot, 70)

    async def scenario():
        socket = await open_socket(f"/ws/daily/{today}/3/")
        snapshot = await next_message(socket)
        while not await socket.receive_nothing(timeout=1.5, interval=0.05):
            await next_message(socket)  # the game's own batches, if no tick fell since
        await database_sync_to_async(review_games)()
        removed = await next_message(socket)
        await database_sync_to_async(services.reviews_clear)(
            reviews=Review.objects.filter(game=game), by=admin_user
        )
        back = await next_message(socket)
        await socket.disconnect()
        return snapshot, removed, back

    snapshot, removed, back = async_to_sync(scenario)()

    assert [e["player"] for e in snapshot["results"]] == ["speedy"]
    assert removed == {"type": "removed", "player": "speedy"}
    assert back["type"] == "entries" and back["count"] == 1
    assert [(e["player"], e["rank"]) for e in back["entries"]] == [("speedy", 1)]


def test_a_game_whose_review_fails_stays_queued_and_does_not_stop_the_others(
    make_user, monkeypatch
):
    broken = ranked_game(make_user("ann"), 2, gap=5.0)
    fine = ranked_game(make_user("ben"), 2, gap=5.0, draw=1)
    timing = services.signals.timing

    def failing(log):
        if log.label == str(broken.pk):
            raise ValueError("a bug in a signal")
        return timing(log)

    monkeypatch.setattr(services.signals, "timing", failing)

    review_games()

    assert (state(broken), state(fine)) == ("pending", "clean")


def test_scouts_are_the_linked_accounts_games_of_the_deal_the_same_address_first(make_user):
    # given: a champion; a scout on the same address who signed up long before; an account
    # that signed up minutes apart from the champion; a stranger (old account, other address)
    # whose game ended long before; a neighbour (old account, other address) whose game
    # ended just before the champion's began
    names = ("champ", "scout", "twin", "stranger", "neighbour")
    users = {name: make_user(name) for name in names}
    now = timezone.now()
    for name, days in (("scout", 30), ("stranger", 60), ("neighbour", 90)):
        get_user_model().objects.filter(pk=users[name].pk).update(
            date_joined=now - dt.timedelta(days=days)
        )
    games = {}
    for name, address in (
        ("stranger", "b" * 64),
        ("neighbour", "d" * 64),
        ("scout", "a" * 64),
        ("twin", "c" * 64),
    ):
        games[name], _ = board_services.daily_game_get_or_create(
            player=users[name], draw=3, address_hash=address
        )
        act(users[name], games[name], "resign")
    Game.objects.filter(pk=games["stranger"].pk).update(finished_at=now - dt.timedelta(hours=5))
    champ, _ = board_services.daily_game_get_or_create(
        player=users["champ"], draw=3, address_hash="a" * 64
    )
    champ = act(users["champ"], champ, "resign")

    found = services.scout_candidates(Game.objects.select_related("owner").get(pk=champ.pk))

    # then: the identity links only; having played just before links nobody (R35a)
    assert [(other.owner.username, links) for other, links, _ in found] == [
        ("scout", ("address",)),
        ("twin", ("signed up 0 min apart",)),
    ]
    assert all(before >= 0 for _, _, before in found)  # both ended before the champion's game


def test_a_games_verdict_does_not_depend_on_its_place_in_the_queue(make_user):
    # given: a game reviewed alone at the head of the queue
    game = ranked_game(make_user("ann"), 40, gap=3.0)
    review_games()
    alone = Review.objects.get(game=game)

    # when: reviewed again behind other accounts' games (no link to ann: signed up long
    # before), in runs with a small budget
    for name, draw in (("ben", 1), ("cid", 3), ("dan", 1)):
        user = make_user(name)
        get_user_model().objects.filter(pk=user.pk).update(
            date_joined=timezone.now() - dt.timedelta(days=30)
        )
        ranked_game(user, 30, gap=3.0, draw=draw)
    Review.objects.exclude(game=game).update(queued_at=alone.queued_at - dt.timedelta(hours=1))
    Review.objects.filter(game=game).update(state="pending", score=None, signals=None)
    while Review.objects.filter(game=game, state="pending").exists():
        services.reviews_run(budget=0.000001)  # one game a run

    # then: the same signals, the same verdict
    again = Review.objects.get(game=game)
    assert (again.state, again.score, again.signals) == (alone.state, alone.score, alone.signals)


def test_the_review_queues_oldest_game_is_measured_for_the_metrics(make_user):
    # given: two ended ranked games, the first queued 10 minutes ago
    first = ranked_game(make_user("ann"), 2, gap=5.0)
    ranked_game(make_user("ben"), 2, gap=5.0, draw=1)
    Review.objects.filter(game=first).update(queued_at=timezone.now() - dt.timedelta(minutes=10))

    # when: a scrape
    text = generate_latest(metrics.scrape_registry(None)).decode()

    # then
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    assert samples[("canfield_queue_length", (("queue", "review"),))] == 2
    assert 600 <= samples[("canfield_queue_oldest_seconds", (("queue", "review"),))] < 660
