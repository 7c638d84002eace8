"""OAuth 2.0 for third-party apps: an authorization-code round trip with PKCE (S256 only),
the token used as Bearer with its scopes, revocation, an expired token refused saying so, and
the RFC 8414 metadata."""

import base64
import datetime as dt
import hashlib
import re
import secrets
from html import unescape
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model
from rest_framework.test import APIClient

from tests.accounts.conftest import REDIRECT


@pytest.fixture
def app(public_app):
    return public_app


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_url(app, challenge: str, method: str = "S256", scope: str = "game:play board:read"):
    query = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "state": "s-42",
        "code_challenge": challenge,
        "code_challenge_method": method,
    }
    return "/oauth/authorize?" + urlencode(query)


def hidden_fields(html: str) -> dict[str, str]:
    return {
        name: unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html)
        if name != "csrfmiddlewaretoken"
    }


def test_an_app_gets_a_token_with_pkce_plays_with_it_and_loses_it_on_revocation(app, user):
    # given: the player signed in on the site, reading Hungarian
    browser = Client(HTTP_ACCEPT_LANGUAGE="hu")
    browser.force_login(user)
    verifier, challenge = pkce()

    # when: the app sends the player to the consent page
    page = browser.get(authorize_url(app, challenge))

    # then: the site's page, in Hungarian, naming the app and what it asks for
    assert page.status_code == 200
    html = page.content.decode()
    assert "Solver Buddy" in html and 'lang="hu"' in html and "topbar" in html
    assert "Allow" not in html and "deal games" not in html

    # when: the player allows it
    allowed = browser.post(authorize_url(app, challenge), {**hidden_fields(html), "allow": "1"})

    # then: back to the app with a code and its state
    assert allowed.status_code == 302
    target = urlparse(allowed["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    query = parse_qs(target.query)
    assert query["state"] == ["s-42"]

    # when: the app trades the code and its verifier for a token
    token_request = {
        "grant_type": "authorization_code",
        "code": query["code"][0],
        "redirect_uri": REDIRECT,
        "client_id": app.client_id,
    }
    without_verifier = Client().post("/oauth/token", token_request)
    issued = Client().post("/oauth/token", {**token_request, "code_verifier": verifier})

    # then
    assert without_verifier.status_code == 400
    assert issued.status_code == 200, issued.content
    body = issued.json()
    assert body["token_type"] == "Bearer" and set(body["scope"].split()) == {
        "game:play",
        "board:read",
    }
    access = body["access_token"]
    stored = get_access_token_model().objects.get()
    assert access not in (stored.token or "")  # only its checksum is kept

    # when: the app uses it on the API
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")

    # then: what its scopes allow, and nothing else
    assert api.post("/api/v1/games", {}, "json").status_code == 201
    # (after `Token` too, as a key may be: README)
    old_word = APIClient()
    old_word.credentials(HTTP_AUTHORIZATION=f"Token {access}")
    assert old_word.post("/api/v1/games", {}, "json").status_code == 201
    refused = api.get("/api/v1/account/tokens")
    assert refused.status_code == 403
    assert refused.json()["error"]["params"] == {"missing_scope": "account:read"}

    # when: the app gets a new one with its refresh token
    refresh = {"grant_type": "refresh_token", "client_id": app.client_id}
    renewed = Client().post("/oauth/token", {**refresh, "refresh_token": body["refresh_token"]})

    # then: the same scopes, a new refresh token
    assert renewed.status_code == 200, renewed.content
    assert set(renewed.json()["scope"].split()) == {"game:play", "board:read"}
    assert renewed.json()["refresh_token"] != body["refresh_token"]
    access = renewed.json()["access_token"]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    assert api.get("/api/v1/daily").status_code == 200

    # when: the app revokes its token
    revoked = Client().post("/oauth/revoke", {"token": access, "client_id": app.client_id})

    # then: refused at once; and the used refresh token cannot be played again
    assert revoked.status_code == 200
    assert api.get("/api/v1/daily").status_code == 401
    again = {**refresh, "refresh_token": body["refresh_token"]}
    assert Client().post("/oauth/token", again).status_code == 400


def test_an_expired_access_token_is_refused_saying_so_and_a_closed_accounts_too(app, user):
    # given: an access token of the app for an hour
    access = secrets.token_urlsafe(30)
    get_access_token_model().objects.create(
        user=user, application=app, token=access, scope="game:play",
        expires=timezone.now() + dt.timedelta(hours=1),
    )  # fmt: skip
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    assert api.post("/api/v1/games", {}, "json").status_code == 201

    # when: it is used after its hour (on a page anyone may read: a token given is checked),
    # in English and in Polish
    with time_machine.travel(timezone.now() + dt.timedelta(hours=1, seconds=1)):
        expired = api.get("/api/v1/daily")
        polish = api.get("/api/v1/daily", HTTP_ACCEPT_LANGUAGE="pl")

    # then: 401 not_authenticated, saying that it expired (the app refreshes it), not that it
    # is unknown
    assert expired.status_code == 401
    error = expired.json()["error"]
    assert error["code"] == "not_authenticated"
    assert error["message"] == "This access token has expired: refresh it."
    assert polish.json()["error"]["message"] == "Ten token dostępu wygasł: odśwież go."

    # and: a token of a closed account says the account is closed
    user.is_active = False
    user.save(update_fields=["is_active"])
    closed = api.get("/api/v1/daily")
    assert closed.status_code == 401
    assert closed.json()["error"]["message"] == "This account is closed."


@pytest.mark.parametrize("method", ["plain", ""])
def test_only_s256_pkce_is_accepted(app, user, method):
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce()
    url = authorize_url(app, challenge, method=method)
    if not method:
        url = re.sub(r"&code_challenge=[^&]*&code_challenge_method=", "", url)

    response = browser.get(url)

    # refused: back to the app with an error, or an error page, never a consent form
    if response.status_code == 302:
        assert "error=" in response["Location"] and "code=" not in response["Location"]
    else:
        assert "authorizationForm" not in response.content.decode()


def test_a_player_who_denies_sends_the_app_away_without_a_code(app, user):
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce()
    html = browser.get(authorize_url(app, challenge)).content.decode()

    denied = browser.post(authorize_url(app, challenge), hidden_fields(html))

    assert denied.status_code == 302
    assert "error=access_denied" in denied["Location"] and "code=" not in denied["Location"]


def test_the_consent_page_asks_the_anonymous_to_sign_in_first(app, db):
    _verifier, challenge = pkce()

    response = Client().get(authorize_url(app, challenge))

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_server_metadata_says_where_and_what(db):
    response = Client().get("/.well-known/oauth-authorization-server")

    assert response.status_code == 200
    meta = response.json()
    assert meta["authorization_endpoint"] == "http://testserver/oauth/authorize"
    assert meta["token_endpoint"] == "http://testserver/oauth/token"
    assert meta["revocation_endpoint"] == "http://testserver/oauth/revoke"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    # public clients (PKCE, no secret) included
    assert set(meta["token_endpoint_auth_methods_supported"]) == {
        "client_secret_post",
        "client_secret_basic",
        "none",
    }
    assert meta["response_types_supported"] == ["code"]
    assert meta["scopes_supported"] == sorted(
        ["account:read", "account:write", "game:play", "board:read"]
    )
