"""A cheap API read while clients hammer the login doors with wrong passwords.

    .venv/bin/python bench/logins.py [--seconds 30] [--attackers 8] [--workers 2]
                                     [--database canfield_bench_logins]

Starts the production topology (`scripts/serve-topology.sh`: nginx in front of gunicorn sync
workers, DJANGO_DEBUG=0, the production settings' PBKDF2 hasher) on a fresh PostgreSQL database
and the Redis of REDIS_URL (default redis://127.0.0.1:6379/0), makes one account, then
measures the p50/p99 latency of a cheap read (`GET /api/v1/daily`, one client, one request
after another):
1. idle, for `--seconds`;
2. while `--attackers` clients send wrong passwords as fast as they are answered, spread over
   the doors: the API token (POST /api/v1/auth/token), the web login and the admin login (each
   with its CSRF cookie), guessing the account's password and random names.
All come from the loopback address: nginx answers a client's password POSTs beyond 1 a second
(bursts of 5) itself, and django-axes locks the address out after LOGIN_FAILURE_LIMIT
failures, after which no password is hashed for it. Prints the figures, the attackers'
answers and the ratio of the two p50s (the target: at most 2).
Traffic goes to 127.0.0.1 only; every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import Client, production_env, start_topology, stop  # noqa: E402

PORT = 8767
LOG = "/tmp/canfield-bench-logins.log"  # the server's stderr, for when something fails
READ = "/api/v1/daily"
DOORS = ("token", "web", "admin")


def read_latencies(deadline: float) -> list[float]:
    client = Client(PORT)
    latencies = []
    while time.monotonic() < deadline:
        started = time.perf_counter()
        status, _ = client.send("GET", READ)
        latencies.append((time.perf_counter() - started) * 1000)
        assert status == 200, status
    return latencies


def attack(door: str, deadline: float, answers: Counter[str]) -> None:
    """Wrong passwords through one door until the deadline: the account's or random names."""
    client = Client(PORT)
    form_path = {"web": "/accounts/login/", "admin": "/admin/login/"}.get(door)
    while time.monotonic() < deadline:
        name = "victim" if secrets.randbelow(2) else f"guess{secrets.token_hex(3)}"
        password = secrets.token_urlsafe(12)
        if form_path is None:
            body = json.dumps({"username": name, "password": password})
            status, _ = client.send("POST", "/api/v1/auth/token", body)
        else:
            if "csrftoken" not in client.cookies:
                client.send("GET", form_path)
            token = client.cookies.get("csrftoken", "")
            body = f"csrfmiddlewaretoken={token}&username={name}&password={password}"
            status, _ = client.send(
                "POST", form_path, body, content_type="application/x-www-form-urlencoded"
            )
        answers[f"{door} {status}"] += 1


def report(name: str, latencies: list[float]) -> float:
    p50 = statistics.median(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) >= 2 else p50
    print(f"{name:<28} {len(latencies):>6} reads   p50 {p50:8.1f} ms   p99 {p99:8.1f} ms")
    return p50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--attackers", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--database", default="canfield_bench_logins")
    parser.add_argument(
        "--failure-limit", default="10", help="LOGIN_FAILURE_LIMIT; a huge one shows no lock-out"
    )
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 5

    env = production_env(
        args.database,
        LOGIN_FAILURE_LIMIT=args.failure_limit,
        THROTTLE_TOKEN="1000000/hour",  # the lock-out alone stops the guessing here
    )
    server = start_topology(root=ROOT, port=PORT, log=LOG, workers=args.workers, env=env)
    try:
        body = json.dumps({"username": "victim", "password": secrets.token_urlsafe(16)})
        status, _ = Client(PORT).send("POST", "/api/v1/auth/register", body)
        assert status == 201, status
        hasher = subprocess.run(
            [sys.executable, "-c", "from django.conf import settings; import django; "
             "django.setup(); print(settings.PASSWORD_HASHERS[0])"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        print(
            f"nginx + gunicorn {args.workers} sync workers, hasher {hasher}, {args.attackers} "
            f"attackers, LOGIN_FAILURE_LIMIT {args.failure_limit}, "
            f"{os.cpu_count()} CPUs (shared: figures are noisy)"
        )
        read_latencies(time.monotonic() + 2)  # warm-up
        idle = report("idle", read_latencies(time.monotonic() + args.seconds))

        answers: Counter[str] = Counter()
        deadline = time.monotonic() + args.seconds
        threads = [
            threading.Thread(target=attack, args=(DOORS[i % len(DOORS)], deadline, answers))
            for i in range(args.attackers)
        ]
        for thread in threads:
            thread.start()
        loaded = report("under attack", read_latencies(deadline))
        for thread in threads:
            thread.join()
        attempts = sum(answers.values())
        print(
            f"attackers: {attempts} attempts ({attempts / args.seconds:.0f}/s): "
            + ", ".join(f"{key}: {count}" for key, count in sorted(answers.items()))
        )
        ratio = loaded / idle
        print(f"p50 under attack / idle: {ratio:.2f} (target <= 2)")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
