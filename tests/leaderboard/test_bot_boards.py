"""Bots rank among bots only (R34): a bot's entry is on the day's bots' board (`?players=bots`,
over the API and the live board), never on the people's, and each board ranks its own."""

import json
import threading
import time
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection

from accounts.identity import account_bot_declare, player_is_bot
from canfield_site.asgi import application
from core.errors import Forbidden
from games import services as game_services
from games.days import day_today
from leaderboard import services
from leaderboard.models import Entry
from tests import net
from tests.conftest import requires_postgres, requires_redis
from tests.leaderboard.test_consumer import draw, next_message, open_socket
from tests.leaderboard.test_live_servers import (
    entries_until,
    listen,
    register,
    server_env,
    start_server,
    stopped,
)

GAMES = "/api/v1/games"
TODAY = "2026-11-29"
BOARD = f"/api/v1/daily/{TODAY}/leaderboard"


def daily_figures(client, *, moves: int) -> str:
    """The caller's 3-card daily game of today with `moves` draws made; its id."""
    game = client.post(GAMES, {"daily": True}, format="json").json()["id"]
    for _ in range(moves):
        response = client.post(f"{GAMES}/{game}/actions", {"type": "draw"}, format="json")
        assert response.status_code == 200
    return game


def test_a_bots_entry_ranks_among_bots_and_the_people_among_people(
    noon, make_user, client_for, api_client
):
    # given: two bots and a person on today's board, the person the weakest of the three
    bots = [client_for(make_user(name)) for name in ("robo", "droid")]
    for bot in bots:
        assert bot.post("/api/v1/account/bot").json()["bot"] is True
    daily_figures(bots[0], moves=1)
    droid_game = daily_figures(bots[1], moves=0)
    daily_figures(client_for(make_user("alice")), moves=2)

    # when
    people = api_client.get(BOARD).json()
    also_people = api_client.get(f"{BOARD}?players=people").json()
    robots = api_client.get(f"{BOARD}?players=bots").json()
    first_bot = api_client.get(f"{BOARD}?players=bots&page_size=1").json()
    info = api_client.get("/api/v1/daily").json()["boards"][0]

    # then: the people's board has the person alone, first
    assert people == also_people
    assert people["count"] == 1
    assert [(e["rank"], e["player"], e["bot"]) for e in people["results"]] == [(1, "alice", False)]
    # ...the bots' board its two bots, ranked among themselves
    assert robots["count"] == 2
    assert [(e["rank"], e["player"], e["bot"]) for e in robots["results"]] == [
        (1, "droid", True),
        (2, "robo", True),
    ]
    # ...its pages keep the population
    assert first_bot["count"] == 2 and [e["player"] for e in first_bot["results"]] == ["droid"]
    assert "players=bots" in first_bot["next"]
    assert info["draw"] == 3 and (info["players"], info["bots"]) == (1, 2)
    # and a finished bot game's standing is among bots
    response = bots[1].post(f"{GAMES}/{droid_game}/actions", {"type": "resign"}, format="json")
    assert response.json()["game"]["daily"] == {
        "date": TODAY,
        "rank": 1,
        "players": 2,
        "review": None,
    }
    assert Entry.objects.filter(bot=True).count() == 2


def test_player_figures_say_whether_the_player_is_a_bot(noon, make_user, client_for, api_client):
    robo = client_for(make_user("robo"))
    robo.post("/api/v1/account/bot")
    make_user("alice")

    assert api_client.get("/api/v1/players/robo").json()["bot"] is True
    assert api_client.get("/api/v1/players/alice").json()["bot"] is False


@pytest.mark.parametrize("players", ["robots", "BOTS", "", "people,bots"])
def test_a_board_of_no_known_population_is_a_bad_request(noon, api_client, db, players):
    response = api_client.get(f"{BOARD}?players={players}")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


async def batch_with(socket, player: str, moves: int) -> dict:
    """The first message on `socket` whose entries show `player` at `moves` (the earlier ones,
    such as the batch of the players' joining, are passed over)."""
    for _ in range(20):
        message = await next_message(socket)
        if any((e["player"], e["moves"]) == (player, moves) for e in message.get("entries", [])):
            return message
    raise AssertionError(f"no batch with {player} at {moves} moves")


@pytest.mark.django_db(transaction=True)
def test_the_live_boards_of_people_and_bots_each_carry_their_own(make_user, client_for):
    # given: a bot and a person with today's games, a listener on each board
    today = day_today().isoformat()
    robo, alice = make_user("robo"), make_user("alice")
    assert client_for(robo).post("/api/v1/account/bot").status_code == 200
    robo_game, _ = services.daily_game_get_or_create(player=robo, draw=3)
    alice_game, _ = services.daily_game_get_or_create(player=alice, draw=3)

    async def scenario():
        people = await open_socket(f"/ws/daily/{today}/3/")
        bots = await open_socket(f"/ws/daily/{today}/3/?players=bots")
        snapshots = [await next_message(people), await next_message(bots)]
        # when: the bot draws, then the person (their joining may still come first, as a
        # batch of its own, if no tick fell since: the batch awaited is the one of the draw)
        await draw(robo, robo_game.pk)
        to_bots = await batch_with(bots, "robo", moves=1)
        await draw(alice, alice_game.pk)
        to_people = await batch_with(people, "alice", moves=1)
        # then: neither board hears of the other's player
        quiet = await bots.receive_nothing(timeout=1.5, interval=0.05)
        # when: the bot is disqualified, its board says so
        await database_sync_to_async(services.entries_disqualify)(
            entries=Entry.objects.filter(game=robo_game), by=None
        )
        removed = await next_message(bots)
        for socket in (people, bots):
            await socket.disconnect()
        return snapshots, to_bots, to_people, quiet, removed

    snapshots, to_bots, to_people, quiet, removed = async_to_sync(scenario)()

    people_snapshot, bots_snapshot = snapshots
    assert [(e["rank"], e["player"], e["bot"]) for e in people_snapshot["results"]] == [
        (1, "alice", False)
    ]
    assert [(e["rank"], e["player"], e["bot"]) for e in bots_snapshot["results"]] == [
        (1, "robo", True)
    ]
    assert to_bots["count"] == 1
    assert [(e["rank"], e["player"], e["moves"]) for e in to_bots["entries"]] == [(1, "robo", 1)]
    assert to_people["count"] == 1
    assert [(e["rank"], e["player"], e["moves"]) for e in to_people["entries"]] == [(1, "alice", 1)]
    assert quiet is True
    assert removed == {"type": "removed", "player": "robo"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("query", ["?players=robots", "?players=people&players=bots"])
def test_a_live_board_of_no_known_population_closes_with_4400(query):
    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/daily/{day_today()}/3/{query}")
        assert (await socket.connect())[0]
        message = await socket.receive_output(timeout=2)
        await socket.wait()
        return message

    message = async_to_sync(scenario)()

    assert message["type"] == "websocket.close" and message["code"] == 4400


@requires_postgres
@requires_redis
def test_a_real_server_ranks_the_bots_board_apart_in_redis(transactional_db, settings):
    # given: the production WebSocket server (PostgreSQL, Redis boards and channel layer)
    process, base = start_server(server_env(settings))
    try:
        today = day_today().isoformat()
        suffix = uuid.uuid4().hex[:6]
        robo = register(base, f"robo-{suffix}")
        assert robo.post("/account/bot").json()["bot"] is True
        alice = register(base, f"alice-{suffix}")
        robo_game = robo.post("/games", json={"daily": True}).json()["id"]
        alice_game = alice.post("/games", json={"daily": True}).json()["id"]

        with (
            listen(base, f"/ws/daily/{today}/3/?players=bots") as bots,
            listen(base, f"/ws/daily/{today}/3/") as people,
        ):
            bots_snapshot = json.loads(bots.recv(timeout=5))
            people_snapshot = json.loads(people.recv(timeout=5))
            # when: each draws once
            assert robo.post(f"/games/{robo_game}/actions", json={"type": "draw"}).is_success
            assert alice.post(f"/games/{alice_game}/actions", json={"type": "draw"}).is_success
            deadline = time.monotonic() + 5
            to_bots = entries_until(bots, deadline, lambda seen: robo_game in seen)
            to_people = entries_until(people, deadline, lambda seen: alice_game in seen)
        board = net.get(f"http://{base}/api/v1/daily/{today}/leaderboard?players=bots").json()
    finally:
        process.terminate()
        assert stopped(process)

    # then: each board has its own player first, counted in Redis
    assert [e["game"] for e in bots_snapshot["results"]] == [robo_game]
    assert [e["game"] for e in people_snapshot["results"]] == [alice_game]
    assert set(to_bots) == {robo_game} and to_bots[robo_game]["rank"] == 1
    assert set(to_people) == {alice_game} and to_people[alice_game]["rank"] == 1
    assert board["count"] == 1 and board["results"][0]["bot"] is True


@requires_postgres
def test_a_declaration_waits_for_a_ranked_game_being_made_then_is_refused(
    transactional_db, make_user, monkeypatch
):
    # given: robo's first ranked game being made, paused inside its transaction
    robo = make_user("robo")
    dealing, go_on = threading.Event(), threading.Event()
    deal = game_services.game_create

    def paused_deal(**options):
        dealing.set()
        go_on.wait(timeout=10)
        return deal(**options)

    monkeypatch.setattr(game_services, "game_create", paused_deal)
    services.challenge_get_or_create(date=day_today(), draw=3)
    declared: list[object] = []

    def make_game() -> None:
        try:
            services.daily_game_get_or_create(player=robo, draw=3)
        finally:
            connection.close()

    def declare() -> None:
        try:
            declared.append(account_bot_declare(user=robo))
        except Forbidden as refusal:
            declared.append(refusal)
        finally:
            connection.close()

    maker = threading.Thread(target=make_game)
    maker.start()
    assert dealing.wait(timeout=10)

    # when: robo declares itself a bot meanwhile
    declarer = threading.Thread(target=declare)
    declarer.start()
    # (it waits for the game's transaction: its query waits on a lock)
    with connection.cursor() as cursor:
        for _ in range(100):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                break
            time.sleep(0.05)
    go_on.set()
    maker.join(timeout=10)
    declarer.join(timeout=10)

    # then: the game was made for a person, and the late declaration refused (R34)
    assert Entry.objects.get(player=robo).bot is False
    assert len(declared) == 1 and isinstance(declared[0], Forbidden)
    assert declared[0].rule == "R34"
    assert not player_is_bot(user=robo)
