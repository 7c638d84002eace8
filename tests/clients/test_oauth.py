"""The Python client's OAuth helpers (canfield_client.oauth) against a real server: an app that
registered itself sends a player to the consent page with PKCE (S256) and a state, gets the
tokens for the code, plays with them, refreshes (rotation: the old refresh token is refused)
when the access token has expired (the blocking and the asyncio client), and loses its access
on revocation."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
from urllib.parse import parse_qs, urlsplit

import pytest
from canfield_client import Client, NotAuthenticated
from canfield_client.oauth import OAuthApp, OAuthError, Tokens

from tests.clients.consent import (
    REDIRECT,
    access_token_expire,
    allow,
    app_register,
    signed_in,
)
from tests.web.helpers import PASSWORD, unique_name

SCOPES = ("account:read", "game:play")


@pytest.fixture
def authorized(base_url):
    """An app, and a player who allowed it on the consent page: (app, the tokens, the name)."""
    username = unique_name("oauth")
    with Client(base_url) as client:
        client.register(username, PASSWORD)
    app = OAuthApp(base_url, client_id=app_register(base_url), redirect_uri=REDIRECT)
    asked = app.authorization(SCOPES)
    browser = signed_in(base_url, username, PASSWORD)
    back = allow(browser, asked.url)
    browser.close()
    yield app, app.fetch_token(asked, back), username
    app.close()


def test_the_authorization_url_carries_a_fresh_s256_challenge_and_state():
    app = OAuthApp("https://canfield.example", client_id="an-app", redirect_uri=REDIRECT)

    first, second = app.authorization(SCOPES), app.authorization(SCOPES)

    url = urlsplit(first.url)
    query = {name: values[0] for name, values in parse_qs(url.query).items()}
    digest = hashlib.sha256(first.code_verifier.encode()).digest()
    assert f"{url.scheme}://{url.netloc}{url.path}" == "https://canfield.example/oauth/authorize"
    assert query == {
        "response_type": "code",
        "client_id": "an-app",
        "redirect_uri": REDIRECT,
        "scope": "account:read game:play",
        "state": first.state,
        "code_challenge": base64.urlsafe_b64encode(digest).rstrip(b"=").decode(),
        "code_challenge_method": "S256",
    }
    assert len(first.code_verifier) == 43 and first.code_verifier not in first.url
    assert first.state != second.state and first.code_verifier != second.code_verifier


def test_code_tokens_a_call_then_expiry_refreshes_once_and_rotates(authorized, run_on_server):
    app, tokens, username = authorized
    assert tokens.access_token.startswith("cfo_") and tokens.refresh_token
    assert tokens.refresh_token.startswith("cfr_") and set(tokens.scopes) == set(SCOPES)
    saved: list[Tokens] = []
    with app.client(tokens, update_token=saved.append) as client:
        # an API call with the access token
        assert client.account().username == username
        game = client.new_game()
        assert saved == []

        # when: the access token expires
        access_token_expire(run_on_server, tokens.access_token)
        # (what the server answers an expired token)
        with (
            Client(app.server, token=tokens.access_token) as plain,
            pytest.raises(NotAuthenticated),
        ):
            plain.account()

        # then: the OAuth client refreshes once, keeps the new tokens and retries
        assert client.game(game.id).id == game.id
        [renewed] = saved
        assert client.token == renewed.access_token != tokens.access_token
        assert renewed.refresh_token not in (None, tokens.refresh_token)

        # a stream opened with an expired token is refreshed the same way
        client.resign(game)
        access_token_expire(run_on_server, renewed.access_token)
        assert [event.type for event in client.game_stream(game)] == ["game", "end"]
        assert len(saved) == 2 and client.token == saved[1].access_token

        # the old refresh token is refused (rotation); its re-use ends the whole grant
        # (the server's re-use detection), so the client's renewal is refused too
        assert tokens.refresh_token is not None
        with pytest.raises(OAuthError) as refused:
            app.refresh_token(tokens.refresh_token)
        assert refused.value.error == "invalid_grant" and refused.value.status == 400
        with pytest.raises(OAuthError) as ended:
            client.account()
        assert ended.value.error == "invalid_grant"


def test_the_asyncio_client_refreshes_an_expired_token_once_too(authorized, run_on_server):
    app, tokens, username = authorized
    saved: list[Tokens] = []

    async def play() -> tuple[list[str], list[str]]:
        async with app.async_client(tokens, update_token=saved.append) as client:
            game = await client.new_game()
            # when: the access token expires, and two requests meet the 401 at once
            access_token_expire(run_on_server, tokens.access_token)
            names = [
                account.username
                for account in await asyncio.gather(client.account(), client.account())
            ]
            # and a stream is opened with an expired token
            await client.resign(game)
            access_token_expire(run_on_server, saved[0].access_token)
            events = [event.type async for event in client.game_stream(game)]
            assert client.token == saved[-1].access_token
            return names, events

    names, events = asyncio.run(play())

    # then: both requests answered after one refresh; the stream after a second
    assert names == [username, username]
    assert events == ["game", "end"]
    assert len(saved) == 2
    assert saved[0].access_token != tokens.access_token
    assert saved[1].refresh_token not in (None, saved[0].refresh_token, tokens.refresh_token)


def test_a_refresh_rotates_and_a_revoked_grant_answers_401(authorized):
    app, tokens, username = authorized
    assert tokens.refresh_token is not None

    renewed = app.refresh_token(tokens.refresh_token)

    assert renewed.refresh_token not in (None, tokens.refresh_token)
    with Client(app.server, token=renewed.access_token) as client:
        assert client.account().username == username
        # when: the app revokes its refresh token (and with it the access token)
        assert renewed.refresh_token is not None
        app.revoke_token(renewed.refresh_token, hint="refresh_token")
        # then
        with pytest.raises(NotAuthenticated) as answered:
            client.account()
        assert answered.value.status == 401
    with pytest.raises(OAuthError) as refused:
        app.refresh_token(renewed.refresh_token)
    assert refused.value.error == "invalid_grant"


def test_a_redirect_of_another_state_or_a_denial_gives_no_token(base_url):
    app = OAuthApp(base_url, client_id=app_register(base_url), redirect_uri=REDIRECT)
    asked = app.authorization(["board:read"])
    forged = dataclasses.replace(asked, state="another")

    with pytest.raises(OAuthError) as mismatch:
        app.fetch_token(forged, f"{REDIRECT}?code=abc&state={asked.state}")
    with pytest.raises(OAuthError) as denied:
        app.fetch_token(asked, f"{REDIRECT}?error=access_denied&state={asked.state}")

    assert mismatch.value.error == "state_mismatch"
    assert denied.value.error == "access_denied"
    app.close()


def test_a_live_event_socket_refreshes_an_expired_token_and_resumes(authorized, run_on_server):
    app, tokens, _ = authorized
    saved: list[Tokens] = []
    with (
        app.client(tokens, update_token=saved.append) as client,
        client.live_account_events() as live,
    ):
        # when: the access token expires with the socket open, and a game starts (its request
        # refreshed once: the server reads the socket's next event only for a live credential)
        access_token_expire(run_on_server, tokens.access_token)
        game = client.new_game()
        [renewed] = saved

        # then: the socket, closed with 4401, reopens with the client's new token after the
        # last event it gave: the game's start comes, and no second refresh was made
        event = live.receive(timeout=30)
        assert (event.type, event.data["game"]) == ("game_started", game.id)
        assert live.connections == 2 and saved == [renewed]


def test_an_asyncio_live_event_socket_refreshes_an_expired_token_too(authorized, run_on_server):
    app, tokens, _ = authorized
    saved: list[Tokens] = []

    async def listen() -> tuple[str, str, int]:
        async with (
            app.async_client(tokens, update_token=saved.append) as client,
            client.live_account_events() as live,
        ):
            access_token_expire(run_on_server, tokens.access_token)
            game = await client.new_game()
            event = await asyncio.wait_for(anext(live), 30)
            assert event.data["game"] == game.id
            return event.type, client.token, live.connections

    kind, token, connections = asyncio.run(listen())

    assert (kind, connections) == ("game_started", 2)
    assert [renewed.access_token for renewed in saved] == [token]
