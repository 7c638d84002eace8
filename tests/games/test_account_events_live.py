"""Issue 32's "must show" for the account events, on the production ws server (uvicorn,
scripts/serve-ws.sh) in a process of its own, over real sockets: an account's NDJSON stream
(`GET account/events`) and WebSocket (`/ws/account/events`) each see every event of a game and
of a duel (challenged, accepted, played to its end) that other clients play, each within a
second of the answer that made it; the ws process killed and started again, both resume with
`since` and lose nothing of what happened meanwhile.

With REDIS_URL the servers' wake-ups go through Redis, else through the process itself (all
requests go to the one server here)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.games.helpers import easy_deck
from tests.leaderboard.test_live_contract import validate
from tests.leaderboard.test_live_servers import start_server, stopped

ROOT = Path(__file__).resolve().parents[2]
# The promise (docs/api.md "Streams and exports"): an event within a second of its commit.
WITHIN = 1.0
PASSWORD = "correct-horse-battery"


@pytest.fixture
def env(server_env) -> dict[str, str]:  # noqa: F811
    # (the suite server's database: migrated)
    env = dict(server_env, THROTTLE_REGISTER="1000/hour", THROTTLE_GAMES_BURST="100/second")
    _shell(
        env,
        "from matches.deals import match_deal_code\n"
        "from matches.models import MatchDeal\n"
        "start = MatchDeal.objects.filter(draw=1).count()\n"
        "MatchDeal.objects.bulk_create(MatchDeal(draw=1, index=i,"
        " deal_code=str(match_deal_code(1, i))) for i in range(start, start + 2))\n",
    )
    return env


def _shell(env: dict[str, str], code: str) -> str:
    """Python run by `manage.py shell` on the server's database (what no client can do)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


class Account:
    """An account on the server, from an address of its own, with a key of every scope."""

    def __init__(self, base: str, address: str) -> None:
        self.name = f"ev{os.urandom(4).hex()}"
        self.client = httpx.Client(
            base_url=f"http://{base}/api/v1", timeout=30, headers={"X-Forwarded-For": address}
        )
        body = {"username": self.name, "password": PASSWORD}
        made = self.client.post("/auth/register", json=body)
        assert made.status_code == 201, made.text
        self.headers = {"Authorization": f"Token {made.json()['token']}"}
        self.client.headers.update(self.headers)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        answer = self.client.request(method, path, json=body)
        assert answer.status_code in (200, 201), answer.text
        return answer.json()


class Seen:
    """The events one stream sends (keep-alives left out; its opening event, which says where
    it starts, apart in `opened`), read in a thread of its own; each checked against
    docs/asyncapi.yaml."""

    def __init__(self, messages: Iterator[str]) -> None:
        self.events: list[dict[str, Any]] = []
        self.opened: list[dict[str, Any]] = []
        self.closed = False
        self.arrived = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(messages,), daemon=True)
        self.thread.start()

    def _read(self, messages: Iterator[str]) -> None:
        try:
            for text in messages:
                if text.strip():
                    event = json.loads(text)
                    validate(event, "AccountEvent")
                    with self.arrived:
                        opening = event["type"] == "stream_opened"
                        (self.opened if opening else self.events).append(event)
                        self.arrived.notify_all()
        except (httpx.TransportError, ConnectionClosed):
            pass  # the server went away
        finally:
            with self.arrived:
                self.closed = True
                self.arrived.notify_all()

    def wait(self, kind: str, within: float = WITHIN, **data: Any) -> dict[str, Any]:
        """The event `kind` whose data holds `data`, once it came (within `within` s)."""

        def found() -> dict[str, Any] | None:
            for event in self.events:
                if event["type"] == kind and data.items() <= event["data"].items():
                    return event
            return None

        with self.arrived:
            self.arrived.wait_for(lambda: found() is not None or self.closed, within)
            event = found()
        assert event is not None, (kind, data, self.events)
        return event

    def wait_closed(self, within: float) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: self.closed, within)


def ndjson(base: str, account: Account, since: int | None = None) -> Seen:
    """The account's NDJSON stream, open (its headers come once it knows where it starts)."""
    path = "/account/events" if since is None else f"/account/events?since={since}"
    opened = threading.Event()
    headers = {**account.headers, "Accept": "application/x-ndjson"}

    def lines() -> Iterator[str]:
        with (
            httpx.Client(base_url=f"http://{base}/api/v1", timeout=30) as client,
            client.stream("GET", path, headers=headers) as answer,
        ):
            assert answer.status_code == 200
            opened.set()
            yield from answer.iter_lines()

    seen = Seen(lines())
    assert opened.wait(10)
    return seen


def socket(base: str, account: Account, since: int, stack: ExitStack) -> Seen:
    """The account's WebSocket after the event `since` (a socket says nothing when it is
    ready: `since` makes what comes before that moment count too)."""
    path = f"/ws/account/events?since={since}"
    ws = stack.enter_context(
        connect(f"ws://{base}{path}", additional_headers=account.headers, open_timeout=10)
    )

    def messages() -> Iterator[str]:
        while True:
            yield str(ws.recv())

    return Seen(messages())


def play_out(account: Account, game_id: str) -> None:
    """10 draws and a resign: a seat played (R33a)."""
    for _ in range(10):
        account.call("POST", f"/games/{game_id}/actions", {"type": "draw"})
    account.call("POST", f"/games/{game_id}/actions", {"type": "resign"})


def test_both_streams_see_a_game_and_a_duel_live_and_resume_across_a_restart(env):
    process, base = start_server(env)
    sockets = ExitStack()
    try:
        # given: bob's two streams open on the ws server (the socket after the stream's first
        # event), anna another account
        bob, anna = Account(base, "198.51.100.1"), Account(base, "198.51.100.2")
        first = bob.call("POST", "/games", {"deck": easy_deck(), "draw": 1})["id"]
        lines = ndjson(base, bob)
        bob.call("POST", f"/games/{first}/actions", {"type": "resign"})
        opened = lines.wait("game_ended", game=first)
        messages = socket(base, bob, opened["id"], sockets)

        # when: bob deals and plays a game from another client
        game = bob.call("POST", "/games", {"draw": 1})["id"]
        # then: each stream sees each event within a second of its answer
        for stream in (lines, messages):
            stream.wait("game_started", game=game)
        bob.call("POST", f"/games/{game}/actions", {"type": "resign"})
        for stream in (lines, messages):
            stream.wait("game_ended", game=game, status="resigned")

        # when: anna challenges bob, bob accepts, and both play the duel to its end
        made = anna.call("POST", "/challenges", {"player": bob.name, "draw": 1, "rated": False})
        for stream in (lines, messages):
            stream.wait("challenge_created", challenge=made["id"], challenger=anna.name)
        duel = bob.call("POST", f"/challenges/{made['id']}/accept", {})
        for stream in (lines, messages):
            stream.wait("challenge_accepted", challenge=made["id"], match=duel["id"])
            stream.wait("match_found", match=duel["id"])
            stream.wait("game_started", game=duel["game"], match=duel["id"])
        play_out(bob, duel["game"])
        for stream in (lines, messages):
            stream.wait("game_ended", game=duel["game"])
        anna_game = anna.call("GET", f"/matches/{duel['id']}")["game"]
        play_out(anna, anna_game)
        # then: the match's end too, and both streams sent the same events, in the same order
        for stream in (lines, messages):
            stream.wait("match_finished", match=duel["id"], status="finished")
        assert messages.events == lines.events[1:]
        assert [event["id"] for event in messages.opened] == [opened["id"]]
        last = lines.events[-1]["id"]

        # when: the ws process is killed, an event is written while it is down, and another
        # through the new process before the streams are opened again
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        lines.wait_closed(10)
        messages.wait_closed(10)
        down = _shell(
            env,
            "from django.contrib.auth import get_user_model\n"
            "from games.services import game_create\n"
            f"owner = get_user_model().objects.get(username='{bob.name}')\n"
            "print(game_create(owner=owner, draw=1).pk)\n",
        )
        process, base = start_server(env)
        bob.client.base_url = httpx.URL(f"http://{base}/api/v1")
        bob.call("POST", f"/games/{down}/actions", {"type": "resign"})
        lines = ndjson(base, bob, since=last)
        messages = socket(base, bob, last, sockets)

        # then: both resume after `last` with exactly what they missed, then go on live
        for stream in (lines, messages):
            stream.wait("game_ended", game=down)
        resumed = [(event["type"], event["data"]["game"]) for event in lines.events]
        assert resumed == [("game_started", down), ("game_ended", down)]
        assert messages.events == lines.events
        assert [event["id"] for event in lines.opened + messages.opened] == [last, last]
        later = bob.call("POST", "/games", {"draw": 1})["id"]
        for stream in (lines, messages):
            stream.wait("game_started", game=later)
    finally:
        sockets.close()
        process.terminate()
        assert stopped(process)
