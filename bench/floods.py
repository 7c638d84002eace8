"""Other players' actions and reads while accounts flood the hints, while rotating addresses
guess passwords, while anonymous clients read a long game, while accounts deal games and while
visitors from many addresses become guests, under the production topology.

    .venv/bin/python bench/floods.py [--seconds 30] [--hinters 8] [--guessers 24]
                                     [--addresses 24] [--accounts 4] [--replayers 2]
                                     [--dealers 24] [--guest-clients 8] [--workers 2]
                                     [--stream-tries 2000] [--stream-accounts 25]
                                     [--stream-addresses 10]
                                     [--database canfield_bench_floods] [--port 8768]
                                     [--quick] [--only streams]

Starts the production topology (`scripts/serve-topology.sh`: nginx in front of the web pool
(gunicorn sync workers) and the heavy pool (hints and password doors, niced), DJANGO_DEBUG=0,
the production settings and their PBKDF2 hasher, every limit as shipped) on a fresh PostgreSQL
database and the Redis of REDIS_URL (default redis://127.0.0.1:6379/0). One player plays
draws and recycles and reads `GET /api/v1/daily`, one request after another, and the p50/p99
of its actions and reads are measured:
1. idle, for `--seconds`;
2. while `--hinters` accounts, each from an address of its own, ask for hints back to back,
   each at the start of another of 60 games dealt beforehand (so no answer comes from the
   cache; the 61st hint of a minute meets the account's limit, and a 429 is waited out);
3. while `--guessers` clients send wrong passwords to the API token, web login and admin
   login doors (the player's name or random ones), each request from the next of
   `--addresses` addresses, a new set of addresses every minute;
4. while `--guessers` clients send a public OAuth client's id with random `client_secret`s to
   `/oauth/token`, a new connection from the next of `--addresses` addresses each time;
5. while `--accounts` accounts (each from an address of its own) change their passwords back
   to back (the right password: a check and a new hash each);
6. while `--accounts` other accounts ask `DELETE account` with wrong passwords back to back;
7. while `--replayers` anonymous clients read a finished game whose log is at the cap
   (GAME_MAX_ACTIONS, 3,000 draws and undos, played beforehand) back to back: its replay page
   and `GET games/{id}` in turn (both served from the cache after the first);
8. while one account deals games (`POST games`) back to back from `--dealers` connections,
   then while `--dealers` accounts, each from an address of its own, do the same (each meets
   THROTTLE_GAMES; a 429 is waited out as told);
9. while `--guest-clients` visitors press Play now, each request from the next of
   `--addresses` addresses (a new set every minute), each a new browser session (GUEST_LIMIT
   per address, GUEST_GLOBAL_LIMIT in all);
10. while streams (`GET games/{id}/stream`, through nginx to the ws process) are opened and held
    idle: `--stream-tries` at once from one address and one account (the caps answer all but
    STREAMS_PER_ACCOUNT of them 429), and STREAMS_PER_ACCOUNT from each of `--stream-accounts`
    accounts spread over `--stream-addresses` addresses (as many as the caps let in: 500 by
    default); the ws process's CPU and resident memory before and while they are held.
Prints each phase's figures, their ratios to idle (targets: p50 <= 2x, p99 <= 3x) and what
the attackers were answered (`--only streams`: idle and phase 10 alone). Addresses are
loopback ones (127.x.y.z, another /16 each run); every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import itertools
import json
import multiprocessing
import os
import re
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import Client, production_env, start_topology, stop  # noqa: E402

PORT = 8768
# The topology's output, for when something fails: one file a port (several runs at once).
LOG = "/tmp/canfield-bench-floods-{port}.log"
PASSWORD = "floods-" + secrets.token_urlsafe(12)
FORK = multiprocessing.get_context("fork")  # the attackers' closures need no pickling
# This run's addresses, 127.NET.x.y: the limits count in Redis, which outlives a run, so each
# run takes other addresses than the last (a /16 of its own, one of 200).
NET = 20 + secrets.randbelow(200)
PLAYER = f"127.{NET}.0.1"


def client_from(address: str, token: str | None = None) -> Client:
    """A Client whose connections leave from `address` (any 127.x.y.z is this machine)."""
    client = Client(PORT, token)
    client.conn = http.client.HTTPConnection(
        "127.0.0.1", PORT, timeout=60, source_address=(address, 0)
    )
    return client


def register(address: str, name: str) -> str:
    for _ in range(30):
        status, body = client_from(address).call(
            "POST", "/api/v1/auth/register", {"username": name, "password": PASSWORD}
        )
        if status == 201:
            assert isinstance(body, dict)
            return str(body["token"])
        assert status == 503, (status, body)  # a password slot busy: retry
        time.sleep(1)
    raise SystemExit(f"could not register {name}")


def new_game(client: Client) -> dict[str, object]:
    """A new game; past the account's THROTTLE_GAMES, once the 429's minute is over."""
    for _ in range(120):
        status, game = client.call("POST", "/api/v1/games", {"draw": 3})
        if status != 429:
            break
        time.sleep(1)
    assert status == 201 and isinstance(game, dict), (status, game)
    return game


def step(client: Client, game: dict[str, object]) -> tuple[int, dict[str, object]]:
    """A draw (or a recycle when the stock is empty): always legal, always a new position."""
    stock = game["stock"]
    assert isinstance(stock, dict)
    action = {"type": "draw"} if stock["count"] else {"type": "recycle"}
    status, body = client.call("POST", f"/api/v1/games/{game['id']}/actions", action)
    if status == 200 and isinstance(body, dict):
        return status, body["game"]
    if status == 409:  # the game ended (a recycle limit): another one
        return status, new_game(client)
    return status, game


# The player acts and reads at most this often (40 of each a second): a busy client, within
# the shipped THROTTLE_ACTIONS (6,000 a minute), which a player unpaced on a quiet machine
# (3 ms an action) would exceed.
PLAYER_PERIOD = 0.025


def measure(token: str, deadline: float) -> tuple[list[float], list[float]]:
    """The player's action and read latencies (ms) until the deadline."""
    client = client_from(PLAYER, token)
    game = new_game(client)
    actions, reads = [], []
    cycle = time.perf_counter()
    while time.monotonic() < deadline:
        time.sleep(max(0.0, cycle + PLAYER_PERIOD - time.perf_counter()))
        cycle = started = time.perf_counter()
        status, game = step(client, game)
        actions.append((time.perf_counter() - started) * 1000)
        assert status in (200, 409), status
        started = time.perf_counter()
        status, _ = client.send("GET", "/api/v1/daily")
        reads.append((time.perf_counter() - started) * 1000)
        assert status == 200, status
    return actions, reads


def hinter(address: str, token: str, games: list[str], deadline: float, answers: Counter[str]):
    """Hints back to back, each at the start of the next of `games`: a position not searched
    yet (until the games come round again, by when the account's limit answers). After a 429
    it waits a second, as told: a client that ignores it floods the proxy with requests, which
    costs what any request flood does (nginx's and the network's matter, not the hints')."""
    client = client_from(address, token)
    for game in itertools.cycle(games):
        if time.monotonic() >= deadline:
            break
        status, _ = client.send("GET", f"/api/v1/games/{game}/hint")
        answers[f"hint {status}"] += 1
        if status == 429:
            time.sleep(1)


def guesser(addresses: Callable[[], str], victim: str, deadline: float, answers: Counter[str]):
    doors = ("token", "web", "admin")
    n = 0
    while time.monotonic() < deadline:
        door = doors[n % 3]
        n += 1
        client = client_from(addresses())
        name = victim if secrets.randbelow(2) else f"guess{secrets.token_hex(3)}"
        password = secrets.token_urlsafe(12)
        if door == "token":
            body = json.dumps({"username": name, "password": password})
            status, _ = client.send("POST", "/api/v1/auth/token", body)
        else:
            path = f"/{'accounts' if door == 'web' else 'admin'}/login/"
            client.send("GET", path)
            token = client.cookies.get("csrftoken", "")
            body = f"csrfmiddlewaretoken={token}&username={name}&password={password}"
            status, _ = client.send(
                "POST", path, body, content_type="application/x-www-form-urlencoded"
            )
        answers[f"{door} {status}"] += 1


# ---- limits on what makes work: long logs, dealing games, guests (issue 30) ---------------------

CAPPED_ACTIONS = 3000  # the shipped GAME_MAX_ACTIONS


def capped_game(address: str, token: str) -> str:
    """A game played to the cap with draws and undos, then resigned (public: anyone may read
    it and its replay); its id."""
    client = client_from(address, token)
    game = new_game(client)
    for n in range(CAPPED_ACTIONS):
        kind = "undo" if n % 2 else "draw"
        status, _ = client.call("POST", f"/api/v1/games/{game['id']}/actions", {"type": kind})
        assert status == 200, (n, status)
    over, body = client.call("POST", f"/api/v1/games/{game['id']}/actions", {"type": "draw"})
    assert over == 409 and isinstance(body, dict), over
    assert body["error"]["code"] == "game_too_long", body
    status, _ = client.call("POST", f"/api/v1/games/{game['id']}/actions", {"type": "resign"})
    assert status == 200, status
    return str(game["id"])


def replayer(address: str, game: str, deadline: float, answers: Counter[str]) -> None:
    """Anonymous reads of a game at the cap, back to back: its replay page, then its API read."""
    client = client_from(address)
    while time.monotonic() < deadline:
        for kind, path in (("replay", f"/replay/{game}"), ("read", f"/api/v1/games/{game}")):
            status, _ = client.send("GET", path)
            answers[f"{kind} {status}"] += 1


def dealer(address: str, token: str, deadline: float, answers: Counter[str]) -> None:
    """`POST games` back to back; after a 429 it waits a second, as a hinter does (a client
    that ignores it floods the proxy, which costs what any request flood does)."""
    client = client_from(address, token)
    while time.monotonic() < deadline:
        status, _ = client.send("POST", "/api/v1/games", json.dumps({"draw": 3}))
        answers[f"deal {status}"] += 1
        if status == 429:
            time.sleep(1)


def public_client(env: dict[str, str]) -> str:
    """A public OAuth client registered in the topology's database, as staff would: its id."""
    code = (
        "from oauth2_provider.models import Application; print(Application.objects.create("
        "name='floods', client_type='public', authorization_grant_type='authorization-code', "
        "redirect_uris='https://app.example/cb').client_id)"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.split()[-1]


def oauth_junk(
    addresses: Callable[[], str], client_id: str, deadline: float, answers: Counter[str]
):
    """A public client's id with a random secret at the token endpoint, a new connection each
    time (the secret used to cost a PBKDF2 check in the web pool). A 429 (nginx's limit of the
    address) is waited out a second, as the hinters do: else it is a plain request flood."""
    while time.monotonic() < deadline:
        body = urlencode(
            {
                "grant_type": "authorization_code",
                "code": secrets.token_urlsafe(20),
                "redirect_uri": "https://app.example/cb",
                "client_id": client_id,
                "client_secret": secrets.token_urlsafe(30),
            }
        )
        status, _ = client_from(addresses()).send(
            "POST", "/oauth/token", body, content_type="application/x-www-form-urlencoded"
        )
        answers[f"oauth {status}"] += 1
        if status == 429:
            time.sleep(1)


def password_changer(address: str, token: str, deadline: float, answers: Counter[str]):
    """The account's own password changed back and forth, back to back: a check and a new
    hash each time it gets through. After a 429 it waits a second, as told."""
    client = client_from(address, token)
    passwords = [PASSWORD, "floods-other-" + secrets.token_urlsafe(12)]
    while time.monotonic() < deadline:
        body = json.dumps({"password": passwords[0], "new_password": passwords[1]})
        status, _ = client.send("POST", "/api/v1/account/password", body)
        answers[f"password {status}"] += 1
        if status == 204:
            passwords.reverse()
        elif status == 429:
            time.sleep(1)


def wrong_deleter(address: str, token: str, deadline: float, answers: Counter[str]):
    """`DELETE account` with a wrong password, back to back (a 429 waited out a second)."""
    client = client_from(address, token)
    while time.monotonic() < deadline:
        body = json.dumps({"password": secrets.token_urlsafe(12)})
        status, _ = client.send("DELETE", "/api/v1/account", body)
        answers[f"delete {status}"] += 1
        if status == 429:
            time.sleep(1)


def oauth_phase(
    env: dict[str, str], player: str, args: argparse.Namespace, idle: list[tuple[float, float]]
) -> None:
    client_id = public_client(env)
    started = time.monotonic()
    turn = iter(range(10**9))

    def rotating() -> str:
        minute = int((time.monotonic() - started) // 60)
        return f"127.{NET}.{170 + minute}.{1 + next(turn) % args.addresses}"

    attack(
        "OAuth token junk secrets",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers: oauth_junk(rotating, client_id, deadline, answers)
            for _ in range(args.guessers)
        ],
    )


def guest(addresses: Callable[[], str], deadline: float, answers: Counter[str]) -> None:
    """Play now from a new browser session each time (its CSRF cookie from the home page),
    each from the next address. A 429 is waited out a second, as the other attackers do: a
    client that ignores it is a plain request flood of the home page, which any page would be."""
    while time.monotonic() < deadline:
        client = client_from(addresses())
        client.send("GET", "/")
        token = client.cookies.get("csrftoken", "")
        status, _ = client.send(
            "POST", "/play/now", f"csrfmiddlewaretoken={token}",
            content_type="application/x-www-form-urlencoded",
        )  # fmt: skip
        answers[f"play now {status}"] += 1
        if status == 429:
            time.sleep(1)


def phase_long_log_replays(
    args: argparse.Namespace, player: str, idle: list[tuple[float, float]]
) -> None:
    owner = f"127.{NET}.100.1"
    game = capped_game(owner, register(owner, "longlog"))
    attack(
        f"{args.replayers} long-log replays",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, n=n: replayer(
                f"127.{NET}.101.{1 + n}", game, deadline, answers
            )
            for n in range(args.replayers)
        ],
    )


def phase_game_creation_floods(
    args: argparse.Namespace, player: str, idle: list[tuple[float, float]]
) -> None:
    one = f"127.{NET}.102.1"
    token = register(one, "dealer")
    attack(
        f"1 account dealing x{args.dealers}",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers: dealer(one, token, deadline, answers)
            for _ in range(args.dealers)
        ],
    )
    dealers = [
        (f"127.{NET}.103.{1 + n}", register(f"127.{NET}.103.{1 + n}", f"dealer{n}"))
        for n in range(args.dealers)
    ]
    attack(
        f"{args.dealers} accounts dealing",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, address=address, token=token: dealer(
                address, token, deadline, answers
            )
            for address, token in dealers
        ],
    )


def phase_guests(args: argparse.Namespace, player: str, idle: list[tuple[float, float]]) -> None:
    started = time.monotonic()
    turn = iter(range(10**9))

    def rotating() -> str:
        minute = int((time.monotonic() - started) // 60)
        return f"127.{NET}.{150 + minute}.{1 + next(turn) % args.addresses}"

    attack(
        f"guests from {args.addresses} addresses",
        player,
        args.seconds,
        idle,
        [lambda deadline, answers: guest(rotating, deadline, answers)] * args.guest_clients,
    )


def account_accounts(args: argparse.Namespace, net: int, prefix: str) -> list[tuple[str, str]]:
    """`--accounts` accounts, each registered from the address it then uses: (address, key)."""
    made = []
    for n in range(args.accounts):
        address = f"127.{NET}.{net}.{1 + n}"
        made.append((address, register(address, f"{prefix}{n}")))
    return made


def password_changes_phase(
    player: str, args: argparse.Namespace, idle: list[tuple[float, float]]
) -> None:
    accounts = account_accounts(args, 200, "changer")
    attack(
        f"{args.accounts} accounts changing passwords",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, a=address, t=token: password_changer(a, t, deadline, answers)
            for address, token in accounts
        ],
    )


def wrong_deletes_phase(
    player: str, args: argparse.Namespace, idle: list[tuple[float, float]]
) -> None:
    accounts = account_accounts(args, 201, "deleter")
    attack(
        f"{args.accounts} accounts deleting, wrong passwords",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, a=address, t=token: wrong_deleter(a, t, deadline, answers)
            for address, token in accounts
        ],
    )


def percentiles(latencies: list[float]) -> tuple[float, float]:
    p50 = statistics.median(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) >= 2 else p50
    return p50, p99


def report(name: str, figures: tuple[list[float], list[float]], idle: list[tuple[float, float]]):
    """One line per kind (actions, reads): p50 and p99, and their ratios to idle's."""
    measured = []
    for kind, latencies, base in zip(
        ("actions", "reads"), figures, idle or [None, None], strict=True
    ):
        p50, p99 = percentiles(latencies)
        measured.append((p50, p99))
        ratios = f"   {p50 / base[0]:5.2f}x   {p99 / base[1]:5.2f}x" if base else ""
        print(
            f"{name:<24} {kind:<8} {len(latencies):>6}   p50 {p50:8.1f} ms   "
            f"p99 {p99:8.1f} ms{ratios}"
        )
    return measured


def attack(
    name: str,
    token: str,
    seconds: float,
    idle: list[tuple[float, float]],
    threads: list[Callable[[float, Counter[str]], None]],
    during: Callable[[], tuple[float, float]] | None = None,
) -> None:
    """The attackers' `threads` in a process of their own (sharing this one's GIL would slow
    the measured player's client, not the server) while the player is measured; `during`,
    if given, measures the ws process (CPU %, MiB) from 70 % of the attack on."""
    deadline = time.monotonic() + seconds
    results: multiprocessing.SimpleQueue[dict[str, int]] = FORK.SimpleQueue()
    attackers = FORK.Process(target=run_threads, args=(threads, deadline, results))
    attackers.start()
    figures: list[tuple[float, float]] = []
    if during is not None:
        watcher = threading.Thread(
            target=lambda: (time.sleep(seconds * 0.7), figures.append(during()))
        )
        watcher.start()
    report(name, measure(token, deadline), idle)
    answers = results.get()
    attackers.join()
    print(f"  {name}: " + ", ".join(f"{key}: {n}" for key, n in sorted(answers.items())))
    if during is not None:
        watcher.join()
        cpu, rss = figures[0]
        print(f"  ws process while they are held: {cpu:.1f} % of a core, {rss:.0f} MiB")


def run_threads(
    threads: list[Callable[[float, Counter[str]], None]],
    deadline: float,
    results: multiprocessing.SimpleQueue[dict[str, int]],
) -> None:
    answers: Counter[str] = Counter()
    running = [threading.Thread(target=thread, args=(deadline, answers)) for thread in threads]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    results.put(dict(answers))


# What the shipped STREAMS_PER_ACCOUNT lets one account hold (settings; the phase's own figure).
STREAMS_PER_ACCOUNT = 20


def streams_held(opens: list[tuple[str, str, str]], deadline: float, answers: Counter[str]) -> None:
    """Opens a stream for each (address, token, game), at most 100 being opened at a time,
    and holds each one that opened, reading its keep-alives, until the deadline."""
    asyncio.run(_streams_held(opens, deadline, answers))


async def _streams_held(
    opens: list[tuple[str, str, str]], deadline: float, answers: Counter[str]
) -> None:
    opening = asyncio.Semaphore(100)

    async def hold(address: str, token: str, game: str) -> None:
        async with opening:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", PORT, local_addr=(address, 0)
                )
            except OSError as error:
                answers[f"stream {type(error).__name__}"] += 1
                return
            writer.write(
                f"GET /api/v1/games/{game}/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {token}\r\nAccept: application/x-ndjson\r\n\r\n".encode()
            )
            status = (await reader.readline()).split()
            answer = status[1].decode() if len(status) > 1 else "closed"
            if answer != "200":  # which refusal: the body's error code
                code = re.search(rb'"code": ?"(\w+)"', await reader.read())
                answer += f" {code[1].decode()}" if code else ""
            answers[f"stream {answer}"] += 1
        try:
            await asyncio.wait_for(reader.read(), max(0.0, deadline - time.monotonic()))
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()

    await asyncio.gather(*(hold(*each) for each in opens))


def ws_process_figures(pid: int, seconds: float) -> tuple[float, float]:
    """(CPU % of a core over the next `seconds`, resident MiB) of the ws process."""

    def used() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, started = used(), time.monotonic()
    time.sleep(seconds)
    cpu = (used() - before) / (time.monotonic() - started) * 100
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return cpu, int(rss.split()[1]) / 1024


def ws_pid(run_dir: str) -> int:
    """The pid of the topology's first uvicorn process (supervisord's program ws-1)."""
    supervisorctl = Path(sys.executable).with_name("supervisorctl")
    out = subprocess.run(
        [str(supervisorctl), "-c", f"{run_dir}/supervisord.conf", "pid", "ws-1"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return int(out.strip())


def stream_flood(
    args: argparse.Namespace, player: str, idle: list[tuple[float, float]], run_dir: str
) -> None:
    """Phase 4 (the module's docstring): streams opened and held idle while the player is
    measured, and the ws process's CPU and memory before and during."""
    flooder = f"127.{NET}.120.1"
    token = register(flooder, "streamer")
    opens = [(flooder, token, str(new_game(client_from(flooder, token))["id"]))] * args.stream_tries
    for n in range(args.stream_accounts):
        address = f"127.{NET}.121.{1 + n % args.stream_addresses}"
        account = register(f"127.{NET}.122.{1 + n}", f"streamer{n}")
        game = str(new_game(client_from(address, account))["id"])
        opens += [(address, account, game)] * STREAMS_PER_ACCOUNT
    pid = ws_pid(run_dir)
    cpu, rss = ws_process_figures(pid, 5)
    print(f"  ws process before the streams: {cpu:.1f} % of a core, {rss:.0f} MiB")
    per_thread = -(-len(opens) // 4)
    chunks = [opens[n : n + per_thread] for n in range(0, len(opens), per_thread)]
    attack(
        f"{len(opens)} streams tried",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, chunk=chunk: streams_held(chunk, deadline, answers)
            for chunk in chunks
        ],
        during=lambda: ws_process_figures(pid, args.seconds / 4),
    )


def main() -> None:
    global PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--hinters", type=int, default=8)
    parser.add_argument("--guessers", type=int, default=24)
    parser.add_argument("--addresses", type=int, default=24, help="guessing addresses a minute")
    parser.add_argument("--accounts", type=int, default=4, help="password-changing accounts")
    parser.add_argument("--replayers", type=int, default=2, help="anonymous long-log readers")
    parser.add_argument("--dealers", type=int, default=24, help="game-dealing connections")
    parser.add_argument("--guest-clients", type=int, default=8, help="Play now clients")
    parser.add_argument("--workers", type=int, default=2, help="web pool: gunicorn workers")
    parser.add_argument("--stream-tries", type=int, default=2000, help="from one address")
    parser.add_argument("--stream-accounts", type=int, default=25)
    parser.add_argument("--stream-addresses", type=int, default=10)
    parser.add_argument("--database", default="canfield_bench_floods")
    parser.add_argument("--port", type=int, default=PORT, help="nginx's port")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    parser.add_argument("--only", choices=["streams"], help="idle and this phase alone")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 8
    PORT = args.port

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the stream flood's sockets
    run_dir = tempfile.mkdtemp(prefix="canfield-bench-floods-")
    env = production_env(
        args.database, SLOT_DIR=tempfile.mkdtemp(prefix="canfield-bench-slots-"), RUN_DIR=run_dir
    )
    server = start_topology(
        root=ROOT, port=args.port, log=LOG.format(port=args.port), workers=args.workers, env=env
    )
    try:
        player = register(PLAYER, "player")
        if args.only == "streams":
            print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} (a shared machine)")
            measure(player, time.monotonic() + 2)  # warm-up
            idle = report("idle", measure(player, time.monotonic() + args.seconds), [])
            stream_flood(args, player, idle, run_dir)
            print(f"load after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
            return
        hinters = [register(f"127.{NET}.0.{10 + n}", f"hinter{n}") for n in range(args.hinters)]
        # As many games as an account's hints a minute (THROTTLE_HINTS), dealt beforehand.
        # (each account's in a thread of its own: THROTTLE_GAMES makes each wait a minute)
        hint_games: list[list[str]] = [[] for _ in hinters]

        def deal_hint_games(n: int, token: str) -> None:
            client = client_from(f"127.{NET}.0.{10 + n}", token)
            hint_games[n] = [str(new_game(client)["id"]) for _ in range(60)]

        dealing = [
            threading.Thread(target=deal_hint_games, args=(n, token))
            for n, token in enumerate(hinters)
        ]
        for thread in dealing:
            thread.start()
        for thread in dealing:
            thread.join()
        print(
            f"nginx + web pool {args.workers} sync workers + heavy pool "
            f"(nice {os.environ.get('HEAVY_NICE', 19)}), "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} "
            f"(a shared machine: figures are noisy)"
        )
        measure(player, time.monotonic() + 2)  # warm-up
        idle = report("idle", measure(player, time.monotonic() + args.seconds), [])

        attack(
            f"{args.hinters} hinting",
            player,
            args.seconds,
            idle,
            [
                lambda deadline, answers, n=n, token=token, games=games: hinter(
                    f"127.{NET}.0.{10 + n}", token, games, deadline, answers
                )
                for n, (token, games) in enumerate(zip(hinters, hint_games, strict=True))
            ],
        )

        started = time.monotonic()
        turn = iter(range(10**9))

        def rotating() -> str:
            """The next of this minute's `--addresses` addresses."""
            minute = int((time.monotonic() - started) // 60)
            return f"127.{NET}.{1 + minute}.{1 + next(turn) % args.addresses}"

        attack(
            f"{args.addresses} addresses guessing",
            player,
            args.seconds,
            idle,
            [
                lambda deadline, answers: guesser(rotating, "player", deadline, answers)
                for _ in range(args.guessers)
            ],
        )
        oauth_phase(env, player, args, idle)
        password_changes_phase(player, args, idle)
        wrong_deletes_phase(player, args, idle)
        phase_long_log_replays(args, player, idle)
        phase_game_creation_floods(args, player, idle)
        phase_guests(args, player, idle)
        stream_flood(args, player, idle, run_dir)
        print(f"load after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    finally:
        stop(server)
        shutil.rmtree(env["SLOT_DIR"], ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
