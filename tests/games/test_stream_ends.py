"""A game stream lives by the credential that opened it (games/streams.py): once its key is
revoked or expires, its OAuth token is revoked, or its account is deleted, the stream closes
within one keep-alive (10 s; the tests allow 12) and sends no action after that moment. Against
a real ASGI server over HTTP (uvicorn in a subprocess, tests/web/conftest.py; with REDIS_URL the
revocation is heard through Redis); and a read of the stream with a revocation and an action
landing in it, in the test process."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import httpx

from accounts import services as key_services
from games import selectors, services, stream_api, streams
from games.selectors import Credential
from tests.games.helpers import StreamLines, easy_deck, winning_actions
from tests.web.helpers import PASSWORD, unique_name

# One keep-alive (streams.IDLE_SECONDS) and a margin: a deadline for the close, not a duration.
CLOSED_WITHIN = 12.0
# What only the process's timed check sees (an expiry, a revocation inside the OAuth toolkit,
# a change made by another process without Redis): it closes at the check after it, within
# one keep-alive; the deadline leaves a loaded machine a second check's time, so that it
# waits for the event without racing the clock.
CHECKED_WITHIN = 2 * streams.IDLE_SECONDS + 5


class Player:
    """An account on the server with two API keys: `streamer` opens the stream, `actor` plays."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.name = unique_name("ends")
        answer = client.post(
            "/api/v1/auth/register", json={"username": self.name, "password": PASSWORD}
        )
        assert answer.status_code == 201, answer.text
        login = {"Authorization": f"Token {answer.json()['token']}"}
        self.streamer_id, self.streamer = self._key(login)
        self.actor_id, self.actor = self._key(login)

    def _key(self, login: dict[str, str]) -> tuple[str, dict[str, str]]:
        scopes = ["game:play", "board:read", "account:read", "account:write"]
        made = self.client.post(
            "/api/v1/account/tokens", json={"name": "t", "scopes": scopes}, headers=login
        )
        assert made.status_code == 201, made.text
        return made.json()["id"], {"Authorization": f"Token {made.json()['token']}"}

    def game(self) -> str:
        made = self.client.post(
            "/api/v1/games", json={"deck": easy_deck(), "draw": 1}, headers=self.actor
        )
        assert made.status_code == 201, made.text
        return made.json()["id"]

    def stream(self, game_id: str, headers: dict[str, str]) -> StreamLines:
        path = f"/api/v1/games/{game_id}/stream"
        lines = StreamLines(self.client, path, {**headers, "Accept": "application/x-ndjson"})
        ((_, first),) = lines.wait(1)
        assert json.loads(first)["type"] == "game", first
        return lines

    def act(self, game_id: str, n: int) -> int:
        action = winning_actions()[n]
        return self.client.post(
            f"/api/v1/games/{game_id}/actions", json=action, headers=self.actor
        ).status_code


def kinds_after(lines: StreamLines, seen: int, within: float = CLOSED_WITHIN) -> set[str]:
    """The kinds of the lines after the first `seen`, once the stream closed (within `within`
    seconds from now)."""
    after = lines.wait_closed(within)[seen:]
    lines.thread.join(5)
    return {json.loads(line)["type"] if line else "keep-alive" for line in after}


def test_a_revoked_key_s_stream_closes_and_sends_no_action_after_the_revocation(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: a stream of a game opened with one key, and an action that reached it
        player = Player(client)
        game_id = player.game()
        lines = player.stream(game_id, player.streamer)
        assert player.act(game_id, 0) == 200
        assert json.loads(lines.wait(2)[-1][1])["type"] == "action"
        seen = len(lines.received)

        # when: the key is revoked, and the game moves on at once (with the other key)
        path = f"/api/v1/account/tokens/{player.streamer_id}"
        assert client.delete(path, headers=player.actor).status_code == 204
        assert player.act(game_id, 1) == 200

        # then: the stream closes, without the action after the revocation
        assert kinds_after(lines, seen) <= {"keep-alive"}
        again = client.get(f"/api/v1/games/{game_id}/stream", headers=player.streamer)
        assert again.status_code == 401


def test_an_expired_key_s_stream_closes_within_a_keep_alive(base_url, run_on_server):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given
        player = Player(client)
        game_id = player.game()
        lines = player.stream(game_id, player.streamer)

        # when: the key's expiry comes now (no event tells the server: its check finds it)
        run_on_server(
            "from django.utils import timezone; from accounts.models import ApiKey; "
            f"ApiKey.objects.filter(id={player.streamer_id!r}).update(expires=timezone.now())"
        )

        # then
        assert kinds_after(lines, 1, CHECKED_WITHIN) <= {"keep-alive"}
        answer = client.get(f"/api/v1/games/{game_id}", headers=player.streamer)
        assert answer.status_code == 401


def _oauth_token(run: Callable[[str], str], username: str) -> tuple[str, str]:
    """An app's access token for `username` (as the authorization-code flow would leave it,
    tests/accounts/test_oauth.py walks that flow): (the token, the app's client id)."""
    token, client_id = secrets.token_urlsafe(24), secrets.token_hex(8)
    run(
        "import datetime; from django.utils import timezone; "
        "from django.contrib.auth import get_user_model; "
        "from oauth2_provider.models import get_access_token_model, get_application_model; "
        f"user = get_user_model().objects.get(username={username!r}); "
        "app = get_application_model().objects.create(name='a', client_type='public', "
        f"client_id={client_id!r}, authorization_grant_type='authorization-code', "
        "redirect_uris='https://app.example/cb'); "
        "get_access_token_model().objects.create(user=user, application=app, "
        f"token={token!r}, scope='game:play board:read', "
        "expires=timezone.now() + datetime.timedelta(hours=1))"
    )
    return token, client_id


def test_a_revoked_oauth_token_s_stream_closes_within_a_keep_alive(base_url, run_on_server):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: a stream opened with an app's OAuth token
        player = Player(client)
        game_id = player.game()
        token, client_id = _oauth_token(run_on_server, player.name)
        lines = player.stream(game_id, {"Authorization": f"Bearer {token}"})

        # when: the app revokes it (django-oauth-toolkit's endpoint: the server's timed check
        # finds it)
        revoked = client.post("/oauth/revoke", data={"token": token, "client_id": client_id})
        assert revoked.status_code == 200, revoked.text

        # then
        assert kinds_after(lines, 1, CHECKED_WITHIN) <= {"keep-alive"}


def test_a_deleted_account_s_stream_closes_within_a_keep_alive(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given
        player = Player(client)
        game_id = player.game()
        lines = player.stream(game_id, player.streamer)

        # when: (the deletion tells every process at once)
        deleted = client.request(
            "DELETE", "/api/v1/account", json={"password": PASSWORD}, headers=player.actor
        )
        assert deleted.status_code == 204, deleted.text

        # then
        assert kinds_after(lines, 1) <= {"keep-alive"}


def test_a_read_sends_no_action_of_a_revocation_that_lands_just_after_its_credential_check(
    user, monkeypatch
):
    # given: a game, its stream's key, and the stream's read of the game (in its worker thread)
    game = services.game_create(owner=user, draw=1, deck=easy_deck())
    key, _ = key_services.key_create(user=user, name="stream")
    credential = Credential("key", key.id)
    real_check = selectors.credentials_alive

    def check_then_revoke_and_act(credentials):
        # when: right after the read checks the key, another request revokes it and the next
        # action lands (the race of a loaded machine, made certain here)
        alive = real_check(credentials)
        if key_services.key_revoke(user=user, key_id=key.id):
            services.game_act(game=game, user=user, action=winning_actions()[0], expect=None)
        return alive

    monkeypatch.setattr(selectors, "credentials_alive", check_then_revoke_and_act)
    found = stream_api._read_since(game.pk, 0, user, credential)

    # then: the action after the revocation is not among what the read sends ...
    assert found is None or found[0] == []
    # ... and the next read ends the stream
    assert stream_api._read_since(game.pk, 0, user, credential) is None
