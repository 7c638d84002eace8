"""The game endpoints read the token's user and the game in one query
(accounts/authentication.py, games.selectors.token_user_and_game)."""

import pytest
from django.core import serializers
from django.db import close_old_connections, connection, connections
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import AccountEvent
from accounts.services import key_create, key_hash
from core.fields import json_text
from games import selectors, services
from games.models import Action, Game
from leaderboard import services as leaderboard_services
from tests.conftest import requires_postgres
from tests.games.helpers import easy_deck

GAMES = "/api/v1/games"


def same_row(a, b, model) -> None:
    for field in model._meta.concrete_fields:
        assert getattr(a, field.attname) == getattr(b, field.attname), field.name


def test_token_read_gives_the_user_and_the_game_as_the_orm_does(user):
    # given: a random game, a custom deck's finished game and a daily game
    _row, key = key_create(user=user, name="test")
    random_game = services.game_create(owner=user)
    custom = services.game_create(owner=user, deck=easy_deck(), draw=1)
    Game.objects.filter(pk=custom.pk).update(status="resigned", finished_at=custom.created_at)
    daily, _ = leaderboard_services.daily_game_get_or_create(player=user, draw=3)

    for game in (random_game, custom, daily):
        # when
        found = selectors.token_user_and_game(key_hash=key_hash(key), game_id=str(game.pk))
        read_user, read_game = found.user, found.game

        # then: every column as the ORM gives it (JSON decoded, ids and times typed)
        same_row(read_user, type(user).objects.get(pk=user.pk), type(user))
        same_row(read_game, Game.objects.get(pk=game.pk), Game)
        assert read_game.state["history"] == game.state["history"]


@pytest.mark.parametrize("game_id", ["not-a-uuid", "7d1a7c36-3c6f-4f6e-9b0e-2d3c1c0b9a11"])
def test_token_read_of_no_such_game_gives_the_user_alone(user, game_id):
    _row, key = key_create(user=user, name="test")

    found = selectors.token_user_and_game(key_hash=key_hash(key), game_id=game_id)
    read_user, read_game = found.user, found.game

    assert read_user.pk == user.pk and read_game is None


def test_unknown_token_on_a_game_endpoint_is_401_even_for_a_public_read(auth_client, user):
    game = auth_client.post(GAMES, {}, format="json").json()
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

    for response in (
        stranger.get(f"{GAMES}/{game['id']}"),
        stranger.get(f"{GAMES}/{game['id']}/legal-actions"),
        stranger.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json"),
    ):
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_inactive_players_token_is_refused_on_game_endpoints(auth_client, user):
    game = auth_client.post(GAMES, {}, format="json").json()
    type(user).objects.filter(pk=user.pk).update(is_active=False)

    response = auth_client.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")

    assert response.status_code == 401
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_browser_session_plays_the_game_endpoints(user):
    browser = APIClient()
    browser.force_login(user)
    game = browser.post(GAMES, {}, format="json").json()

    acted = browser.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")
    legal = browser.get(f"{GAMES}/{game['id']}/legal-actions")

    assert acted.status_code == 200 and acted.json()["game"]["moves"] == 1
    assert legal.status_code == 200 and {"type": "undo"} in legal.json()


def test_an_action_reads_once_and_on_postgresql_writes_once(auth_client):
    game = auth_client.post(GAMES, {}, format="json").json()

    with CaptureQueriesContext(connection) as queries:
        response = auth_client.post(
            f"{GAMES}/{game['id']}/actions", {"type": "draw", "expect": 0}, format="json"
        )

    assert response.status_code == 200
    sql = [q["sql"] for q in queries]
    reads = [q for q in sql if q.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, sql  # the token's user and the game together
    if connection.vendor == "postgresql":
        assert len(sql) == 2, sql  # and one statement for the update and the log row


def game_turned(client: APIClient, times: int) -> dict:
    """A new game of `client`'s account after `times` draws (recycles when the stock is out),
    each answered 200: the game as the last answer gave it."""
    game = client.post(GAMES, {}, format="json").json()
    for moves in range(times):
        action = "draw" if game["stock"]["count"] else "recycle"
        response = client.post(
            f"{GAMES}/{game['id']}/actions", {"type": action, "expect": moves}, format="json"
        )
        assert response.status_code == 200, response.content
        game = response.json()["game"]
    return game


@requires_postgres
def test_straight_to_postgresql_an_actions_read_and_write_are_prepared_once(auth_client):
    # given: the app straight to PostgreSQL (no DATABASE_POOLER: canfield_site/settings.py)
    # when: three actions on one connection
    game = game_turned(auth_client, 3)

    # then: the server holds the read and the write as prepared statements (parsed and
    # planned once per connection), bound with parameters, not with values written in
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    reads = [s for s in prepared if "FROM" in s and Game._meta.db_table in s and "$1" in s]
    writes = [s for s in prepared if s.lstrip().startswith("WITH") and Action._meta.db_table in s]
    assert reads and writes, prepared
    assert game["id"] not in " ".join(prepared)


@requires_postgres
def test_a_games_stored_state_is_compressed_with_lz4(auth_client):
    # given: a game with an undo history long enough to be compressed (over 2 kB)
    game = game_turned(auth_client, 40)

    # then: PostgreSQL stored its state with lz4 (migrations games 0019, 0020), not its
    # default, as the text it was written as (core.fields.StoredJsonField), not jsonb
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT pg_column_compression(state), octet_length(state), pg_typeof(state)::text,"
            f" state FROM {Game._meta.db_table} WHERE id = %s",
            [game["id"]],
        )
        method, length, column_type, text = cursor.fetchone()
    assert length > 2048
    assert method == "lz4"
    assert column_type == "text"
    stored = Game.objects.get(pk=game["id"]).state
    assert text == json_text(stored)
    assert stored["moves"] == 40 and len(stored["history"]) == 40


def test_a_games_state_survives_dumpdata_and_loaddata(auth_client):
    # given: a game with actions (its state a JSON object with an undo history)
    game = game_turned(auth_client, 3)
    stored = Game.objects.get(pk=game["id"])

    # when: it is dumped as Django's JSON fixtures are, deleted, and loaded back
    dumped = serializers.serialize("json", [stored])
    Game.objects.filter(pk=stored.pk).delete()
    for loaded in serializers.deserialize("json", dumped):
        loaded.save()

    # then: the same state, still the object the engine reads
    again = Game.objects.get(pk=stored.pk)
    assert again.state == stored.state
    assert again.state["moves"] == 3 and len(again.state["history"]) == 3


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_request_survives_a_connection_the_database_dropped(make_user, client_for):
    # given: a game, then the server ends this process's kept connection between two requests
    client = client_for(make_user())
    game = client.post(GAMES, {}, format="json").json()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    admin = connection.get_new_connection(connection.get_connection_params())
    admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    admin.close()
    close_old_connections()  # a request's start in production (the test client skips it)

    # when
    response = client.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")

    # then: the read noticed, reconnected and went on
    assert response.status_code == 200, response.content
    assert response.json()["game"]["moves"] == 1
    assert Game.objects.get(pk=game["id"]).moves == 1


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_is_checked_by_the_read_itself(make_user, client_for, monkeypatch):
    # given: a connection kept from an earlier request, due for its check at this one's start
    client = client_for(make_user())
    game = client.post(GAMES, {}, format="json").json()
    close_old_connections()
    checks = []
    monkeypatch.setattr(
        type(connections["default"]), "is_usable", lambda self: checks.append(1) or True
    )

    # when
    response = client.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")

    # then: no round trip of Django's own (SELECT 1) before the read
    assert response.status_code == 200
    assert checks == []


def test_a_dealt_game_and_its_event_are_one_commit(transactional_db, auth_client):
    # when an account deals a game
    with CaptureQueriesContext(connection) as queries:
        response = auth_client.post(GAMES, {}, format="json")

    # then the game and its game_started event are committed together (one flush to disk, and
    # never a game without its event)
    assert response.status_code == 201
    sql = [query["sql"] for query in queries]
    assert sql.count("COMMIT") == 1, sql
    assert AccountEvent.objects.filter(data__game=response.json()["id"]).count() == 1
