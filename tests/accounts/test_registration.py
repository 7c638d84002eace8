"""Apps that register themselves (RFC 7591, accounts/oauth.py's RegisterView): public PKCE clients
only, https or loopback redirect URIs, limited per address; the consent page says nobody
checked them; native apps' loopback redirects match any port (RFC 8252 7.3)."""

import json
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from django.test import Client, override_settings
from oauth2_provider.models import get_application_model

from tests.accounts.test_oauth import hidden_fields, pkce
from tests.accounts.test_oauth_doors import bearer

CALLBACK = "https://solver.example/callback"


def register(body, **headers):
    return Client(**headers).post(
        "/oauth/register",
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
    )


def authorize(client_id: str, redirect_uri: str, challenge: str, scope: str = "board:read"):
    return "/oauth/authorize?" + urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": scope,
            "state": "st-1",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )


def allow(browser: Client, client_id: str, redirect_uri: str, scope: str = "board:read"):
    """The signed-in `browser` allows the app: the consent page, its answer and the verifier."""
    verifier, challenge = pkce()
    page = browser.get(authorize(client_id, redirect_uri, challenge, scope))
    assert page.status_code == 200, page.content
    answer = browser.post(
        authorize(client_id, redirect_uri, challenge, scope),
        {**hidden_fields(page.content.decode()), "allow": "1"},
    )
    return page, answer, verifier


def test_an_app_registers_itself_and_a_player_allows_it_with_pkce(user, db):
    # given: an app nobody at the site knows registers itself
    registered = register(
        {
            "client_name": "Solver Buddy",
            "redirect_uris": [CALLBACK],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none",
            "logo_uri": "https://solver.example/logo.png",  # not used: ignored (RFC 7591 2)
        }
    )

    # then: a public client, no secret
    assert registered.status_code == 201
    body = registered.json()
    assert body["client_name"] == "Solver Buddy" and body["redirect_uris"] == [CALLBACK]
    assert body["token_endpoint_auth_method"] == "none" and "client_secret" not in body
    assert body["grant_types"] == ["authorization_code", "refresh_token"]
    assert isinstance(body["client_id_issued_at"], int) and "logo_uri" not in body
    client_id = body["client_id"]

    # when: a player signed in on the site is sent to the consent page, reading Hungarian
    browser = Client(HTTP_ACCEPT_LANGUAGE="hu")
    browser.force_login(user)
    page, answer, verifier = allow(browser, client_id, CALLBACK, "board:read game:play")

    # then: the page says, in Hungarian, that nobody checked the app, and where it goes back
    html = page.content.decode()
    assert "Nem ellenőrzött alkalmazás." in html and "solver.example" in html

    # when: the player allows it and the app trades the code and its verifier
    assert answer.status_code == 302
    code = parse_qs(urlparse(answer["Location"]).query)["code"][0]
    tokens = Client().post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": CALLBACK,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )

    # then: tokens that play, and the keys page lists the app as unverified
    assert tokens.status_code == 200, tokens.content
    access = tokens.json()["access_token"]
    assert access.startswith("cfo_")
    assert bearer(access).post("/api/v1/games", {}, format="json").status_code == 201
    keys_page = browser.get("/account/keys/").content.decode()
    assert "Solver Buddy" in keys_page and "nem ellenőrzött" in keys_page

    # when: the app refreshes its token
    refreshed = Client().post(
        "/oauth/token",
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens.json()["refresh_token"],
            "client_id": client_id,
        },
    )

    # then: a new access token (rotation)
    assert refreshed.status_code == 200
    assert bearer(refreshed.json()["access_token"]).get("/api/v1/daily").status_code == 200


def test_a_staff_registered_app_is_not_called_unverified(public_app, user):
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    browser.force_login(user)
    _verifier, challenge = pkce()

    html = browser.get(
        authorize(public_app.client_id, "https://app.example/callback", challenge)
    ).content.decode()

    assert "Solver Buddy" in html and "Niezweryfikowana aplikacja." not in html


def test_the_consent_page_says_unverified_in_polish(user, db):
    client_id = register({"client_name": "Bot", "redirect_uris": [CALLBACK]}).json()["client_id"]
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    browser.force_login(user)
    _verifier, challenge = pkce()

    html = browser.get(authorize(client_id, CALLBACK, challenge)).content.decode()

    assert "Niezweryfikowana aplikacja." in html and "solver.example" in html


def test_a_self_registered_app_still_needs_pkce(user, db):
    client_id = register({"client_name": "Bot", "redirect_uris": [CALLBACK]}).json()["client_id"]
    browser = Client()
    browser.force_login(user)
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": CALLBACK}

    answer = browser.get("/oauth/authorize?" + urlencode(query))

    # the app is told (its redirect URI is registered): no code without a challenge
    assert answer.status_code == 302
    assert parse_qs(urlparse(answer["Location"]).query)["error"] == ["invalid_request"]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            {
                "client_name": "X",
                "redirect_uris": [CALLBACK],
                "token_endpoint_auth_method": "client_secret_basic",
            },
            "invalid_client_metadata",
        ),
        (
            {
                "client_name": "X",
                "redirect_uris": [CALLBACK],
                "grant_types": ["client_credentials"],
            },
            "invalid_client_metadata",
        ),
        (
            {"client_name": "X", "redirect_uris": [CALLBACK], "response_types": ["token"]},
            "invalid_client_metadata",
        ),
        ({"redirect_uris": [CALLBACK]}, "invalid_client_metadata"),
        ({"client_name": "x" * 101, "redirect_uris": [CALLBACK]}, "invalid_client_metadata"),
        ({"client_name": "X"}, "invalid_redirect_uri"),
        ({"client_name": "X", "redirect_uris": []}, "invalid_redirect_uri"),
        ({"client_name": "X", "redirect_uris": [CALLBACK] * 11}, "invalid_redirect_uri"),
        (
            {"client_name": "X", "redirect_uris": ["http://solver.example/cb"]},
            "invalid_redirect_uri",
        ),
        (
            {"client_name": "X", "redirect_uris": ["http://localhost:8080/cb"]},
            "invalid_redirect_uri",
        ),
        ({"client_name": "X", "redirect_uris": [CALLBACK + "#top"]}, "invalid_redirect_uri"),
        (
            {"client_name": "X", "redirect_uris": ["https://a.example/cb https://b.example/cb"]},
            "invalid_redirect_uri",
        ),
        ({"client_name": "X", "redirect_uris": ["https:///cb"]}, "invalid_redirect_uri"),
        (
            {"client_name": "X", "redirect_uris": ["https://a.example:99999/cb"]},
            "invalid_redirect_uri",
        ),
        ({"client_name": "X", "redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri"),
        ([CALLBACK], "invalid_client_metadata"),
        ("{not json", "invalid_client_metadata"),
        ("[" * 100_000, "invalid_client_metadata"),
        (
            '{"client_name": "\u0000", "redirect_uris": ["https://a.example/cb"]}',
            "invalid_client_metadata",
        ),
        (
            {"client_name": "X", "redirect_uris": ["https://a.example/\u0000"]},
            "invalid_redirect_uri",
        ),
    ],
)
@override_settings(OAUTH_REDIRECT_SCHEMES=["https"])
def test_what_cannot_register_is_refused_in_the_rfc_s_words(db, body, error):
    # when
    answer = register(body)

    # then: 400 with RFC 7591's error, and nothing registered
    assert answer.status_code == 400
    assert answer.json()["error"] == error and answer.json()["error_description"]
    assert not get_application_model().objects.exists()


@override_settings(OAUTH_REDIRECT_SCHEMES=["https"])
def test_a_refusal_is_explained_in_the_callers_language(db):
    answer = register(
        {"client_name": "X", "redirect_uris": ["http://solver.example/cb"]},
        HTTP_ACCEPT_LANGUAGE="hu",
    )

    assert answer.status_code == 400
    assert "http://solver.example/cb" in answer.json()["error_description"]
    assert "redirect URI must" not in answer.json()["error_description"]


@pytest.mark.usefixtures("hour_to_spare")
@override_settings(OAUTH_REGISTER_LIMIT=2)
def test_registrations_are_limited_per_address(db):
    body = {"client_name": "Spam", "redirect_uris": [CALLBACK]}
    # given: an address registered its 2 apps this hour
    assert [register(body).status_code for _ in range(2)] == [201, 201]

    # when: it registers another, and another address registers one
    third = register(body, HTTP_ACCEPT_LANGUAGE="pl")
    other = register(body, REMOTE_ADDR="198.51.100.7")

    # then: 429 with when to come back (in Polish); the other address is not affected
    assert third.status_code == 429
    assert third.json()["error"] == "throttled"
    assert 0 < int(third["Retry-After"]) <= 3600
    assert "Spróbuj" in third.json()["error_description"]
    assert other.status_code == 201
    assert get_application_model().objects.count() == 3


def test_the_metadata_names_the_registration_endpoint(client, db):
    metadata = client.get("/.well-known/oauth-authorization-server").json()

    assert metadata["registration_endpoint"] == "http://testserver/oauth/register"
    assert metadata["token_endpoint_auth_methods_supported"][-1] == "none"
    assert metadata["code_challenge_methods_supported"] == ["S256"]


def test_registration_takes_only_a_post(client, db):
    assert client.get("/oauth/register").status_code == 405


# ---- loopback redirects of native apps (RFC 8252 7.3) ------------------------------------------


@pytest.mark.parametrize(
    ("registered", "used"),
    [
        ("http://127.0.0.1/cb", "http://127.0.0.1:53121/cb"),
        ("http://[::1]/cb", "http://[::1]:8765/cb"),
        ("http://127.0.0.1:9000/cb", "http://127.0.0.1:61000/cb"),
    ],
)
@override_settings(OAUTH_REDIRECT_SCHEMES=["https"])
def test_a_native_app_gets_its_code_on_any_loopback_port(user, db, registered, used):
    # given: a native app registered a loopback redirect (production: https elsewhere)
    answer = register({"client_name": "Desktop", "redirect_uris": [registered]})
    assert answer.status_code == 201
    client_id = answer.json()["client_id"]
    browser = Client()
    browser.force_login(user)

    # when: it listens on a port the system gave it, and the player allows it
    _page, allowed, verifier = allow(browser, client_id, used)

    # then: the code goes to that port, and trades for a token there
    assert allowed.status_code == 302 and allowed["Location"].startswith(used + "?")
    code = parse_qs(urlparse(allowed["Location"]).query)["code"][0]
    tokens = Client().post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": used,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    assert tokens.status_code == 200


@pytest.mark.parametrize(
    "used",
    ["http://127.0.0.1:53121/other", "http://localhost:53121/cb", "http://[::1]:53121/cb"],
)
@override_settings(OAUTH_REDIRECT_SCHEMES=["https"])
def test_a_loopback_redirect_matches_only_its_host_and_path(user, db, used):
    client_id = register({"client_name": "Desktop", "redirect_uris": ["http://127.0.0.1/cb"]})
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce()

    page = browser.get(authorize(client_id.json()["client_id"], used, challenge))

    # shown on the site's page, never redirected
    assert page.status_code == 400 and "redirect_uri" in page.content.decode()


@override_settings(OAUTH_REDIRECT_SCHEMES=["https"])
def test_http_goes_nowhere_but_loopback_even_for_a_staff_app(user, db):
    # given: an app the staff saved with a plain http redirect (the admin's form allows http,
    # for loopback ones)
    app = get_application_model().objects.create(
        name="Old",
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris="http://old.example/cb",
    )
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce()

    # when: a player is sent to its consent page
    page = browser.get(authorize(app.client_id, "http://old.example/cb", challenge))

    # then: refused on the site's page: no code travels in clear
    assert page.status_code == 400
