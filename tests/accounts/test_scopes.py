"""Every operation of the schema needs the scope accounts/scopes.py declares for it: a key without
it is refused with 403 `missing_scope`, one with only that scope gets past the check."""

import datetime as dt
import json

import pytest
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts import scopes as scope_table
from accounts.services import SCOPES, key_create
from games import services

METHODS = ("get", "post", "put", "patch", "delete")


def operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method.upper(), item[method]["operationId"]


@pytest.fixture
def filled(db, user):
    """Values for every path parameter: one of the user's games, today, its name, a key."""
    game = services.game_create(owner=user)
    row, _key = key_create(user=user, name="to revoke")
    return {
        "{game_id}": str(game.id),
        "{date}": dt.date.today().isoformat(),
        "{username}": user.username,
        "{key_id}": row.id,
        "{id}": str(game.id),
    }


def concrete(path: str, filled: dict[str, str]) -> str:
    for name, value in filled.items():
        path = path.replace(name, value)
    return path


def test_every_operation_has_a_declared_scope_and_every_view_checks_it(filled):
    seen = []
    for path, method, operation_id in operations():
        match = resolve(concrete(path, filled))
        assert (match.url_name, method) in scope_table.OPERATION_SCOPES, (operation_id, path)
        view = match.func.view_class()
        view.request = type("R", (), {"method": method})()
        checks = [type(permission) for permission in view.get_permissions()]
        assert scope_table.ScopeRequired in checks, operation_id
        seen.append(operation_id)
    assert len(seen) >= 20


def test_a_key_without_the_scope_is_refused_on_every_operation_and_one_with_it_is_not(user, filled):
    for path, method, operation_id in operations():
        url = concrete(path, filled)
        needed = scope_table.operation_scope(resolve(url).url_name, method)
        if needed is None:
            continue
        enough = {needed} | scope_table.ALSO_ENOUGH.get(needed, set())
        # given: a key with every other scope, and one with only the needed scope
        _row, without = key_create(user=user, name="without", scopes=set(SCOPES) - enough)
        _row, only = key_create(user=user, name="only", scopes=[needed])

        # when
        refused = _call(without, method, url)
        allowed = _call(only, method, url)

        # then (a read anyone may make is answered as to anyone: tested below)
        if needed != scope_table.BOARD_READ:
            assert refused.status_code == 403, (operation_id, refused.content)
            assert refused.json()["error"]["params"] == {"missing_scope": needed}, operation_id
        if not getattr(allowed, "streaming", False):
            assert "missing_scope" not in allowed.content.decode(), (operation_id, allowed.content)
        assert allowed.status_code < 500, operation_id


def _call(key: str, method: str, url: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    body = {} if method in ("POST", "DELETE") else None
    if url.endswith("/account") and method == "DELETE":
        body = {"password": "wrong password"}  # never deletes: a wrong password is 400
    if body is None:
        return client.generic(method, url)
    return client.generic(method, url, json.dumps(body), content_type="application/json")


def test_a_key_without_board_read_reads_what_anyone_may_as_anyone(user, make_user, filled):
    # given: a key with account:read only, another player's finished game and its pages
    other = make_user("bob")
    game = services.game_create(owner=other)
    services.game_act(game=game, user=other, action={"type": "resign"}, expect=None)
    _row, key = key_create(user=user, name="account only", scopes=["account:read"])
    reads = [
        "/api/v1/daily",
        f"/api/v1/players/{other.username}",
        f"/api/v1/players/{other.username}/games",
        f"/api/v1/games/{game.id}",
        f"/api/v1/games/{game.id}/actions",
        "/api/v1/ratings",
    ]
    for url in reads:
        # when: the key and an anonymous caller read it
        with_key = _call(key, "GET", url)
        anonymous = APIClient().get(url)

        # then: the key gets what the anonymous caller gets, not 403
        assert with_key.status_code == anonymous.status_code == 200, (url, with_key.content)
        assert with_key.json() == anonymous.json(), url
    # and what is the account's stays behind its scope
    assert _call(key, "GET", "/api/v1/account").status_code == 200
    refused = _call(key, "POST", "/api/v1/games")
    assert refused.json()["error"]["params"] == {"missing_scope": "game:play"}


def test_the_schema_says_which_scope_each_operation_needs(filled):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    flows = schema["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert sorted(flows["scopes"]) == sorted(SCOPES)
    for path, method, operation_id in operations():
        operation = schema["paths"][path][method.lower()]
        needed = scope_table.operation_scope(resolve(concrete(path, filled)).url_name, method)
        assert operation["x-scopes"] == ([needed] if needed else []), operation_id
        security = operation.get("security", schema["security"])
        if needed:
            assert {"oauth2": [needed]} in security, operation_id
