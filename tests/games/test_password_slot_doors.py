"""Every door that checks or sets a password hashes in the host's password slot (AUTH_CONCURRENCY,
core/slots.py): with every slot busy, each answers 503 `unavailable` with Retry-After
and hashes nothing. (The sign-up and login doors: tests/games/test_floods.py.)"""

from __future__ import annotations

import base64

import pytest
from oauth2_provider.models import get_application_model

from core.slots import slot
from tests.games.test_floods import slots, slotted_hasher  # noqa: F401 (fixtures)

PASSWORD = "correct-horse-battery"


@pytest.fixture
def app_secret(db, slotted_hasher):  # noqa: F811
    secret = "the-real-secret"
    app = get_application_model().objects.create(
        name="Server App",
        client_type="confidential",
        authorization_grant_type="authorization-code",
        redirect_uris="https://app.example/cb",
        client_secret=secret,
    )
    return app, secret


def test_every_password_door_waits_for_the_slot_then_answers_503(
    slotted_hasher,  # noqa: F811
    api_client,
    client,
    user,
    app_secret,
    hashes,
):
    # given: alice signed in on the API and on the site, and a confidential OAuth client
    api_client.force_authenticate(user)
    client.force_login(user)
    app, secret = app_secret
    basic = base64.b64encode(f"{app.client_id}:{secret}".encode()).decode()

    # when: every password slot of the host is busy
    with slot("auth", 1):
        answers = {
            "API password": api_client.post(
                "/api/v1/account/password",
                {"password": PASSWORD, "new_password": "another-horse-battery"},
                format="json",
            ),
            "API delete": api_client.delete(
                "/api/v1/account", {"password": PASSWORD}, format="json"
            ),
            "web password": client.post(
                "/account/password/",
                {
                    "old_password": PASSWORD,
                    "new_password1": "another-horse-battery",
                    "new_password2": "another-horse-battery",
                },
            ),
            "web delete": client.post("/account/delete/", {"password": PASSWORD, "confirm": "on"}),
            "OAuth token": client.post(
                "/oauth/token",
                {"grant_type": "refresh_token", "refresh_token": "x" * 30},
                HTTP_AUTHORIZATION=f"Basic {basic}",
            ),
        }

    # then: each waited for a slot and answered 503, having hashed nothing
    for door, answer in answers.items():
        assert answer.status_code == 503, (door, answer.content[:200])
        assert int(answer["Retry-After"]) >= 1, door
    assert hashes == []
    user.refresh_from_db()
    assert user.is_active and user.check_password(PASSWORD)
