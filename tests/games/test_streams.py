"""Streams and exports (docs/api.md "Streams and exports"): a game's NDJSON stream against a real
ASGI server (uvicorn in a subprocess, tests/conftest.py; with REDIS_URL its wake-ups go through
Redis), and a player's finished public games, as pages and as NDJSON."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from django.db import connection
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone
from rest_framework.test import APIClient

from games import services, streams
from games.models import Game
from games.streams import IDLE_SECONDS
from tests.games.helpers import StreamLines, easy_deck, winning_actions
from tests.web.helpers import PASSWORD, unique_name


def _register(client: httpx.Client) -> dict[str, str]:
    name = unique_name("stream")
    answer = client.post("/api/v1/auth/register", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Token {answer.json()['token']}"}


def test_a_stream_sends_each_action_before_a_keep_alive_and_ends_with_the_game(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        owner = _register(client)
        game = client.post("/api/v1/games", json={"deck": easy_deck(), "draw": 1}, headers=owner)
        game_id = game.json()["id"]
        path = f"/api/v1/games/{game_id}/stream"

        # others never see a game in progress, not even as a stream
        stranger = _register(client)
        assert client.get(path, headers=stranger).status_code == 404
        assert client.get(path).json()["error"]["code"] == "not_found"

        lines = StreamLines(client, path, {**owner, "Accept": "application/x-ndjson"})
        ((_, first),) = lines.wait(1)
        assert json.loads(first) == {"type": "game", "game": json.loads(first)["game"]}
        assert json.loads(first)["game"]["moves"] == 0
        assert lines.status == 200
        assert lines.headers["content-type"] == "application/x-ndjson"
        assert lines.headers["x-accel-buffering"] == "no"

        # when: two actions, each one acted on after the previous line arrived; then each line
        # comes on the action's wake-up: within half a keep-alive (a deadline, not a duration),
        # before the stream's timed check (every IDLE_SECONDS) could have found the action
        for n, action in enumerate(winning_actions()[:2], start=1):
            acted = client.post(f"/api/v1/games/{game_id}/actions", json=action, headers=owner)
            assert acted.status_code == 200, acted.text
            _, line = lines.wait(1 + n, timeout=IDLE_SECONDS / 2)[-1]
            event = json.loads(line)
            assert event["type"] == "action" and event["action"] == acted.json()["action"]
            assert event["game"]["moves"] == n == acted.json()["game"]["moves"]

        # then the game ends: its last action and the `end` line, and the stream closes
        client.post(f"/api/v1/games/{game_id}/actions", json={"type": "resign"}, headers=owner)
        *_, (_, resigned), (_, end), (_, closed) = lines.wait(6)
        assert json.loads(resigned)["action"]["type"] == "resign"
        assert json.loads(end)["type"] == "end" and json.loads(end)["game"]["status"] == "resigned"
        assert closed == b"<closed>"
        lines.thread.join(5)

        # a finished public game: anyone's stream is its game (with the log) and its end at once
        replay = client.get(path).text.splitlines()
        assert [json.loads(line)["type"] for line in replay] == ["game", "end"]
        assert len(json.loads(replay[0])["game"]["actions"]) == 3


def test_an_action_whose_wake_up_was_lost_reaches_its_stream_within_a_keep_alive(
    base_url,
    run_on_server,
):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: an open stream
        owner = _register(client)
        game = client.post("/api/v1/games", json={"deck": easy_deck(), "draw": 1}, headers=owner)
        game_id = game.json()["id"]
        path = f"/api/v1/games/{game_id}/stream"
        lines = StreamLines(client, path, {**owner, "Accept": "application/x-ndjson"})
        lines.wait(1)

        # when: an action is stored and its wake-up never published (as when the publish fails)
        run_on_server(
            "from games import services; from games.models import Game; "
            "services.game_changed = lambda game_id: None; "
            f"game = Game.objects.get(pk={game_id!r}); "
            f"services.game_act(game=game, user=game.owner, action={winning_actions()[0]!r}, "
            "expect=None)"
        )

        # then: the process's timed check finds the game moved on, and the line comes (after
        # keep-alives, perhaps)
        def kinds() -> list[str]:
            return [json.loads(line)["type"] for _, line in lines.received[1:] if line]

        with lines.arrived:
            assert lines.arrived.wait_for(lambda: kinds() == ["action"], timeout=12), kinds()


def test_an_action_wakes_the_streams_of_its_game_only_while_a_stream_marks_it(
    user, django_capture_on_commit_callbacks
):
    game = services.game_create(owner=user)

    def wakes() -> bool:
        """Whether a draw in `game` publishes its streams' wake-up once committed."""
        with django_capture_on_commit_callbacks() as callbacks:
            services.game_act(
                game=Game.objects.get(pk=game.pk), user=user, action={"type": "draw"}, expect=None
            )
        return [c.__wrapped__.func for c in callbacks] == [streams.game_changed]

    # on PostgreSQL: no stream, no wake-up (other databases: every action wakes, no mark read)
    on_postgresql = connection.vendor == "postgresql"
    assert wakes() is not on_postgresql
    # a stream's process renews the marks of the games it streams (its timed check), on the
    # database's clock: a mark lasts MARK_SECONDS, and is rewritten only past its half
    streams._check(set(), {str(game.pk)})
    marked = Game.objects.annotate(lasts=F("streamed_until") - Now()).get(pk=game.pk)
    mark = dt.timedelta(seconds=streams.MARK_SECONDS)
    assert mark / 2 < marked.lasts <= mark
    streams._check(set(), {str(game.pk)})
    assert Game.objects.get(pk=game.pk).streamed_until == marked.streamed_until
    assert wakes()
    half_spent = Now() + mark / 2 - dt.timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(streamed_until=half_spent)
    streams._check(set(), {str(game.pk)})
    renewed = Game.objects.annotate(lasts=F("streamed_until") - Now()).get(pk=game.pk)
    assert mark / 2 < renewed.lasts <= mark
    # a mark that lapsed (its stream's process gone) wakes nothing again
    Game.objects.filter(pk=game.pk).update(streamed_until=Now() - dt.timedelta(seconds=1))
    assert wakes() is not on_postgresql
    # a finished game is not marked
    services.game_act(
        game=Game.objects.get(pk=game.pk), user=user, action={"type": "resign"}, expect=None
    )
    streams._check(set(), {str(game.pk)})
    assert Game.objects.get(pk=game.pk).streamed_until < timezone.now()


def _finish(game: Game, status: str) -> None:
    Game.objects.filter(pk=game.pk).update(status=status, finished_at=game.created_at)


def test_a_players_finished_public_games_as_pages_and_as_ndjson(user, django_user_model):
    # given: two finished games, one in progress, and a daily game whose day is not over
    won, resigned = (services.game_create(owner=user) for _ in range(2))
    _finish(won, "won")
    _finish(resigned, "resigned")
    services.game_create(owner=user)
    from leaderboard import services as boards

    daily, _ = boards.daily_game_get_or_create(player=user, draw=3)
    _finish(daily, "resigned")
    client = APIClient()
    path = f"/api/v1/players/{user.username.upper()}/games"

    # when
    page = client.get(path)
    only_won = client.get(path, {"status": "won"})
    ndjson = client.get(path, HTTP_ACCEPT="application/x-ndjson")
    bad = client.get(path, {"status": "playing"}, HTTP_ACCEPT_LANGUAGE="en")
    nobody = client.get("/api/v1/players/no-such-one/games")

    # then
    assert page.status_code == 200 and page.json()["count"] == 2
    assert [g["id"] for g in page.json()["results"]] == [str(resigned.pk), str(won.pk)]
    assert [g["id"] for g in only_won.json()["results"]] == [str(won.pk)]
    assert ndjson.status_code == 200 and ndjson["Content-Type"] == "application/x-ndjson"
    lines = b"".join(ndjson.streaming_content).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [str(resigned.pk), str(won.pk)]
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_request"
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/v1/players/{name}", "/api/v1/players/{name}/games"])
def test_usernames_match_without_regard_to_case(user, path):
    answer = APIClient().get(path.format(name=user.username.swapcase()))

    assert answer.status_code == 200
