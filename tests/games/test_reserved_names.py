"""A deleted account's name is refused to anyone for DELETED_NAME_DAYS (docs/api.md "Accounts"), on
the API and the site's sign-up, then free again."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ReservedName

PASSWORD = "correct-horse-battery"
NEW_PASSWORD = "another-horse-battery-7"


def register(name: str):
    return APIClient().post(
        "/api/v1/auth/register", {"username": name, "password": NEW_PASSWORD}, format="json"
    )


def web_signup(name: str):
    return Client().post(
        "/accounts/signup/",
        {"username": name, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )


def test_a_deleted_name_is_refused_for_its_days_then_free(make_user, client_for, settings):
    # given: alice deleted her account
    alice = make_user("alice")
    assert (
        client_for(alice).delete("/api/v1/account", {"password": PASSWORD}, "json").status_code
        == 204
    )

    # when: someone asks for her name, in any case, on the API and the site
    api = register("Alice")
    web = web_signup("ALICE")

    # then: refused with the documented error; no account made; only a hash is kept
    assert api.status_code == 400
    assert api.json()["error"]["code"] == "invalid_request"
    assert "deleted recently" in api.json()["error"]["message"]
    assert web.status_code == 200 and "deleted recently" in web.content.decode()
    assert not get_user_model().objects.filter(username__iexact="alice").exists()
    [reserved] = ReservedName.objects.all()
    assert "alice" not in reserved.name_hash.lower()

    # when: the reservation is older than DELETED_NAME_DAYS
    ReservedName.objects.update(
        deleted_at=reserved.deleted_at - dt.timedelta(days=settings.DELETED_NAME_DAYS, seconds=1)
    )

    # then: the name is free again, on the site and (for another case) the API
    assert web_signup("alice").status_code == 302
    assert get_user_model().objects.filter(username="alice", is_active=True).exists()


def test_the_api_takes_a_name_whose_reservation_expired(make_user, client_for, settings):
    bob = make_user("bob")
    client_for(bob).delete("/api/v1/account", {"password": PASSWORD}, "json")
    assert register("bob").status_code == 400

    ReservedName.objects.update(
        deleted_at=ReservedName.objects.get().deleted_at
        - dt.timedelta(days=settings.DELETED_NAME_DAYS, seconds=1)
    )

    assert register("bob").status_code == 201


def test_expired_reservations_are_dropped_at_the_next_deletion(make_user, client_for, settings):
    old, new = make_user("old"), make_user("new")
    client_for(old).delete("/api/v1/account", {"password": PASSWORD}, "json")
    ReservedName.objects.update(
        deleted_at=ReservedName.objects.get().deleted_at
        - dt.timedelta(days=settings.DELETED_NAME_DAYS, seconds=1)
    )

    client_for(new).delete("/api/v1/account", {"password": PASSWORD}, "json")

    assert ReservedName.objects.count() == 1
    assert register("old").status_code == 201 and register("new").status_code == 400
