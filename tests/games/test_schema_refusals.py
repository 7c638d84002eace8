"""The server refuses what the schema refuses (issue 24), and player names match without
regard to case (API.md)."""

import pytest

from games.models import Game

GAMES = "/api/v1/games"


@pytest.mark.parametrize(
    "body",
    [
        {"daily": False},
        {"daily": False, "draw": 1},
        {"daily": True, "draw": None},
        {"draw": None},
        {"daily": None},
    ],
)
def test_bodies_the_schema_refuses_create_no_game(auth_client, user, body):
    response = auth_client.post(GAMES, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Game.objects.filter(owner=user).exists()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_an_empty_body_of_another_type_than_json_creates_no_game(auth_client, user, content_type):
    response = auth_client.generic("POST", GAMES, b"", content_type=content_type)

    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
    assert not Game.objects.filter(owner=user).exists()


def test_no_body_at_all_or_an_empty_json_one_deals_a_random_game(auth_client, user):
    assert auth_client.post(GAMES).status_code == 201
    assert (
        auth_client.generic("POST", GAMES, b"", content_type="application/json").status_code == 201
    )
    assert Game.objects.filter(owner=user).count() == 2


def test_a_player_is_found_whatever_the_case_of_the_name(api_client, make_user):
    make_user("Alice")

    for name in ("Alice", "ALICE", "alice"):
        response = api_client.get(f"/api/v1/players/{name}")
        assert response.status_code == 200, name
        assert response.json()["username"] == "Alice"
    assert api_client.get("/api/v1/players/alicia").status_code == 404
