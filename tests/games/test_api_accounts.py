import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import ApiKey
from accounts.services import key_hash
from tests.conftest import requires_postgres

REGISTER = "/api/v1/auth/register"
TOKEN = "/api/v1/auth/token"


def test_register_creates_account_and_token(api_client, db):
    # when
    response = api_client.post(
        REGISTER, {"username": "carol", "password": "correct-horse-99"}, format="json"
    )

    # then
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "carol"
    # only the key's hash is kept, and the key has every scope
    key = ApiKey.objects.get(user__username="carol")
    assert key.key_hash == key_hash(body["token"]) and key.id == body["token"][4:12]
    assert body["token"] not in str(list(ApiKey.objects.values_list()))
    assert key.scopes.split() == ["account:read", "account:write", "game:play", "board:read"]


def test_registered_token_authenticates(api_client, db):
    token = api_client.post(
        REGISTER, {"username": "carol", "password": "correct-horse-99"}, format="json"
    ).json()["token"]

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/games").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "correct-horse-99"},  # taken
        {"username": "ALICE", "password": "correct-horse-99"},  # taken, other case
        {"username": "dave", "password": "123"},  # weak
        {"username": "dave", "password": "password"},  # common
        {"username": "da ve", "password": "correct-horse-99"},  # bad characters
        {"username": "", "password": "correct-horse-99"},
        {"username": 5, "password": "correct-horse-99"},
        {"username": "dave"},
        {"username": "dave", "password": "correct-horse-99", "is_staff": True},
        {"username": "d\x00ve", "password": "correct-horse-99"},
        {"username": "x" * 151, "password": "correct-horse-99"},
        ["dave", "correct-horse-99"],
    ],
)
def test_register_rejects_bad_input(api_client, user, body):
    response = api_client.post(REGISTER, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not ApiKey.objects.filter(user__username__iexact="dave").exists()


def test_token_for_good_credentials(api_client, user):
    response = api_client.post(
        TOKEN, {"username": "alice", "password": "correct-horse-battery"}, format="json"
    )

    assert response.status_code == 200
    assert list(response.json()) == ["token"]
    key = ApiKey.objects.get(user=user)
    assert key.key_hash == key_hash(response.json()["token"]) and key.name == "auth/token"


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "wrong"},
        {"username": "nobody", "password": "correct-horse-battery"},
        {"username": "alice"},
        {"username": "alice", "password": 1234},
    ],
)
def test_token_rejects_bad_credentials(api_client, user, body):
    response = api_client.post(TOKEN, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert "correct-horse-battery" not in response.content.decode()


@pytest.mark.usefixtures("hour_to_spare")
@pytest.mark.parametrize("path", [REGISTER, TOKEN])
def test_account_endpoints_are_throttled(api_client, db, monkeypatch, path):
    # given: a rate of 2 an hour for both scopes
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"register": "2/hour", "token": "2/hour"}
    )

    # when
    codes = [
        api_client.post(path, {"username": f"u{i}", "password": "x"}, format="json").status_code
        for i in range(3)
    ]

    # then
    assert codes[:2] == [400, 400]
    assert codes[2] == 429
    response = api_client.post(path, {"username": "u", "password": "x"}, format="json")
    assert response.json()["error"]["code"] == "throttled"
    assert "Retry-After" in response.headers


def test_a_wrong_token_is_not_authenticated(api_client, user):
    api_client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

    response = api_client.get("/api/v1/games")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert response.headers["WWW-Authenticate"] == "Token"


def test_an_inactive_users_token_is_not_authenticated(user, client_for):
    client = client_for(user)
    user.is_active = False
    user.save()

    response = client.get("/api/v1/games")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_a_token_authenticates_its_own_user(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    client_for(alice).post("/api/v1/games", {}, format="json")

    assert client_for(alice).get("/api/v1/games").json()["count"] == 1
    assert client_for(bob).get("/api/v1/games").json()["count"] == 0


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_racing_signups_for_one_name_in_other_cases_make_one_account():
    # given: eight clients that register the same name, each in its own case, at once
    names = ["racer", "Racer", "RACER", "rAcer", "raCer", "racEr", "raceR", "RaCeR"]
    start = threading.Barrier(len(names))
    answers: list[tuple[int, dict]] = []

    def register(name: str) -> None:
        client = APIClient()
        start.wait()
        response = client.post(
            REGISTER, {"username": name, "password": "correct-horse-99"}, format="json"
        )
        answers.append((response.status_code, response.json()))
        connection.close()

    # when
    threads = [threading.Thread(target=register, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then: one account; every other client was told the name is taken
    assert User.objects.filter(username__iexact="racer").count() == 1
    assert sorted(status for status, _ in answers) == [201] + [400] * 7
    refused = [body["error"] for status, body in answers if status == 400]
    assert all(error["code"] == "invalid_request" for error in refused)
    assert all("taken" in error["message"] for error in refused)
