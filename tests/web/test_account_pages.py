"""The account's pages and the OAuth consent page in a real browser, under the site's CSP:
API keys (made, shown once, used, revoked), an app's consent (PKCE, the code handed back),
password change, export download and deletion with its confirmation."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

from tests import net
from tests.web.helpers import PASSWORD, api, sign_up, unique_name
from tests.web.test_csp import Watcher


def test_a_key_used_through_the_api_shows_when_on_the_keys_page(new_context, base_url):
    # given: a key made on the keys page, never used: its "Last used" is a dash
    page = new_context().new_page()
    sign_up(page, unique_name("used"))
    page.goto("/account/keys/")
    page.fill("#id_name", "reader bot")
    page.check("input[value='game:play']")
    with page.expect_navigation():
        page.click("main form:not(.inline) button[type=submit]")
    key = page.locator("#new-key").inner_text()
    last_used = page.locator("table.keys tr", has_text="reader bot").locator("td").nth(5)
    assert last_used.inner_text() == "—"

    # when: a program uses it through the API
    used = net.post(f"{base_url}/api/v1/games", json={}, headers={"Authorization": f"Token {key}"})
    assert used.status_code == 201, used.text

    # then: the keys page shows when, as the API lists it (the site's time zone is UTC)
    listed = api(page, "GET", "account/tokens")
    assert listed["status"] == 200, listed
    (entry,) = [each for each in listed["body"] if each["name"] == "reader bot"]
    when = dt.datetime.fromisoformat(entry["last_used"]).astimezone(dt.UTC)
    page.goto("/account/keys/")
    assert last_used.inner_text() == when.strftime("%Y-%m-%d %H:%M")


def test_keys_consent_password_export_and_deletion_pages(new_context, base_url, run_on_server):
    context = new_context(locale="hu-HU")
    watcher = Watcher(context, base_url)
    page = context.new_page()
    name = unique_name("acct")
    sign_up(page, name)
    http = httpx.Client(base_url=f"{base_url}/api/v1")

    # keys: make one with two scopes, shown once, in Hungarian
    page.goto("/account/keys/")
    assert "API-kulcsok" in page.content()
    page.fill("#id_name", "my bot")
    page.check("input[value='game:play']")
    page.check("input[value='board:read']")
    page.fill("#id_days", "7")
    with page.expect_navigation():
        page.click("main form:not(.inline) button[type=submit]")
    key = page.locator("#new-key").inner_text()
    watcher.check(page, "keys page")
    bearer = {"Authorization": f"Bearer {key}"}
    assert http.post("/games", json={}, headers=bearer).status_code == 201
    refused = http.get("/account", headers=bearer)
    assert refused.json()["error"]["params"] == {"missing_scope": "account:read"}
    page.goto("/account/keys/")
    assert key not in page.content() and "my bot" in page.content()

    # ... and revoke it: the API refuses it at once
    with page.expect_navigation():
        page.locator("tr", has_text="my bot").locator("button").click()
    assert "my bot" not in page.content()
    assert http.get("/games", headers=bearer).status_code == 401

    # an app's consent page: the player allows, the app gets its code back
    callback = f"{base_url}/oauth-test-callback"
    client_id = run_on_server(
        "from oauth2_provider.models import get_application_model; "
        "app = get_application_model().objects.create(name='Solver Buddy', "
        "client_type='public', authorization_grant_type='authorization-code', "
        f"redirect_uris={callback!r}); print(app.client_id)"
    ).split()[-1]
    verifier = secrets.token_urlsafe(48)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": callback,
        "scope": "board:read",
        "state": "xyz",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    page.goto("/oauth/authorize?" + urlencode(query))
    assert "Solver Buddy" in page.content() and "Engedélyezem" in page.content()
    watcher.check(page, "consent page")
    with page.expect_navigation():
        page.click("button[name=allow]")
    returned = parse_qs(urlsplit(page.url).query)
    assert page.url.startswith(callback) and returned["state"] == ["xyz"]
    token = net.post(
        f"{base_url}/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": returned["code"][0],
            "redirect_uri": callback,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    ).json()["access_token"]
    assert http.get("/daily", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    watcher.problems.clear()  # the callback is this server's 404 page: the app's business

    # the export: one line per game, with its actions
    page.goto("/account/password/")
    with page.expect_download() as download:
        page.click("a[href='/api/v1/account/export']")
    lines = download.value.path().read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["actions"] == []

    # password change: the page stays signed in
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", "a-brand-new-felt-77")
    page.fill("#id_new_password2", "a-brand-new-felt-77")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.locator("[role=status]").count() == 1
    watcher.check(page, "password page")

    # deletion asks for the password and a confirmation, then the name is gone
    page.goto("/account/delete/")
    page.fill("#id_password", "a-brand-new-felt-77")
    page.check("#id_confirm")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    watcher.check(page, "deletion page")
    assert http.get(f"/players/{name}").status_code == 404
    assert page.evaluate("document.body.dataset.user") == ""
