"""Third-party browser apps: the API and the OAuth doors a script needs answer CORS for any
origin, never with credentials (a bearer token, not the visitor's cookies); the pages that read
the session cookie answer no CORS header at all."""

import pytest
from django.test import Client

ORIGIN = "https://any-app.example.net"

# What a browser app calls: the API, OAuth's token, revoke and register, the metadata.
CORS_DOORS = [
    ("GET", "/api/v1/daily"),
    ("POST", "/api/v1/games"),
    ("POST", "/oauth/token"),
    ("POST", "/oauth/revoke"),
    ("POST", "/oauth/register"),
    ("GET", "/.well-known/oauth-authorization-server"),
]

# The pages a session cookie opens: never a CORS answer.
COOKIE_PAGES = [
    "/",
    "/account/keys/",
    "/oauth/authorize",
    "/admin/",
    "/accounts/login/",
    "/api/docs/",
]


@pytest.mark.parametrize(("method", "path"), CORS_DOORS, ids=[p for _m, p in CORS_DOORS])
def test_a_preflight_from_any_origin_may_send_a_bearer_token(client, db, method, path):
    # when: a browser asks whether a script on another site may call with a token
    response = client.options(
        path,
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )

    # then: yes, from any origin, and never with the visitor's cookies
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert method in response["Access-Control-Allow-Methods"]
    assert "authorization" in response["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Credentials" not in response


def test_answers_expose_the_request_id_and_limits_to_any_origin(client, db):
    response = client.get("/api/v1/daily", HTTP_ORIGIN=ORIGIN)

    assert response["Access-Control-Allow-Origin"] == "*"
    exposed = response["Access-Control-Expose-Headers"].lower()
    assert "x-request-id" in exposed and "ratelimit-remaining" in exposed


def test_a_cookie_session_is_no_use_to_another_origin(user):
    # given: a visitor signed in on the site, whose browser runs another site's script
    browser = Client()
    browser.force_login(user)

    # when: the script reads the account with the visitor's cookie (credentials: "include")
    response = browser.get("/api/v1/account", HTTP_ORIGIN=ORIGIN)

    # then: the answer grants "*" without credentials, which a browser never hands a
    # credentialed request: the script cannot read it
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.parametrize("path", COOKIE_PAGES)
def test_the_pages_of_the_session_cookie_answer_no_cors(user, path):
    browser = Client()
    browser.force_login(user)

    asked = browser.get(path, HTTP_ORIGIN=ORIGIN)
    preflight = browser.options(
        path,
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type",
    )

    assert asked.status_code < 500 and preflight.status_code < 500
    for response in (asked, preflight):
        assert not [h for h in response.headers if h.lower().startswith("access-control-")]
