"""The server refuses what the OpenAPI schema refuses (issue 24): each body below fails the
schema's validation of its operation, and the server answers it with a 4xx in the error shape,
in the caller's language, creating or changing nothing."""

import pytest
from jsonschema import Draft4Validator

from games.models import Game

GAMES = "/api/v1/games"

CREATE_REFUSED = [
    ("daily false", {"daily": False}, 400),
    ("daily with a null draw", {"daily": True, "draw": None}, 400),
    ("a null draw", {"draw": None}, 400),
    ("a null deck", {"deck": None}, 400),
]
ACTIONS_REFUSED = [
    ("a tap with a destination", {"type": "tap", "from": "waste", "to": "foundation"}),
    ("a draw with a pile", {"type": "draw", "from": "stock"}),
    ("a move without its destination", {"type": "move", "from": "waste"}),
]


@pytest.fixture(scope="module")
def components(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


def valid(body, component, components) -> bool:
    """Whether `body` is a valid `component` of the schema (OpenAPI 3.0's schema objects are
    JSON schema draft 4 with `nullable`, which these components use only on responses)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": {"schemas": components}}
    return Draft4Validator(schema).is_valid(body)


@pytest.mark.parametrize(
    ("name", "body", "status"), CREATE_REFUSED, ids=[c[0] for c in CREATE_REFUSED]
)
def test_game_creation_refuses_what_the_schema_refuses(auth_client, components, name, body, status):
    assert not valid(body, "GameCreateRequest", components)

    answer = auth_client.post(GAMES, body, format="json", HTTP_ACCEPT_LANGUAGE="hu")

    assert answer.status_code == status and answer.json()["error"]["code"] == "invalid_request"
    assert not Game.objects.exists()
    assert "must" not in answer.json()["error"]["message"]  # Hungarian, not English


def test_the_schema_takes_every_body_the_server_creates_a_game_for(auth_client, components):
    for body in (
        {},
        {"draw": 1},
        {"daily": True},
        {"daily": True, "draw": 1},
        {"code": "CF1-D3-AAAAACL"},
    ):
        assert valid(body, "GameCreateRequest", components), body
        assert auth_client.post(GAMES, body, format="json").status_code in (200, 201), body


@pytest.mark.parametrize(
    ("content_type", "status"), [("text/plain", 415), ("application/json", 400), ("", 415)]
)
def test_a_body_is_required_whatever_its_type(auth_client, content_type, status):
    answer = auth_client.generic("POST", GAMES, b"", content_type=content_type)

    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["code"] in ("unsupported_media_type", "invalid_request")
    assert not Game.objects.exists()


@pytest.mark.parametrize(("name", "body"), ACTIONS_REFUSED, ids=[c[0] for c in ACTIONS_REFUSED])
def test_actions_refuse_what_the_schema_refuses(auth_client, components, name, body):
    game = auth_client.post(GAMES, {}, format="json").json()
    assert not valid(body, "Action", components)

    answer = auth_client.post(f"{GAMES}/{game['id']}/actions", body, format="json")

    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_request"
    assert Game.objects.get(pk=game["id"]).actions_count == 0


def test_legal_actions_are_valid_action_bodies(auth_client, components):
    game = auth_client.post(GAMES, {"draw": 1}, format="json").json()
    legal = auth_client.get(f"{GAMES}/{game['id']}/legal-actions").json()

    assert legal and all(valid(action, "Action", components) for action in legal)


def test_a_player_is_found_whatever_the_case_of_the_name(api_client, make_user):
    make_user("Alice")

    for name in ("Alice", "ALICE", "alice"):
        response = api_client.get(f"/api/v1/players/{name}")
        assert response.status_code == 200, name
        assert response.json()["username"] == "Alice"
    assert api_client.get("/api/v1/players/alicia").status_code == 404
