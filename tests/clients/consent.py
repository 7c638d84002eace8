"""What an OAuth app's player does on the site, over HTTP as a browser does it (the live server
of tests/clients/conftest.py): an app registers itself, the player signs in with the login form
and allows the app on the consent page."""

from __future__ import annotations

import re
import secrets
from typing import Any

import httpx

from tests import net
from tests.accounts.test_oauth import hidden_fields

# The loopback redirect of a native app (docs/api.md "Accounts": http to 127.0.0.1, any port).
REDIRECT = "http://127.0.0.1/callback"


def an_address() -> str:
    """A client address of its own (the server trusts one proxy): registrations and sign-ins
    are limited per address."""
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def app_register(base_url: str) -> str:
    """A new public client (POST /oauth/register): its client_id."""
    answer = net.post(
        f"{base_url}/oauth/register",
        json={"client_name": "Test App", "redirect_uris": [REDIRECT]},
        headers={"X-Forwarded-For": an_address()},
    )
    assert answer.status_code == 201, answer.text
    client_id: str = answer.json()["client_id"]
    return client_id


def signed_in(base_url: str, username: str, password: str) -> httpx.Client:
    """A browser-like HTTP client signed in with the site's login form."""
    browser = httpx.Client(base_url=base_url, headers={"X-Forwarded-For": an_address()})
    form = browser.get("/accounts/login/").text
    signed = browser.post(
        "/accounts/login/",
        data={"csrfmiddlewaretoken": _csrf(form), "username": username, "password": password},
    )
    assert signed.status_code == 302, signed.text[:500]
    return browser


def allow(browser: httpx.Client, url: str) -> str:
    """The signed-in player allows what `url` (an authorization URL) asks: the URL the site
    sends the player back to."""
    page = browser.get(url)
    assert page.status_code == 200 and "authorizationForm" in page.text, page.text[:500]
    fields = {**hidden_fields(page.text), "csrfmiddlewaretoken": _csrf(page.text)}
    answer = browser.post(url, data={**fields, "allow": "1"})
    assert answer.status_code == 302, answer.text[:500]
    location: str = answer.headers["Location"]
    return location


def access_token_expire(run_on_server: Any, token: str) -> None:
    """The OAuth access token's hour is over, as the server's clock sees it."""
    out = run_on_server(
        "from django.utils import timezone; from oauth2_provider.models import AccessToken; "
        "from accounts.services import key_hash; print(AccessToken.objects.filter("
        f"token_checksum=key_hash({token!r})).update(expires=timezone.now()))"
    )
    assert out.splitlines()[-1] == "1"


def _csrf(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, html[:500]
    return found[1]
