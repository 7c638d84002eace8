"""API keys (docs/api.md "Accounts"): made named, scoped and perhaps expiring, listed without
the key, revoked at once; the keys made before hashing keep working after the migration."""

import datetime as dt
import importlib

import pytest
import time_machine
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiKey
from accounts.services import SCOPES, key_create, key_hash

TOKENS = "/api/v1/account/tokens"
GAMES = "/api/v1/games"


def bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def test_a_key_is_made_shown_once_listed_without_it_and_revoked_at_once(auth_client, user):
    # when: a named key with two scopes, expiring in 30 days
    response = auth_client.post(
        TOKENS, {"name": "my bot", "scopes": ["game:play", "board:read"], "days": 30}, "json"
    )

    # then: the key once, and only its hash and first characters kept
    assert response.status_code == 201
    made = response.json()
    key = made.pop("token")
    assert made["name"] == "my bot" and made["scopes"] == ["game:play", "board:read"]
    assert made["id"] == key[4:12] and made["last_used"] is None
    expires = dt.datetime.fromisoformat(made["expires"])
    assert dt.timedelta(days=29, hours=23) < expires - timezone.now() <= dt.timedelta(days=30)
    row = ApiKey.objects.get(id=made["id"])
    assert row.key_hash == key_hash(key) and key not in str(ApiKey.objects.values_list())

    # when: the new key plays, then the list is read
    assert bearer(key).post(GAMES, {}, "json").status_code == 201
    listed = auth_client.get(TOKENS).json()

    # then: both keys (the test's and the new one), oldest first, never a key, last_used set
    assert [entry["name"] for entry in listed] == ["test", "my bot"]
    assert all("token" not in entry for entry in listed)
    assert listed[1]["last_used"] is not None
    assert set(listed[1]) == {"id", "name", "scopes", "created", "expires", "last_used"}

    # when: revoked
    assert auth_client.delete(f"{TOKENS}/{made['id']}").status_code == 204

    # then: 401 at once; a second revocation is 404
    refused = bearer(key).get(GAMES)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_authenticated"
    assert auth_client.delete(f"{TOKENS}/{made['id']}").status_code == 404


def test_a_key_of_another_account_cannot_be_revoked(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    row, key = key_create(user=bob, name="bob's")

    response = client_for(alice).delete(f"{TOKENS}/{row.id}")

    assert response.status_code == 404
    assert bearer(key).get(GAMES).status_code == 200


def test_a_board_read_key_is_refused_on_post_games_with_the_missing_scope(user):
    _row, key = key_create(user=user, name="reader", scopes=["board:read"])

    response = bearer(key).post(GAMES, {}, "json")

    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "forbidden" and error["params"] == {"missing_scope": "game:play"}
    assert bearer(key).get("/api/v1/daily").status_code == 200


def test_account_says_the_calling_keys_scopes(user, client_for):
    _row, key = key_create(user=user, name="r", scopes=["board:read", "account:read"])

    body = bearer(key).get("/api/v1/account").json()

    assert body["scopes"] == ["account:read", "board:read"]
    assert client_for(user).get("/api/v1/account").json()["scopes"] == list(SCOPES)


def test_an_expired_key_is_refused(user):
    _row, key = key_create(user=user, name="short", days=1)
    assert bearer(key).get(GAMES).status_code == 200

    with time_machine.travel(timezone.now() + dt.timedelta(days=1, seconds=1)):
        response = bearer(key).get(GAMES)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_a_key_cannot_make_a_key_with_more_scopes_than_its_own(user):
    _row, key = key_create(user=user, name="w", scopes=["account:write", "account:read"])

    wider = bearer(key).post(TOKENS, {"name": "x", "scopes": ["game:play"]}, "json")
    same = bearer(key).post(TOKENS, {"name": "x", "scopes": ["account:read"]}, "json")

    assert wider.status_code == 403 and wider.json()["error"]["code"] == "forbidden"
    assert same.status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"name": "", "scopes": ["game:play"]},
        {"name": "x" * 101, "scopes": ["game:play"]},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["game:write"]},
        {"name": "x", "scopes": "game:play"},
        {"name": "x", "scopes": ["game:play"], "days": 0},
        {"name": "x", "scopes": ["game:play"], "days": 1.5},
        {"name": "x", "scopes": ["game:play"], "days": True},
        {"name": "x", "scopes": ["game:play"], "admin": True},
        ["x"],
    ],
)
def test_bad_key_bodies_are_400(auth_client, body):
    response = auth_client.post(TOKENS, body, "json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_every_login_makes_a_new_key_and_the_old_ones_keep_working(api_client, user):
    credentials = {"username": "alice", "password": "correct-horse-battery"}

    first = api_client.post("/api/v1/auth/token", credentials, "json").json()["token"]
    second = api_client.post("/api/v1/auth/token", credentials, "json").json()["token"]

    assert first != second
    assert bearer(first).get(GAMES).status_code == 200
    assert bearer(second).get(GAMES).status_code == 200
    assert bearer(second).get("/api/v1/account").json()["scopes"] == list(SCOPES)


@pytest.mark.django_db(transaction=True)
def test_keys_made_before_hashing_keep_working_after_the_migration(make_user):
    # given: DRF's token table as the earlier releases left it, with two keys
    alice, bob = make_user("alice"), make_user("bob")
    old = {"0123456789abcdef0123456789abcdef01234567": alice, "0123456799" + "f" * 30: bob}
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id integer NOT NULL)"
        )
        for key, user in old.items():
            cursor.execute(
                "INSERT INTO authtoken_token VALUES (%s, %s, %s)", [key, timezone.now(), user.pk]
            )
    migration = importlib.import_module("keys.migrations.0002_hash_drf_tokens")

    # when: run with the models as they were then (the keys app's, since moved to accounts)
    from django.db.migrations.loader import MigrationLoader

    then = MigrationLoader(connection).project_state(("keys", "0001_initial")).apps
    with connection.schema_editor() as editor:
        migration.hash_old_keys(then, editor)

    # then: hashed, every scope, the old table gone, and the old keys authenticate
    assert "authtoken_token" not in connection.introspection.table_names()
    rows = {row.user_id: row for row in ApiKey.objects.all()}
    assert rows[alice.pk].id == "01234567" and rows[bob.pk].id == "0123456799"
    assert all(row.scopes.split() == list(SCOPES) for row in rows.values())
    for key, user in old.items():
        body = bearer(key).get("/api/v1/account").json()
        assert body["username"] == user.username
        assert bearer(key).post(GAMES, {}, "json").status_code == 201


def test_logins_never_pile_up_more_keys_than_an_account_may_hold(api_client, user, monkeypatch):
    # given: room for 3 keys, and a named key made on the keys page
    from accounts import services

    monkeypatch.setattr(services, "MAX_KEYS", 3)
    _row, named = key_create(user=user, name="my bot", scopes=["board:read"])
    credentials = {"username": "alice", "password": "correct-horse-battery"}

    # when: four logins, the second key used since
    made = [api_client.post("/api/v1/auth/token", credentials, "json").json()["token"]]
    made.append(api_client.post("/api/v1/auth/token", credentials, "json").json()["token"])
    assert bearer(made[1]).get(GAMES).status_code == 200
    made += [api_client.post("/api/v1/auth/token", credentials, "json").json()["token"]]
    made += [api_client.post("/api/v1/auth/token", credentials, "json").json()["token"]]

    # then: 3 keys; the named one kept, the logins' least recently used went first
    assert ApiKey.objects.filter(user=user).count() == 3
    working = [key for key in [named, *made] if bearer(key).get("/api/v1/daily").status_code == 200]
    assert working == [named, made[1], made[3]]


def test_keys_made_in_bulk_work_like_the_others(make_user):
    from accounts.services import keys_create_many

    users = [make_user(f"bulk{i}") for i in range(3)]

    keys = keys_create_many(users=users, name="bench")

    assert len(set(keys)) == 3
    for user, key in zip(users, keys, strict=True):
        assert bearer(key).get("/api/v1/account").json()["username"] == user.username
