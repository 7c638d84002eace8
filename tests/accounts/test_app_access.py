"""The apps a player allowed, on the keys page (the consent page sends the player there to take
access back): each app with its permissions, since when and its last use; taking access back
ends its tokens, and the keys it made with them, at once."""

import datetime as dt

from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken

from accounts.services import key_create, oauth_apps_for
from tests.accounts.test_oauth_doors import bearer, code_for, exchange, make_key

PASSWORD = "correct-horse-battery"


def refreshed(app, refresh_token: str):
    """The answer to a refresh of `refresh_token` by the public `app`."""
    return Client().post(
        "/oauth/token",
        {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": app.client_id},
    )


def test_the_keys_page_lists_an_allowed_app_and_takes_its_access_back(public_app, user):
    # given: the player allowed an app, which got tokens and made a key with them
    code, verifier = code_for(public_app, user, "account:write game:play board:read")
    tokens = exchange(public_app, code, verifier).json()
    app = bearer(tokens["access_token"])
    assert app.get("/api/v1/daily").status_code == 200
    made = make_key(tokens["access_token"])
    assert made.status_code == 201
    its_key = bearer(made.json()["token"])
    assert its_key.get("/api/v1/daily").status_code == 200
    page = Client()
    page.force_login(user)

    # when: the player opens the keys page
    html = page.get("/account/keys/").content.decode()

    # then: the app is there with what it may do
    [listed] = oauth_apps_for(user=user)
    assert listed.name == "Solver Buddy" and listed.scopes == [
        "account:write",
        "game:play",
        "board:read",
    ]
    assert "Solver Buddy" in html and "account:write, game:play, board:read" in html
    assert f"/account/apps/{listed.id}/revoke" in html

    # when: the player takes the access back
    taken = page.post(f"/account/apps/{listed.id}/revoke")

    # then: its token, its refresh token and the key it made stop at once; the page lists none
    assert taken.status_code == 302
    assert app.get("/api/v1/daily").status_code == 401
    assert its_key.get("/api/v1/daily").status_code == 401
    assert refreshed(public_app, tokens["refresh_token"]).status_code == 400
    assert oauth_apps_for(user=user) == []
    assert "Solver Buddy" not in page.get("/account/keys/").content.decode()


def test_an_apps_last_use_is_kept_to_the_minute(public_app, user):
    # given: an app's token, last written two minutes ago
    code, verifier = code_for(public_app, user, "board:read")
    access = exchange(public_app, code, verifier).json()["access_token"]
    before = timezone.now() - dt.timedelta(minutes=2)
    AccessToken.objects.update(updated=before)

    # when: the app uses it twice
    bearer(access).get("/api/v1/daily")
    first = oauth_apps_for(user=user)[0].last_used
    bearer(access).get("/api/v1/daily")

    # then: its last use moved to now, once (one write a minute at most)
    assert first is not None and first > before
    assert oauth_apps_for(user=user)[0].last_used == first


def test_another_players_app_is_not_listed_nor_revoked(public_app, user, make_user):
    other = make_user("bob")
    code, verifier = code_for(public_app, other, "board:read")
    access = exchange(public_app, code, verifier).json()["access_token"]
    page = Client()
    page.force_login(user)

    assert oauth_apps_for(user=user) == []
    page.post(f"/account/apps/{public_app.pk}/revoke")
    assert bearer(access).get("/api/v1/daily").status_code == 200


def test_a_password_change_ends_every_apps_access_and_keeps_the_players_keys(public_app, user):
    # given: an app allowed with tokens and a key it made, and a key the player made
    code, verifier = code_for(public_app, user, "account:write game:play board:read")
    tokens = exchange(public_app, code, verifier).json()
    app = bearer(tokens["access_token"])
    its_key = bearer(make_key(tokens["access_token"]).json()["token"])
    _row, own = key_create(user=user, name="mine")
    assert app.get("/api/v1/daily").status_code == 200

    # when: the player changes the password with their own key
    changed = bearer(own).post(
        "/api/v1/account/password",
        {"password": PASSWORD, "new_password": "a-new-long-one-42"},
        "json",
    )

    # then: the app's token, its refresh token and its key stop; the player's key goes on
    assert changed.status_code == 204
    assert app.get("/api/v1/daily").status_code == 401
    assert its_key.get("/api/v1/daily").status_code == 401
    assert refreshed(public_app, tokens["refresh_token"]).status_code == 400
    assert bearer(own).get("/api/v1/account").status_code == 200
    assert oauth_apps_for(user=user) == []


def test_the_sites_password_page_ends_every_apps_access_too(public_app, user):
    # given: an app allowed with a token, and the player signed in on the site
    code, verifier = code_for(public_app, user, "board:read")
    app = bearer(exchange(public_app, code, verifier).json()["access_token"])
    page = Client()
    page.force_login(user)

    # when: the player changes the password on the site
    done = page.post(
        "/account/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-one-42",
            "new_password2": "a-new-long-one-42",
        },
    )

    # then: this session stays, the app's access is gone
    assert done.status_code == 200 and page.get("/account/keys/").status_code == 200
    assert app.get("/api/v1/daily").status_code == 401
    assert oauth_apps_for(user=user) == []
