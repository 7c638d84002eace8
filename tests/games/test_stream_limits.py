"""Open game streams per client address and per account (core/sockets.py): the next one
answers 429 `too_many_streams`, a closed stream frees its place, counted across processes in
Redis (two production ws processes, scripts/serve-ws.sh) and in the one process of the embedded
mode (no REDIS_URL). The servers run on an SQLite database of the module's own and a Redis of
its own (tests/ops/stack.py): neither DATABASE_URL nor REDIS_URL counts here, so CI runs this
module in its SQLite pass only (.ci/run)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests import net
from tests.games.helpers import easy_deck
from tests.leaderboard.test_live_servers import start_server, stopped
from tests.ops.stack import REDIS_SERVER, Redis
from tests.web.helpers import PASSWORD, unique_name

PER_ADDRESS = 4
PER_ACCOUNT = 3


def _env(database: Path, redis_url: str) -> dict[str, str]:
    env = dict(
        os.environ,
        DJANGO_DEBUG="1",
        DATABASE_URL=f"sqlite:///{database}",
        REDIS_URL=redis_url,
        PROXY_COUNT="1",
        THROTTLE_REGISTER="1000/hour",
        STREAMS_PER_ADDRESS=str(PER_ADDRESS),
        STREAMS_PER_ACCOUNT=str(PER_ACCOUNT),
    )
    env["REDIS_URL_WORKER"] = os.environ.get("PYTEST_XDIST_WORKER", "")
    return env


@pytest.fixture(scope="module", params=["two processes and Redis", "one process, no Redis"])
def started_servers(
    request, tmp_path_factory, migrated_sqlite
) -> Iterator[list[tuple[subprocess.Popen, str]]]:
    """The ws processes and their addresses: two sharing a Redis, or the embedded mode's one."""
    with ExitStack() as stack:
        database = tmp_path_factory.mktemp("stream-limits") / "db.sqlite3"
        shutil.copy(migrated_sqlite, database)  # (tests/conftest.py)
        if request.param == "two processes and Redis":
            if REDIS_SERVER is None:
                pytest.skip("no redis-server")
            redis_server = Redis()
            stack.callback(redis_server.stop)
            env, count = _env(database, redis_server.url), 2
        else:
            env, count = _env(database, ""), 1
        started = [start_server(env) for _ in range(count)]
        for process, _ in started:
            stack.callback(_stop, process)
        yield started


@pytest.fixture
def servers(started_servers) -> list[str]:
    return [base for _, base in started_servers]


@pytest.fixture
def server_processes(started_servers) -> list[subprocess.Popen]:
    return [process for process, _ in started_servers]


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    assert stopped(process)


class Account:
    def __init__(self, base: str) -> None:
        name = unique_name("caps")
        answer = net.post(
            f"http://{base}/api/v1/auth/register",
            json={"username": name, "password": PASSWORD},
            headers={"X-Forwarded-For": "203.0.113.9"},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        self.auth = {"Authorization": f"Token {answer.json()['token']}"}
        made = net.post(
            f"http://{base}/api/v1/games", json={"deck": easy_deck(), "draw": 1},
            headers=self.auth, timeout=30,
        )  # fmt: skip
        assert made.status_code == 201, made.text
        self.game = made.json()["id"]


def stream(
    stack: ExitStack, base: str, account: Account, address: str, path: str | None = None
) -> httpx.Response:
    """A stream of the account's game (or at `path`) through a proxy that saw `address`: held
    open (within `stack`) when the server answers 200, read whole when it refuses."""
    client = stack.enter_context(httpx.Client(timeout=30))
    headers = {**account.auth, "X-Forwarded-For": address, "Accept": "application/x-ndjson"}
    url = f"http://{base}/api/v1/{path or f'games/{account.game}/stream'}"
    response = stack.enter_context(client.stream("GET", url, headers=headers))
    if response.status_code != 200:
        response.read()
    return response


def refusal(response: httpx.Response) -> tuple[int, str | None]:
    code = None if response.status_code == 200 else response.json()["error"]["code"]
    return response.status_code, code


def opened_once_freed(base: str, account: Account, address: str, held: ExitStack) -> None:
    """A place is given back when the server hears the client left: a stream opened just after
    a close may still meet 429 for a moment."""
    deadline = time.monotonic() + 10
    while True:
        attempt = ExitStack()
        if stream(attempt, base, account, address).status_code == 200:
            held.enter_context(attempt)
            return
        attempt.close()
        assert time.monotonic() < deadline, "the closed stream's place was never given back"
        time.sleep(0.05)


TOO_MANY = (429, "too_many_streams")


def test_an_account_and_an_address_hold_their_streams_across_processes_the_next_is_429(servers):
    a, b = servers[0], servers[-1]
    one, two, three = Account(a), Account(a), Account(b)
    with ExitStack() as held:
        # given: the account's streams on both processes, from one address
        mine = [ExitStack() for _ in range(PER_ACCOUNT)]
        for n, stack in enumerate(mine):
            held.enter_context(stack)
            assert stream(stack, [a, b][n % 2], one, "203.0.113.1").status_code == 200

        # when/then: its next is refused on either process, from any address
        for base, address in [(a, "203.0.113.1"), (b, "203.0.113.2")]:
            assert refusal(stream(held, base, one, address)) == TOO_MANY

        # given: another account fills the address (PER_ADDRESS streams in all)
        for _ in range(PER_ADDRESS - PER_ACCOUNT):
            assert stream(held, b, two, "203.0.113.1").status_code == 200
        # then: a third account is refused from that address, not from another
        assert refusal(stream(held, a, three, "203.0.113.1")) == TOO_MANY
        assert stream(held, a, three, "203.0.113.2").status_code == 200

        # when: one of the account's streams closes, its place is free again
        mine[0].close()
        opened_once_freed(b, one, "203.0.113.3", held)
        assert refusal(stream(held, a, one, "203.0.113.3")) == TOO_MANY


def test_account_event_streams_count_with_the_game_streams(servers):
    a, b = servers[0], servers[-1]
    account = Account(a)
    with ExitStack() as held:
        # given: the account's places all held, one by its event stream
        for _ in range(PER_ACCOUNT - 1):
            assert stream(held, a, account, "203.0.113.5").status_code == 200
        assert stream(held, b, account, "203.0.113.5", "account/events").status_code == 200

        # then: its next event stream or game stream is refused
        assert refusal(stream(held, a, account, "203.0.113.6", "account/events")) == TOO_MANY
        assert refusal(stream(held, b, account, "203.0.113.6")) == TOO_MANY


def test_a_finished_game_s_stream_holds_no_place(servers):
    # (it is its game and end lines at once: nothing stays open)
    account = Account(servers[0])
    resigned = net.post(
        f"http://{servers[0]}/api/v1/games/{account.game}/actions",
        json={"type": "resign"}, headers=account.auth, timeout=30,
    )  # fmt: skip
    assert resigned.status_code == 200
    with ExitStack() as held:
        for _ in range(PER_ADDRESS + 1):
            response = stream(held, servers[0], account, "203.0.113.4")
            assert response.status_code == 200
            response.read()


def _threads(process: subprocess.Popen) -> int:
    status = Path(f"/proc/{process.pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Threads:")).split()[1])


def test_open_streams_hold_no_thread_of_their_own(servers, server_processes):
    # (the streams' database work runs in a pool of DATABASE_THREADS threads: games/streams.py)
    from games.streams import DATABASE_THREADS

    base, process = servers[0], server_processes[0]
    accounts = [Account(base) for _ in range(4)]
    with ExitStack() as warm_up:  # whatever threads a process makes once are made
        assert stream(warm_up, base, accounts[0], "203.0.113.20").status_code == 200
    before = _threads(process)
    with ExitStack() as held:
        # when: PER_ACCOUNT streams of each account, each account from an address of its own
        for n, account in enumerate(accounts):
            for _ in range(PER_ACCOUNT):
                response = stream(held, base, account, f"203.0.113.{30 + n}")
                assert response.status_code == 200
                next(response.iter_lines())  # its first line: the stream is open
        # then
        assert _threads(process) <= before + DATABASE_THREADS < before + PER_ACCOUNT * 4
