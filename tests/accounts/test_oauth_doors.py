"""OAuth's password doors and grants (accounts/oauth.py's Validator): a public client's secret is
refused without a hash; a re-used authorization code revokes the tokens first issued from it
(RFC 6749 4.1.2); a key made with an OAuth token expires no later than its grant and dies
with it."""

import base64
import datetime as dt
from unittest import mock
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider import oauth2_validators
from oauth2_provider.models import get_application_model
from oauth2_provider.settings import oauth2_settings
from rest_framework.test import APIClient

from accounts.models import ApiKey
from tests.accounts.test_oauth import REDIRECT, authorize_url, hidden_fields, pkce


@pytest.fixture
def hashes():
    """Every client-secret check the toolkit makes (its only password hash), counted."""
    with mock.patch.object(
        oauth2_validators, "check_password", wraps=oauth2_validators.check_password
    ) as check:
        yield check


def basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


def code_for(app, user, scope: str) -> tuple[str, str]:
    """An authorization code the signed-in `user` gave `app` for `scope`, and its verifier."""
    browser = Client()
    browser.force_login(user)
    verifier, challenge = pkce()
    page = browser.get(authorize_url(app, challenge, scope=scope))
    allowed = browser.post(
        authorize_url(app, challenge, scope=scope),
        {**hidden_fields(page.content.decode()), "allow": "1"},
    )
    return parse_qs(urlparse(allowed["Location"]).query)["code"][0], verifier


def exchange(app, code: str, verifier: str):
    return Client().post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": app.client_id,
            "code_verifier": verifier,
        },
    )


def bearer(access: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    return api


@pytest.mark.parametrize("where", ["body", "basic"])
@pytest.mark.parametrize("door", ["/oauth/token", "/oauth/revoke"])
def test_a_public_clients_secret_is_refused_without_a_hash(public_app, hashes, door, where):
    # given: junk where a confidential client would put its secret
    body = {"grant_type": "refresh_token", "refresh_token": "x" * 30, "token": "y" * 30}
    headers = {}
    if where == "body":
        body |= {"client_id": public_app.client_id, "client_secret": "junk-secret-42"}
    else:
        headers["HTTP_AUTHORIZATION"] = basic(public_app.client_id, "junk-secret-42")

    # when
    answer = Client().post(door, body, **headers)

    # then: refused as an unknown client, and nothing was hashed
    assert answer.status_code == 401, answer.content
    assert answer.json()["error"] == "invalid_client"
    assert hashes.call_count == 0


def test_a_confidential_clients_secret_is_checked(db, hashes):
    # given: a confidential client (the counter sees its hashes)
    app = get_application_model().objects.create(
        name="Server App",
        client_type="confidential",
        authorization_grant_type="authorization-code",
        redirect_uris=REDIRECT,
        client_secret="the-real-secret",
    )

    # when: a wrong secret
    answer = Client().post(
        "/oauth/token",
        {"grant_type": "refresh_token", "refresh_token": "x" * 30},
        HTTP_AUTHORIZATION=basic(app.client_id, "wrong"),
    )

    # then: one hash, refused
    assert answer.status_code == 401
    assert hashes.call_count == 1


def test_a_reused_code_revokes_the_tokens_first_issued_from_it(public_app, user):
    # given: an app that traded its code for tokens
    code, verifier = code_for(public_app, user, "game:play board:read")
    first = exchange(public_app, code, verifier)
    assert first.status_code == 200, first.content
    tokens = first.json()
    assert bearer(tokens["access_token"]).get("/api/v1/daily").status_code == 200

    # when: the code comes again (stolen, replayed)
    again = exchange(public_app, code, verifier)

    # then: refused, and the first tokens are dead: access and refresh alike
    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"
    assert bearer(tokens["access_token"]).get("/api/v1/daily").status_code == 401
    refreshed = Client().post(
        "/oauth/token",
        {
            "grant_type": "refresh_token",
            "client_id": public_app.client_id,
            "refresh_token": tokens["refresh_token"],
        },
    )
    assert refreshed.status_code == 400


def make_key(access: str, days: int | None = None):
    body: dict = {"name": "from the app", "scopes": ["game:play", "board:read"]}
    if days is not None:
        body["days"] = days
    return bearer(access).post("/api/v1/account/tokens", body, "json")


def test_a_key_made_with_an_oauth_token_expires_with_its_grant(public_app, user):
    # given: an app with account:write
    code, verifier = code_for(public_app, user, "account:read account:write game:play board:read")
    tokens = exchange(public_app, code, verifier).json()
    grant_ends = timezone.now() + dt.timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)

    # when: it makes a key that would never expire, and one for ten years
    forever = make_key(tokens["access_token"])
    long = make_key(tokens["access_token"], days=3650)

    # then: both expire no later than the grant
    assert forever.status_code == 201 and long.status_code == 201, forever.content
    for made in (forever, long):
        expires = dt.datetime.fromisoformat(made.json()["expires"])
        assert expires <= grant_ends
    assert bearer(forever.json()["token"]).get("/api/v1/daily").status_code == 200


@pytest.mark.parametrize("how", ["revoke access", "revoke refresh", "reuse code"])
def test_a_key_made_with_an_oauth_token_dies_with_its_grant(public_app, user, how):
    # given: a key the app made with its token, working, and a key of the owner's own
    code, verifier = code_for(public_app, user, "account:read account:write game:play board:read")
    tokens = exchange(public_app, code, verifier).json()
    made = make_key(tokens["access_token"], days=30)
    key = bearer(made.json()["token"])
    assert key.get("/api/v1/daily").status_code == 200
    own = Client()
    own.force_login(user)

    # when: the grant ends
    if how == "reuse code":
        assert exchange(public_app, code, verifier).status_code == 400
    else:
        token = tokens["access_token" if how == "revoke access" else "refresh_token"]
        revoked = Client().post(
            "/oauth/revoke", {"token": token, "client_id": public_app.client_id}
        )
        assert revoked.status_code == 200

    # then: the key answers 401 at once; the owner's session is untouched
    assert key.get("/api/v1/daily").status_code == 401
    assert own.get("/api/v1/account").status_code == 200
    assert ApiKey.objects.filter(user=user).count() == 1  # listed until revoked, dead


def test_a_key_made_with_a_key_is_tied_to_no_grant(user, client_for):
    # given: a key of the owner's (no OAuth)
    api = client_for(user)

    # when
    made = api.post("/api/v1/account/tokens", {"name": "k", "scopes": ["board:read"]}, "json")

    # then: it never expires and no grant ends it
    assert made.status_code == 201
    assert made.json()["expires"] is None
    assert ApiKey.objects.get(id=made.json()["id"]).oauth_family is None


@pytest.mark.parametrize("where", ["basic", "body", "body without a secret"])
@pytest.mark.parametrize("client_id", ["a\x00b", "no-such-client"])
def test_a_client_id_no_client_has_is_refused_cleanly(db, hashes, client_id, where):
    body = {"grant_type": "refresh_token", "refresh_token": "x" * 30}
    headers = {}
    if where == "basic":
        headers["HTTP_AUTHORIZATION"] = basic(client_id, "junk")
    else:
        body["client_id"] = client_id
        if where == "body":
            body["client_secret"] = "junk"

    answer = Client().post("/oauth/token", body, **headers)

    assert answer.status_code == 401, answer.content
    assert answer.json()["error"] == "invalid_client"
    assert hashes.call_count == 0
