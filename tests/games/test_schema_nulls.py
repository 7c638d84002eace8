"""Answers with `null` where the schema allows it validate under a strict OpenAPI 3.0 validator
(openapi-schema-validator's OAS30Validator): a nullable reference must say so in a way 3.0
validators read (canfield_site/schema.py `_nullable_references`)."""

import datetime as dt

from drf_spectacular.generators import SchemaGenerator
from openapi_schema_validator import OAS30Validator

from tests.games.helpers import easy_deck


def validator(component: str) -> OAS30Validator:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return OAS30Validator({"$ref": f"#/components/schemas/{component}", **schema})


def errors(component: str, answer: dict) -> list[str]:
    return [error.message for error in validator(component).iter_errors(answer)]


def test_a_practice_game_and_a_board_before_its_par_validate_strictly(auth_client, api_client):
    # given: a practice game (no daily: `daily` null) and today's board (par not shown yet)
    game = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    today = dt.date.today().isoformat()
    board = api_client.get(f"/api/v1/daily/{today}/leaderboard?draw=3")

    # then
    assert game.status_code == 201 and game.json()["daily"] is None
    assert errors("GameOut", game.json()) == []
    assert board.status_code == 200 and board.json()["par"] is None
    assert errors("LeaderboardOut", board.json()) == []


def test_every_nullable_property_of_the_schema_takes_null_strictly():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for name, component in schema["components"]["schemas"].items():
        for field, prop in component.get("properties", {}).items():
            if prop.get("nullable"):
                check = OAS30Validator({**prop, "components": schema["components"]})
                assert check.is_valid(None), f"{name}.{field}: {prop}"
