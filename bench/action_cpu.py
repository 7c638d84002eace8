"""CPU time of one practice action and of one ping in the app's own process, and where it goes.

    .venv/bin/python bench/action_cpu.py [--actions 2000] [--players 10] [--profile 25] [--quick]

bench/api.py's two phases without HTTP or a second process: the production settings and
environment of bench/api.py's server (DJANGO_DEBUG=0, fresh secrets, the request log on) on a
fresh PostgreSQL database `canfield_action_cpu` and REDIS_URL's Redis (default db 0), requests
built as gunicorn builds them and served by Django's WSGI handler (the whole middleware
stack). `--players` accounts each deal a practice game (a deal code) and send `--actions` legal
actions in all, draw or recycle with `expect`, round robin; then as many pings. Prints the
process's CPU time (time.process_time) per action and per ping, and cProfile's `--profile`
heaviest functions in CPU time (cumulative, then own) of a second round of actions. The
database's and Redis's own CPU is theirs, not counted here.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import os
import pstats
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database  # noqa: E402

os.environ.update(
    DATABASE_URL=fresh_database("canfield_action_cpu"),
    DJANGO_DEBUG="0",
    DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    DAILY_SECRET=secrets.token_urlsafe(50),
    MATCH_SECRET=secrets.token_urlsafe(50),
    DJANGO_SETTINGS_MODULE="canfield_site.settings",
    REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
    THROTTLE_REGISTER="100000/min",
    SIGNUP_LIMIT="100000",
    THROTTLE_ACTIONS="6000/minute",  # as shipped (leases of 6); 10 players stay under it
    THROTTLE_GAMES="1000000/min",
    THROTTLE_GAMES_BURST="1000000/s",
    THROTTLE_GAMES_ADDRESS="1000000/min",
    LOG_LEVEL="ERROR",
    SECURE_SSL_REDIRECT="0",
)

import django  # noqa: E402

django.setup()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games.engine import DealCode  # noqa: E402

HANDLER = WSGIHandler()


def request(method: str, path: str, body: object = None, token: str | None = None) -> Any:
    """(status, decoded JSON) of one request through the WSGI handler, as gunicorn passes it."""
    data = b"" if body is None else json.dumps(body).encode()
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8765", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8765", "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr, "CONTENT_LENGTH": str(len(data)),
        "CONTENT_TYPE": "application/json", "HTTP_ACCEPT_ENCODING": "identity",
    }  # fmt: skip
    if token is not None:
        environ["HTTP_AUTHORIZATION"] = f"Token {token}"
    answer: list[str] = []
    chunks = HANDLER(environ, lambda status, headers, exc_info=None: answer.append(status))
    payload = b"".join(chunks)
    chunks.close()
    return int(answer[0].split()[0]), json.loads(payload)


def players_deal(count: int) -> list[tuple[str, dict[str, Any]]]:
    """`count` accounts, each with a practice game: (token, the game as dealt)."""
    dealt = []
    for i in range(count):
        account = {"username": f"cpu{i}", "password": "bench-pass-99"}
        status, body = request("POST", "/api/v1/auth/register", account)
        assert status == 201, body
        code = str(DealCode(1000 + i, 3, version=2))
        status, game = request("POST", "/api/v1/games", {"code": code}, body["token"])
        assert status == 201 and game["practice"], game
        dealt.append((body["token"], game))
    return dealt


def actions_send(players: list[tuple[str, dict[str, Any]]], count: int) -> None:
    """`count` draws or recycles with `expect`, round robin over the players' games."""
    for n in range(count):
        index = n % len(players)
        token, game = players[index]
        action = {"type": "draw" if game["stock"]["count"] else "recycle", "expect": game["moves"]}
        status, body = request("POST", f"/api/v1/games/{game['id']}/actions", action, token)
        assert status == 200, body
        players[index] = token, body["game"]


def pings_send(count: int) -> None:
    for _ in range(count):
        assert request("GET", "/api/v1/ping")[0] == 200


def cpu_ms(work: Callable[[int], None], count: int) -> float:
    began = time.process_time()
    work(count)
    return 1000 * (time.process_time() - began) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--profile", type=int, default=25, help="functions listed (0: none)")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.actions, args.players, args.profile = 200, 5, 0
    call_command("migrate", verbosity=0)
    # The request log's lines are formatted as in production, and dropped.
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115
    players = players_deal(args.players)
    actions_send(players, 50)  # warm: connections, caches, first-use imports
    pings_send(50)
    action = cpu_ms(lambda n: actions_send(players, n), args.actions)
    ping = cpu_ms(pings_send, args.actions)
    profile = cProfile.Profile(time.process_time)  # CPU, not waits on the database
    if args.profile:
        profile.runcall(actions_send, players, args.actions)
    print(f"CPU per action {action:.3f} ms, per ping {ping:.3f} ms: "
          f"ping / action {ping / action:.2f} ({args.actions} of each)")  # fmt: skip
    if args.profile:
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
