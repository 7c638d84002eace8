"""Client addresses through the production topology (nginx, gunicorn, PostgreSQL, Redis): nginx
overwrites X-Forwarded-For and the app trusts exactly that one proxy, so a client that forges a
fresh address on every request still meets the sign-up limit and the token door's lock-out
(and on every WebSocket the sockets per address), and the request log names the address nginx
saw. Last, the expensive doors (hints, password checks, a new visitor's Play now) go to the
heavy pool, and reads, actions and a member's Play now never wait for it.

Runs in CI's PostgreSQL + Redis pass only (DATABASE_URL set), where the tools exist.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests import net
from tests.ops.stack import Postgres, Redis, Topology, clear_of_the_hours_end, tools_missing

missing = tools_missing()
pytestmark = [
    pytest.mark.topology,  # started first (tests/conftest.py)
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="topology tests run in the PostgreSQL + Redis pass",
    ),
    pytest.mark.skipif(missing is not None, reason=str(missing)),
]

FAILURES = 5
PACE = 0.35  # seconds before each password request of a test (see below)
SIGNUPS = 3
PASSWORD = "correct-horse-99"
SOCKETS = 3


@pytest.fixture(scope="module")
def topology() -> Iterator[Topology]:
    postgres, redis_server = Postgres(), Redis()
    stack = Topology(
        database_url=postgres.url,
        redis_url=redis_server.url,
        env={
            "LOGIN_FAILURE_LIMIT": str(FAILURES),
            "SIGNUP_LIMIT": str(SIGNUPS),
            "WS_PER_ADDRESS": str(SOCKETS),
        },
    )
    try:
        yield stack
    finally:
        stack.stop()
        redis_server.stop()
        postgres.destroy()


def forged(i: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"203.0.113.{i}"}


def test_a_fresh_forged_address_per_request_meets_the_sign_up_limit(topology):
    # (from an address of its own: sign-ups are password doors, and nginx's limit of them per
    # client is the next test's to meet, not this one's)
    own = httpx.HTTPTransport(local_address="127.0.0.11")
    clear_of_the_hours_end()  # (the sign-up limit counts per clock hour)
    with httpx.Client(base_url=topology.base_url, timeout=30, transport=own) as http:
        codes = [
            http.post(
                "/api/v1/auth/register",
                json={"username": f"player{i}", "password": PASSWORD},
                headers=forged(i),
            ).status_code
            for i in range(SIGNUPS + 2)
        ]

    assert codes == [201] * SIGNUPS + [429, 429]


def test_a_fresh_forged_address_per_request_meets_the_token_lock_out(topology):
    # given: an account (made by the previous test) and a log position
    since = topology.log_size()

    with httpx.Client(base_url=topology.base_url, timeout=30) as http:
        # when: wrong passwords for many names, each request claiming a new address, then the
        # right one. Paced: nginx admits these doors at 1 request/s past a burst of 5, and the
        # app's lock-out is what this test is about (8 requests at least 0.35 s apart stay
        # within it; unpaced, nginx answered the last one itself whenever the hashing was quick).
        def post(username: str, password: str, i: int) -> httpx.Response:
            time.sleep(PACE)
            return http.post(
                "/api/v1/auth/token",
                json={"username": username, "password": password},
                headers=forged(i),
            )

        guesses = [post(f"guess{i}", "wrong", i) for i in range(FAILURES + 2)]
        right = post("player0", PASSWORD, 99)

    # then: the address nginx saw is locked out, the right password included
    codes = [response.status_code for response in guesses]
    assert codes == [400] * (FAILURES - 1) + [429] * 3
    assert right.status_code == 429
    assert right.json()["error"]["code"] == "throttled"
    assert "failed logins" in right.json()["error"]["message"]  # the app's lock-out, not nginx's
    assert int(right.headers["Retry-After"]) > 0

    def token_lines() -> list[dict]:
        return [
            line
            for line in topology.log_lines(since)
            if line.get("event") == "request" and line.get("path") == "/api/v1/auth/token"
        ]

    # The app's lines reach the log through supervisord, which copies its programs' output:
    # the last one may come a moment after its answer.
    deadline = time.monotonic() + 10
    while len(logged := token_lines()) < FAILURES + 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(logged) == FAILURES + 3
    assert {line["client"] for line in logged} == {"127.0.0.1"}


def test_a_fresh_forged_address_per_socket_meets_the_sockets_per_address(topology):
    # given: today's board, through nginx
    today = net.get(f"{topology.base_url}/api/v1/daily", timeout=30).json()["date"]
    url = f"ws://127.0.0.1:{topology.port}/ws/daily/{today}/3/"

    def listen(i: int, host: str = "127.0.0.1"):
        return connect(url, additional_headers=forged(i), open_timeout=10, source_address=(host, 0))

    # when: sockets from one address, each claiming a new one
    with ExitStack() as held:
        sockets = [held.enter_context(listen(i)) for i in range(SOCKETS + 1)]
        first = [json.loads(ws.recv(timeout=10))["type"] for ws in sockets[:SOCKETS]]
        with pytest.raises(ConnectionClosed):
            sockets[-1].recv(timeout=10)
        # then: the address nginx saw holds SOCKETS; another address listens
        with listen(99, host="127.0.0.2") as other:
            assert json.loads(other.recv(timeout=10))["type"] == "snapshot"

    assert first == ["snapshot"] * SOCKETS
    assert sockets[-1].close_code == 4429


def play_now(http: httpx.Client) -> httpx.Response:
    """The home page's Play now, as a browser presses it (its CSRF cookie from the page)."""
    if "csrftoken" not in http.cookies:
        http.get("/")
    return http.post("/play/now", data={"csrfmiddlewaretoken": http.cookies["csrftoken"]})


def test_the_heavy_pool_takes_hints_password_doors_and_new_guests_and_nothing_else(topology):
    # given: the key of an account made by the first test (this address's password doors are
    # locked out by the second)
    made = topology.manage("create_api_key", "player0")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    with httpx.Client(base_url=topology.base_url, timeout=30) as http:
        http.headers["Authorization"] = f"Token {token}"
        game = http.post("/api/v1/games", json={"draw": 3}).json()
        assert http.get(f"/api/v1/games/{game['id']}/hint").status_code == 200
        # a guest made by Play now (a new visitor: the heavy pool), its browser kept
        guest = ExitStack()
        first = httpx.HTTPTransport(local_address="127.0.0.78")
        browser = guest.enter_context(
            httpx.Client(base_url=topology.base_url, timeout=30, transport=first)
        )
        assert play_now(browser).status_code == 302
        dealt = int(time.time())  # (a second game waits for the next second: 1 a second)

        # when: the heavy pool is down
        assert "stopped" in topology.programs("stop", "heavy").stdout
        try:
            read = http.get("/api/v1/daily")
            action = http.post(f"/api/v1/games/{game['id']}/actions", json={"type": "draw"})
            hint = http.get(f"/api/v1/games/{game['id']}/hint")
            page = http.get("/accounts/login/")
            # (from an address of its own: this one met nginx's password-door limit before)
            fresh = httpx.HTTPTransport(local_address="127.0.0.77")
            with httpx.Client(base_url=topology.base_url, timeout=30, transport=fresh) as other:
                login = other.post("/accounts/login/", data={"username": "a", "password": "b"})
                change = other.post("/api/v1/account/password", json={"password": "x"})
                visitor = play_now(other)
                # a visitor whose session cookie names no session (made up to reach the web
                # pool): the app there makes no guest, it asks again without the cookie
                token = other.cookies["csrftoken"]
                made_up = httpx.Client(
                    base_url=topology.base_url,
                    timeout=30,
                    transport=httpx.HTTPTransport(local_address="127.0.0.77"),
                    cookies={"csrftoken": token, "sessionid": "madeup00000000000000000000000000"},
                )
                with made_up:
                    forged_session = made_up.post("/play/now", data={"csrfmiddlewaretoken": token})
            while int(time.time()) <= dealt:  # THROTTLE_GAMES_BURST counts per clock second
                time.sleep(0.05)
            again = play_now(browser)  # the guest's second game: it has a session
        finally:
            topology.programs("start", "heavy")
            guest.close()

    # then: reads, actions, the login page and a guest's next Play now answer; hints, the
    # password doors and a new visitor's Play now (it makes a guest) are the proxy's 503 for a
    # dead upstream
    assert read.status_code == 200
    assert action.status_code == 200
    assert page.status_code == 200
    assert again.status_code == 302 and again.headers["location"].startswith("/play/")
    assert forged_session.status_code == 307 and forged_session.headers["location"] == "/play/now"
    assert 'sessionid=""' in forged_session.headers["set-cookie"]  # deleted
    for response in (hint, login, change, visitor):
        assert response.status_code == 503
        assert response.json()["error"]["code"] == "unavailable"
