"""The account's own changes (docs/api.md "Accounts"): password, deletion, export."""

import json

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

from accounts.models import ApiKey
from accounts.services import key_create
from games import services
from games.models import Game
from tests.games.helpers import easy_deck, winning_actions

PASSWORD = "correct-horse-battery"
ACCOUNT = "/api/v1/account"


def bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def signs_in(username: str, password: str) -> bool:
    """Whether the site's login page takes these credentials (it redirects when it does)."""
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302


def test_a_password_change_keeps_keys_and_ends_sessions(user):
    # given: a key and a signed-in site session
    _row, key = key_create(user=user, name="bot")
    site = Client()
    site.force_login(user)
    assert site.get(ACCOUNT).status_code == 200

    # when
    response = bearer(key).post(
        f"{ACCOUNT}/password", {"password": PASSWORD, "new_password": "a-new-long-one-42"}, "json"
    )

    # then
    assert response.status_code == 204
    assert bearer(key).get(ACCOUNT).status_code == 200
    assert site.get(ACCOUNT).status_code in (401, 403)
    assert signs_in("alice", "a-new-long-one-42") and not signs_in("alice", PASSWORD)


def test_a_password_change_needs_the_password_and_a_good_new_one(auth_client):
    wrong = auth_client.post(
        f"{ACCOUNT}/password", {"password": "nope", "new_password": "a-new-long-one-42"}, "json"
    )
    weak = auth_client.post(
        f"{ACCOUNT}/password", {"password": PASSWORD, "new_password": "123"}, "json"
    )
    extra = auth_client.post(
        f"{ACCOUNT}/password", {"password": PASSWORD, "new_password": "x", "y": 1}, "json"
    )

    assert [r.status_code for r in (wrong, weak, extra)] == [400, 400, 400]
    assert signs_in("alice", PASSWORD)


def test_a_deleted_account_keeps_its_ranked_figures_under_a_new_name(make_user, client_for):
    # given: alice and bob with finished random games, alice with keys
    alice, bob = make_user("alice"), make_user("bob")
    for player in (alice, bob):
        game = services.game_create(owner=player, draw=1)
        Game.objects.filter(pk=game.pk).update(address_hash="abc", device_hash="dev")
    alice_client = client_for(alice)
    _row, other_key = key_create(user=alice, name="other")
    before = APIClient().get("/api/v1/players/alice").json()

    # when: a wrong password, then the right one
    refused = alice_client.delete(ACCOUNT, {"password": "nope"}, "json")
    response = alice_client.delete(ACCOUNT, {"password": PASSWORD}, "json")

    # then
    assert refused.status_code == 400
    assert response.status_code == 204
    renamed = get_user_model().objects.get(pk=alice.pk)
    assert renamed.username == f"deleted-{alice.pk}" and not renamed.is_active
    assert not renamed.has_usable_password()
    assert not ApiKey.objects.filter(user=alice).exists()
    assert bearer(other_key).get(ACCOUNT).status_code == 401
    assert not signs_in("alice", PASSWORD)
    assert not Game.objects.filter(owner=alice).exclude(address_hash="").exists()
    assert not Game.objects.filter(owner=alice).exclude(device_hash="").exists()
    assert Game.objects.filter(owner=bob, address_hash="abc", device_hash="dev").exists()
    # the figures stay, under the new name; the old name is gone
    after = APIClient().get(f"/api/v1/players/deleted-{alice.pk}").json()
    assert {**before, "username": after["username"]} == after
    assert APIClient().get("/api/v1/players/alice").status_code == 404


def test_the_export_is_every_game_with_its_actions_oldest_first(user, auth_client, make_user):
    # given: a won custom deck and a random game in progress, and someone else's game
    won = services.game_create(owner=user, deck=easy_deck(), draw=1)
    for action in winning_actions():
        services.game_act(
            game=Game.objects.get(pk=won.pk), user=user, action=dict(action), expect=None
        )
    playing = services.game_create(owner=user)
    services.game_create(owner=make_user("bob"))

    # when (asked for as what it is, as the official client asks)
    response = auth_client.get(f"{ACCOUNT}/export", HTTP_ACCEPT="application/x-ndjson")

    # then
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    lines = b"".join(response.streaming_content).decode().splitlines()
    games = [json.loads(line) for line in lines]
    assert [game["id"] for game in games] == [str(won.pk), str(playing.pk)]
    assert games[0]["status"] == "won" and len(games[0]["actions"]) == 85
    assert [action["n"] for action in games[0]["actions"]] == list(range(1, 86))
    assert games[1]["actions"] == []


def test_the_names_of_deleted_accounts_are_never_given_to_new_ones(api_client, db):
    for name in ("deleted-7", "DELETED-12", "deleted-3-44"):
        response = api_client.post(
            "/api/v1/auth/register", {"username": name, "password": "correct-horse-99"}, "json"
        )
        assert response.status_code == 400, name
    ok = api_client.post(
        "/api/v1/auth/register", {"username": "deleted-x", "password": "correct-horse-99"}, "json"
    )
    assert ok.status_code == 201


def test_a_deletion_never_takes_a_name_an_older_account_has(make_user, client_for):
    alice = make_user("alice")
    make_user(f"deleted-{alice.pk}")  # made before the name was reserved

    response = client_for(alice).delete(ACCOUNT, {"password": PASSWORD}, "json")

    assert response.status_code == 204
    renamed = get_user_model().objects.get(pk=alice.pk).username
    assert renamed.startswith(f"deleted-{alice.pk}-")


@pytest.mark.django_db(transaction=True)
def test_the_export_streams_under_asgi_too(user, monkeypatch):
    # given: three games, read in batches of two
    from games import export_api

    monkeypatch.setattr(export_api, "EXPORT_BATCH", 2)
    for _ in range(3):
        services.game_create(owner=user)
    _row, key = key_create(user=user, name="export")

    # when: asked through the ASGI handler (as under uvicorn)
    async def export() -> tuple[bool, list[bytes]]:
        response = await AsyncClient().get(
            f"{ACCOUNT}/export", headers={"Authorization": f"Bearer {key}"}
        )
        assert response.status_code == 200
        return response.is_async, [chunk async for chunk in response.streaming_content]

    is_async, chunks = async_to_sync(export)()

    # then: two chunks (2 + 1 lines), oldest first
    assert is_async
    assert [chunk.count(b"\n") for chunk in chunks] == [2, 1]
    created = [json.loads(line)["created_at"] for line in b"".join(chunks).splitlines()]
    assert created == sorted(created)
