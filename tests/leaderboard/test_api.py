import datetime as dt
import importlib
import json

import pytest
import time_machine
from django.apps import apps as django_apps
from django.conf import settings
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

from games import streams
from games.days import day_deal
from games.engine import DealCode, shuffled_deck
from games.models import DailyChallenge, Game
from games.services import game_create
from leaderboard import boards, selectors, services
from leaderboard.models import Entry
from leaderboard.services import entries_disqualify
from tests.conftest import requires_postgres, requires_redis
from tests.leaderboard.conftest import NOON

GAMES = "/api/v1/games"
TODAY = "2026-11-29"
BOARD = f"/api/v1/daily/{TODAY}/leaderboard"
NEXT_DAY = NOON + dt.timedelta(days=1)


def daily(client, draw=None):
    body = {"daily": True} if draw is None else {"daily": True, "draw": draw}
    return client.post(GAMES, body, format="json")


def act(client, game_id, body):
    response = client.post(f"{GAMES}/{game_id}/actions", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


# ---- daily games -------------------------------------------------------------------------------


def test_daily_game_is_created_once_then_returned(noon, auth_client, user):
    first = daily(auth_client)
    again = daily(auth_client)
    one_card = daily(auth_client, draw=1)

    assert first.status_code == 201 and again.status_code == 200 and one_card.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    game = first.json()
    assert game["daily"] == {"date": TODAY, "review": None} and game["code"] is None
    assert game["ruleset"] == "app" and game["draw"] == 3 and one_card.json()["draw"] == 1
    stored = Game.objects.get(pk=game["id"])
    assert stored.deal_code == str(day_deal(dt.date(2026, 11, 29), 3, stored.challenge.attempt))
    assert stored.deal_code.startswith("CF2-D3-") and not stored.practice
    assert Entry.objects.filter(player=user).count() == 2


def test_everyone_gets_the_same_deal(noon, make_user, client_for):
    alice = daily(client_for(make_user("alice"))).json()
    bob = daily(client_for(make_user("bob"))).json()

    assert alice["id"] != bob["id"]
    assert alice["tableau"] == bob["tableau"] and alice["reserve"] == bob["reserve"]


def test_daily_game_and_its_log_are_hidden_until_the_day_is_over(
    noon, auth_client, make_user, client_for
):
    # given a daily game resigned during the day
    game = daily(auth_client).json()
    act(auth_client, game["id"], {"type": "draw"})
    act(auth_client, game["id"], {"type": "resign"})
    other = client_for(make_user("bob"))

    # then others cannot see it, its log or its text while the day lasts
    for path in ("", "/actions", "/text"):
        assert other.get(f"{GAMES}/{game['id']}{path}").status_code == 404
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["code"] is None

    # and everyone can, with the code, once the day is over
    noon.move_to(NEXT_DAY)
    shown = other.get(f"{GAMES}/{game['id']}")
    assert shown.status_code == 200
    assert shown.json()["code"].startswith("CF2-D3-")
    assert len(other.get(f"{GAMES}/{game['id']}/actions").json()) == 2


def test_actions_update_the_board_until_the_day_ends(noon, auth_client, api_client):
    game = daily(auth_client).json()
    act(auth_client, game["id"], {"type": "draw"})
    noon.shift(30)
    act(auth_client, game["id"], {"type": "draw"})

    entry = api_client.get(BOARD).json()["results"][0]
    assert (entry["moves"], entry["status"], entry["game"]) == (2, "playing", game["id"])
    assert entry["seconds"] == 30.0

    # when the player tries to go on after the day ends
    noon.move_to(NEXT_DAY)
    refused = auth_client.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")

    # then the game is over (R26a) and the board keeps the figures and the time of the end of
    # the day
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    entry = api_client.get(BOARD).json()["results"][0]
    assert entry["moves"] == 2
    assert entry["seconds"] == 12 * 3600.0


def test_the_board_says_how_many_cards_each_game_has_home(noon, auth_client, api_client):
    # given a daily game played greedily: a card to a foundation whenever one goes, else a draw
    game = daily(auth_client, draw=1).json()
    url = f"{GAMES}/{game['id']}"
    for _ in range(60):
        legal = auth_client.get(f"{url}/legal-actions").json()
        up = [a for a in legal if a["type"] == "move" and a["to"].startswith("foundation")]
        step = up[0] if up else next(a for a in legal if a["type"] in ("draw", "recycle"))
        state = act(auth_client, game["id"], step)["game"]
    home = sum(foundation["count"] for foundation in state["foundations"])

    # when the board is read, then its entry counts the foundations' cards, base card included
    entry = api_client.get(f"{BOARD}?draw=1").json()["results"][0]
    assert entry["home"] == home >= 1

    # and so it stays once the game has ended (the live batch's ENTRY too)
    act(auth_client, game["id"], {"type": "resign"})
    entry = api_client.get(f"{BOARD}?draw=1").json()["results"][0]
    assert (entry["status"], entry["home"]) == ("resigned", home)
    batch, _removed = selectors.board_changes(
        challenge=Entry.objects.get(game_id=game["id"]).challenge,
        games=[game["id"]],
        now=NOON,
    )
    assert batch[0]["home"] == home


def test_the_migration_fills_home_of_existing_entries_from_their_games(noon, auth_client):
    # given an entry of a fresh daily game (its base card home) whose count was lost
    game = daily(auth_client, draw=1).json()
    entry = Entry.objects.get(game_id=game["id"])
    Entry.objects.filter(pk=entry.pk).update(home=0)
    expected = sum(f["count"] for f in game["foundations"])

    # when the migration's filling step runs
    migration = importlib.import_module("leaderboard.migrations.0011_entry_home")
    migration.fill_home(django_apps, None)

    # then the entry counts its game's foundation cards again
    assert Entry.objects.get(pk=entry.pk).home == expected == 1


# ---- daily info --------------------------------------------------------------------------------


def test_daily_info_reveals_the_codes_only_after_the_day(noon, auth_client, api_client):
    daily(auth_client)

    today = api_client.get("/api/v1/daily").json()
    assert today == {
        "date": TODAY,
        "ends_at": "2026-11-30T00:00:00Z",
        "boards": [
            {"draw": 3, "players": 1, "bots": 0, "code": None, "par": None},
            {"draw": 1, "players": 0, "bots": 0, "code": None, "par": None},
        ],
    }

    noon.move_to(NEXT_DAY)
    past = api_client.get(f"/api/v1/daily/{TODAY}").json()
    day = dt.date(2026, 11, 29)
    attempts = dict(DailyChallenge.objects.filter(date=day).values_list("draw", "attempt"))
    assert [board["code"] for board in past["boards"]] == [
        str(day_deal(day, 3, attempts[3])),
        str(day_deal(day, 1, attempts[1])),
    ]
    assert api_client.get("/api/v1/daily").json()["date"] == "2026-11-30"


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/v1/daily/2026-13-01", 400, "invalid_request"),
        ("/api/v1/daily/yesterday", 400, "invalid_request"),
        ("/api/v1/daily/2026-11-30", 404, "not_found"),
        ("/api/v1/daily/2026-11-01", 404, "not_found"),
        (f"{BOARD}?draw=2", 400, "invalid_request"),
        (f"{BOARD}?draw=", 400, "invalid_request"),
        (f"{BOARD}?page=0", 400, "invalid_request"),
        (f"{BOARD}?page=x", 400, "invalid_request"),
        (f"{BOARD}?page=2", 404, "not_found"),
        ("/api/v1/daily/2026-11-30/leaderboard", 404, "not_found"),
        ("/api/v1/daily/2026-11-28/leaderboard?draw=1", 404, "not_found"),
        ("/api/v1/players/nobody", 404, "not_found"),
    ],
)
def test_bad_input_gets_a_clear_4xx(noon, db, api_client, path, status, code):
    response = api_client.get(path)

    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_create_daily_challenges_command_pre_creates_days(noon, db):
    call_command("create_daily_challenges", "--start", "2026-12-01", "--days", "3")
    call_command("create_daily_challenges", "--start", "2026-12-02", "--days", "3")

    days = sorted({c.date.isoformat() for c in DailyChallenge.objects.all()})
    assert days == ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"]
    assert DailyChallenge.objects.count() == 8
    challenge = DailyChallenge.objects.get(date=dt.date(2026, 12, 2), draw=1)
    assert challenge.deal_code == str(day_deal(dt.date(2026, 12, 2), 1))
    assert challenge.attempt == 0
    assert challenge.ends_at == dt.datetime(2026, 12, 3, tzinfo=dt.UTC)


# ---- leaderboard -------------------------------------------------------------------------------


def test_leaderboard_pages_link_each_other_with_ranks_across_pages(noon, player_entry, api_client):
    for i in range(120):
        player_entry(f"p{i:03}", score=i % 7, moves=i)

    first = api_client.get(BOARD).json()
    second = api_client.get(first["next"]).json()
    third = api_client.get(second["next"]).json()

    assert (first["count"], first["date"], first["draw"]) == (120, TODAY, 3)
    assert first["previous"] is None and third["next"] is None
    assert api_client.get(third["previous"]).json() == second
    assert "page" not in second["previous"]
    everyone = first["results"] + second["results"] + third["results"]
    assert [e["rank"] for e in everyone] == list(range(1, 121))
    figures = [(-e["score"], e["moves"]) for e in everyone]
    assert figures == sorted(figures)
    assert len(third["results"]) == 20


def test_leaderboard_is_per_draw_mode(noon, player_entry, api_client):
    player_entry("three", draw=3)
    player_entry("one", draw=1)

    assert [e["player"] for e in api_client.get(f"{BOARD}?draw=1").json()["results"]] == ["one"]
    assert [e["player"] for e in api_client.get(BOARD).json()["results"]] == ["three"]


# ---- players -----------------------------------------------------------------------------------


def test_player_figures_count_random_and_daily_games_never_practice_games(
    noon, auth_client, user, api_client
):
    def finished(game, *, status, score, moves, seconds):
        Game.objects.filter(pk=game.pk).update(
            status=status,
            score=score,
            moves=moves,
            finished_at=game.created_at + dt.timedelta(seconds=seconds),
        )

    # given a won and a resigned random game, a resigned daily game...
    finished(game_create(owner=user), status="won", score=255, moves=90, seconds=300)
    finished(game_create(owner=user, draw=1), status="resigned", score=100, moves=10, seconds=9)
    daily_game = Game.objects.get(pk=daily_ended(auth_client)["id"])
    finished(daily_game, status="resigned", score=40, moves=30, seconds=50)
    # ...and practice games (R19) from a code and from a deck that would beat every figure
    code_game = game_create(owner=user, code=DealCode.parse("CF1-D3-AAAAACL"))
    finished(code_game, status="won", score=255, moves=60, seconds=0.64)
    deck_game = game_create(owner=user, deck=shuffled_deck(9))
    finished(deck_game, status="won", score=255, moves=52, seconds=1)
    game_create(owner=user, code=DealCode.parse("CF2-D1-AAAAAAAAAAAAAAAAAAAADVXTIV"))
    # ...and a random game won with the solver's hints (R30)
    hinted = game_create(owner=user)
    finished(hinted, status="won", score=255, moves=70, seconds=40)
    Game.objects.filter(pk=hinted.pk).update(hints=70)

    stats = api_client.get(f"/api/v1/players/{user.username}").json()

    assert stats == {
        "username": "alice",
        "bot": False,
        "games": 3,
        "wins": 1,
        "best_score": 255,
        "best_win_seconds": 300.0,
        "best_win_moves": 90,
        "daily_streak": 1,
        "ratings": {},  # no match played (R33)
    }
    assert Game.objects.filter(owner=user, practice=True).count() == 3


def daily_ended(client, draw=None):
    """A daily game, ended by its player at once (a finished ranked daily: the streak's)."""
    game = daily(client, draw).json()
    act(client, game["id"], {"type": "resign"})
    return game


def test_daily_streak_counts_consecutive_days_back_from_today(auth_client, user, api_client):
    def streak():
        return api_client.get(f"/api/v1/players/{user.username}").json()["daily_streak"]

    start = dt.datetime(2026, 11, 20, 9, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False) as traveller:
        daily_ended(auth_client)  # 20th
        for day in (22, 23, 24):  # a gap on the 21st
            traveller.move_to(start.replace(day=day))
            daily_ended(auth_client, draw=1)
            daily_ended(auth_client)  # both modes on one day count once
        assert streak() == 3

        # the streak lives on through the next day until a daily is finished: one started
        # does not count yet
        traveller.move_to(start.replace(day=25, hour=23))
        assert streak() == 3
        game = daily(auth_client).json()
        assert streak() == 3
        act(auth_client, game["id"], {"type": "resign"})
        assert streak() == 4

        # ...and ends once a whole day passes without a daily game
        traveller.move_to(start.replace(day=27))
        assert streak() == 0


# ---- live publishing ---------------------------------------------------------------------------


def test_an_action_marks_its_entry_for_the_next_live_batch_after_commit(
    noon, auth_client, django_capture_on_commit_callbacks
):
    game = daily(auth_client).json()
    store = boards.store()
    challenge = DailyChallenge.objects.get(draw=3)
    store.changed_take(challenge.pk, tick=1)  # the game's creation
    store.published(challenge.pk, 1)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        act(auth_client, game["id"], {"type": "draw"})
    # nothing is marked before the commit
    assert store.changed_take(challenge.pk, tick=2) == []
    # the board's mark (and on SQLite the wake-up of the game's streams: on PostgreSQL only a
    # game a stream marked has one, games/streams.py); each wrapped by core.commits.after_commit,
    # `__wrapped__` is what it runs
    [mark] = [c for c in callbacks if c.__wrapped__.func is not streams.game_changed]
    assert len(callbacks) == (1 if connection.vendor == "postgresql" else 2)
    mark()

    assert store.changed_take(challenge.pk, tick=3) == [game["id"]]
    store.published(challenge.pk, 3)
    assert store.changed_take(challenge.pk, tick=4) == []


@requires_postgres
def test_a_ranked_action_is_one_statement_with_its_entry_on_postgresql(noon, auth_client):
    game = daily(auth_client).json()
    act(auth_client, game["id"], {"type": "draw"})  # the challenge is known from here on

    with CaptureQueriesContext(connection) as queries:
        act(auth_client, game["id"], {"type": "draw"})

    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(writes) == 1, writes
    assert "ranked_entry AS (UPDATE" in writes[0]
    assert not any("leaderboard_dailychallenge" in q["sql"] for q in queries)
    entry = Entry.objects.get(game_id=game["id"])
    assert (entry.moves, entry.reached_at) == (2, NOON)


@requires_redis
def test_no_batch_is_made_while_the_last_one_is_being_published(
    noon, auth_client, django_capture_on_commit_callbacks
):
    # given a process that took the board's changes and has not published them yet
    game = daily(auth_client).json()
    challenge = DailyChallenge.objects.get(draw=3)
    store, other_process = boards.store(), boards.RedisBoards(settings.REDIS_URL)
    with django_capture_on_commit_callbacks(execute=True):
        act(auth_client, game["id"], {"type": "draw"})
    assert store.changed_take(challenge.pk, tick=1) == [game["id"]]
    with django_capture_on_commit_callbacks(execute=True):
        act(auth_client, game["id"], {"type": "draw"})

    # then no process makes the next batch (its number would reach listeners first)...
    assert other_process.changed_take(challenge.pk, tick=2) is None
    assert store.changed_take(challenge.pk, tick=3) is None
    # (another tick's publisher does not let the board go)
    other_process.published(challenge.pk, 2)
    assert store.changed_take(challenge.pk, tick=5) is None
    # ...until that one is out: the change waited for the next tick
    store.published(challenge.pk, 1)
    assert other_process.changed_take(challenge.pk, tick=6) == [game["id"]]


def test_changes_a_tick_could_not_read_go_into_the_next_batch(
    noon, auth_client, monkeypatch, django_capture_on_commit_callbacks
):
    # given a daily game's creation and first draw, waiting for the board's next batch
    with django_capture_on_commit_callbacks(execute=True):
        game = daily(auth_client).json()
        act(auth_client, game["id"], {"type": "draw"})
    challenge = DailyChallenge.objects.get(draw=3)

    # when the tick that takes them cannot read the database
    def database_down(**kwargs):
        raise OperationalError("the database is down")

    with monkeypatch.context() as patch:
        patch.setattr(selectors, "board_changes", database_down)
        with pytest.raises(OperationalError):
            services.board_tick(challenge=challenge, tick=1001)

    # then the next tick publishes them
    batch = services.board_tick(challenge=challenge, tick=1002)
    assert batch is not None
    entries = json.loads(batch[1][-1])["entries"]
    assert [(e["player"], e["moves"], e["game"]) for e in entries] == [("alice", 1, game["id"])]


def test_a_rejected_action_publishes_nothing(noon, auth_client, django_capture_on_commit_callbacks):
    game = daily(auth_client).json()

    with django_capture_on_commit_callbacks() as callbacks:
        response = auth_client.post(
            f"{GAMES}/{game['id']}/actions", {"type": "recycle"}, format="json"
        )

    assert response.status_code == 422
    assert callbacks == []


def test_a_finished_daily_game_shows_its_standing_on_the_board(
    noon, auth_client, make_user, client_for
):
    # given: bob has drawn once on today's board; alice plays twice, then resigns
    bob = client_for(make_user("bob"))
    act(bob, daily(bob).json()["id"], {"type": "draw"})
    game = daily(auth_client).json()
    assert game["daily"] == {"date": TODAY, "review": None}  # in progress: no standing yet
    act(auth_client, game["id"], {"type": "draw"})
    act(auth_client, game["id"], {"type": "draw"})

    # when
    resigned = act(auth_client, game["id"], {"type": "resign"})["game"]

    # then: the finished game carries its rank among the board's players, as the board ranks it
    board = {e["player"]: e["rank"] for e in auth_client.get(f"{BOARD}?draw=3").json()["results"]}
    assert resigned["daily"] == {
        "date": TODAY,
        "rank": board["alice"],
        "players": 2,
        "review": None,
    }
    assert board == {"bob": 1, "alice": 2}  # same score, fewer moves first
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["daily"]["rank"] == 2


def test_a_disqualified_game_shows_no_standing(noon, auth_client, make_user):
    game = daily(auth_client).json()
    act(auth_client, game["id"], {"type": "resign"})

    entries_disqualify(entries=Entry.objects.filter(game_id=game["id"]), by=make_user("admin"))

    assert auth_client.get(f"{GAMES}/{game['id']}").json()["daily"] == {
        "date": TODAY,
        "review": None,
    }


def test_a_challenge_dealt_before_cf2_keeps_its_cf1_deal(noon, auth_client, api_client):
    # given today's challenge as the migration leaves one created before CF2: a CF1 code and
    # no attempt
    DailyChallenge.objects.create(
        date=dt.date(2026, 11, 29),
        draw=3,
        deal_code="CF1-D3-AAAAACL",
        attempt=None,
        ends_at=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
    )

    game = daily(auth_client).json()
    act(auth_client, game["id"], {"type": "resign"})

    deck = shuffled_deck(75)
    assert game["reserve"]["top"] == deck[12] and game["tableau"] == [[c] for c in deck[14:18]]
    noon.move_to(NEXT_DAY)
    boards = api_client.get(f"/api/v1/daily/{TODAY}").json()["boards"]
    assert boards[0]["code"] == "CF1-D3-AAAAACL"
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["code"] == "CF1-D3-AAAAACL"
