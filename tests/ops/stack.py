"""Real processes for the fault tests: a throwaway PostgreSQL cluster, a throwaway Redis and the
production topology (scripts/serve-topology.sh) on them, all on free loopback ports.

The machine's shared PostgreSQL and Redis are never touched: these are the servers the tests
stop and restart.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import glob
import itertools
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from scripts.ports import free_port
from tests.shared import built_once

ROOT = Path(__file__).resolve().parents[2]
PG_BINS = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
PG_BIN = Path(PG_BINS[-1]) if PG_BINS else None
NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin:/usr/local/sbin")
REDIS_SERVER = shutil.which("redis-server")


def tools_missing() -> str | None:
    """Why the fault tests cannot run here, or None."""
    if PG_BIN is None or not (PG_BIN / "initdb").exists():
        return "no PostgreSQL server binaries"
    if REDIS_SERVER is None:
        return "no redis-server"
    if NGINX is None:
        return "no nginx"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "no runuser to run PostgreSQL as the postgres user"
    return None


def wait_for(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Postgres:
    """A cluster of its own in a temp dir, its database `canfield` migrated: a copy of the
    cluster the test run migrated once (`migrated_cluster`; initdb refuses root: the tools run
    as `postgres`). `fresh=True`: a new cluster (initdb) with `canfield` empty."""

    def __init__(self, fresh: bool = False) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="canfield-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        if fresh:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        else:
            # (cp -a: the copy keeps the owner, and initdb's 0700, that PostgreSQL asks for)
            subprocess.run(["cp", "-a", str(migrated_cluster()), str(self.data)], check=True)
        self.start()
        if fresh:
            self._run(
                "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "canfield"
            )

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/canfield"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(PG_BIN / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-o", options, "-w",
            "start",
        )  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def clear_of_the_hours_end(seconds: float = 30) -> None:
    """Waits for the next clock hour when fewer than `seconds` of this one are left: the
    per-address limits of sign-ups and guests count in fixed clock hours (core/throttling.py),
    and a test that meets one must not straddle an hour's end (CI, 2026-12-07: a run that
    reached the sign-up test at 04:00 made five accounts, three before the hour and two after)."""
    if (left := 3600 - time.time() % 3600) < seconds:
        time.sleep(left + 1)


def _production_manage(*command: str, static_root: Path, **env: str) -> None:
    """`manage.py *command` with the production settings a topology runs (fresh secrets,
    STATIC_ROOT `static_root`, `env` on top); fails with what it printed."""
    run = subprocess.run(
        [sys.executable, "manage.py", *command, "--noinput", "-v", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, DJANGO_DEBUG="0", STATIC_ROOT=str(static_root),
                 DJANGO_SETTINGS_MODULE="tests.production_settings",
                 DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
                 DAILY_SECRET=secrets.token_urlsafe(50), **env),
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def _own_dir(prefix: str) -> Path:
    """A directory of this process's own, removed when it ends (`built_once` without a
    directory shared by the run)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path


@functools.cache
def migrated_cluster() -> Path:
    """A stopped cluster's data directory whose database `canfield` is migrated, as a topology
    migrates it (the production settings), made once for the test run (tests/shared.py): each
    `Postgres()` starts on a copy instead of initdb and a migrate of its own (~5 CPU-seconds and
    the migrations' DDL, a cluster). A topology started on it migrates as always and finds
    nothing to do."""

    def build(out: Path) -> None:
        cluster = Postgres(fresh=True)
        try:
            try:
                _production_manage("migrate", static_root=out, DATABASE_URL=cluster.url)
            finally:
                cluster.stop()
            subprocess.run(["cp", "-a", str(cluster.data), str(out / "data")], check=True)
        finally:
            shutil.rmtree(cluster.dir, ignore_errors=True)

    return built_once("postgres-cluster", build, lambda: _own_dir("canfield-pg-template-")) / "data"


class Redis:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self._answers, 10, "redis-server")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@functools.cache
def static_collected() -> Path:
    """The static files collected as production collects them (`collectstatic`, the production
    settings), once for the test run's topologies (tests/shared.py): ~5 CPU-seconds a collect,
    and a topology started (or restarted) a dozen times a run. The topologies only read them."""

    def collect(out: Path) -> None:
        _production_manage("collectstatic", static_root=out)

    return built_once("static", collect, lambda: _own_dir("canfield-static-"))


def static_collected_env() -> dict[str, str]:
    """A topology's environment for the production settings with the static files the test run
    collected once for all its topologies (`static_collected`), not the project's staticfiles/."""
    return {
        "DJANGO_SETTINGS_MODULE": "tests.production_settings",
        "STATIC_ROOT": str(static_collected()),
        "STATIC_COLLECTED": "1",
    }


class Topology:
    """scripts/serve-topology.sh: migrate, then supervisord running gunicorn (2 workers), uvicorn,
    the scheduler and nginx."""

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        workers: int = 2,
        pgbouncer: bool = False,
        env: dict[str, str] | None = None,
        port: int | None = None,
        balancer_port: int | None = None,
    ) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="canfield-topology-"))
        # A node started again behind a balancer comes back on the address the balancer knows.
        self.port = port or free_port()
        # The port a Balancer sends to (nginx takes the PROXY protocol there, from 127.0.0.1).
        self.balancer_port = balancer_port
        self.env = (
            dict(os.environ)
            | {
                "DATABASE_URL": database_url,
                "REDIS_URL": redis_url,
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
                "DAILY_SECRET": secrets.token_urlsafe(50),
                "PUBLIC_PORT": str(self.port),
                "RUN_DIR": str(self.dir / "run"),
                # A topology is a host: its hints and password checks take the slots of its own
                # (core/slots.py), not those of the test run's other servers, whose
                # password hashing would make its sign-ups wait (a 503 after SLOT_WAIT_SECONDS).
                "SLOT_DIR": str(self.dir / "slots"),
                "WEB_WORKERS": str(workers),
                "VENV_BIN": str(Path(sys.executable).parent),
                **static_collected_env(),
                # Many players register, and play, from one address within seconds.
                "THROTTLE_REGISTER": "10000/hour",
                "THROTTLE_TOKEN": "10000/hour",
                "THROTTLE_ACTIONS": "1000000/minute",
                "THROTTLE_GAMES": "1000000/minute",
                "THROTTLE_GAMES_BURST": "1000000/second",
                "GUEST_GLOBAL_BURST": "1000000",
                "THROTTLE_GAMES_ADDRESS": "1000000/minute",
                "SIGNUP_LIMIT": "1000000",
                # R36: fresh accounts play ranked dailies and rated matches at once.
                "RANKED_MIN_AGE_HOURS": "0",
                "RANKED_MIN_GAMES": "0",
                # The scheduler's solver budget per deal tried for a daily (R29), as in
                # tests/settings.py: with a new DAILY_SECRET each stack's deals are new, and one
                # the solver leaves undecided cost its whole budget (10 s by default) each start.
                "DAILY_SOLVE_SECONDS": "3",
                # No match deal pool: the scheduler would solve MATCH_POOL_SIZE deals per draw
                # mode at its start (where a MATCH_SECRET is given: the benchmarks), taking a
                # core from what the stack is there to measure.
                "MATCH_POOL_SIZE": "0",
                # The app through PgBouncer in transaction mode (scripts/serve-pgbouncer.sh).
                "PGBOUNCER": "1" if pgbouncer else "0",
            }
            | ({"BALANCER_PORT": str(balancer_port)} if balancer_port else {})
            | (env or {})
        )
        self.log_path = self.dir / "topology.log"
        # Appending: supervisord opens /dev/stdout anew, and its lines must not overwrite ours.
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (open for the topology's life)
        self.process = subprocess.Popen(
            ["bash", "scripts/serve-topology.sh"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for(self._ready, 180, "the topology to answer /readyz")
        except BaseException:
            # Its processes must not outlive the test (the fixture never gets the stack).
            print(self.log_path.read_text(errors="replace")[-3000:])
            self.stop()
            raise

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _printed(self, prefix: str) -> str:
        for line in self.log_path.read_text(errors="replace").splitlines():
            if line.startswith(prefix):
                return line.removeprefix(prefix).strip()
        raise AssertionError(f"the topology printed no line {prefix!r}")

    @property
    def metrics_url(self) -> str:
        """The internal metrics address (`manage.py serve_metrics`), never the proxy's."""
        return self._printed("metrics on ")

    @property
    def pgbouncer_port(self) -> int:
        """PgBouncer's port (pgbouncer=True)."""
        return int(self._printed("pgbouncer on ").rpartition(":")[2])

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"topology exited:\n{self.log_path.read_text()[-4000:]}")
        return b"topology ready" in self.log_path.read_bytes()

    def pid(self, program: str) -> int:
        """The pid of a supervised program (web, ws-1, scheduler, proxy); 0 when not running."""
        return int(self.supervisorctl("pid", program).stdout.strip() or 0)

    def programs(self, action: str, *names: str) -> subprocess.CompletedProcess[str]:
        """Stop or start supervised programs and wait until they are (scripts/programs.py, as
        serve-topology.sh's own stop: `supervisorctl stop|start` would keep supervisord's loop
        spinning on a core for as long as they take)."""
        return subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "programs.py"),
             str(self.dir / "run" / "supervisor.sock"), action, *names],
            capture_output=True,
            text=True,
            timeout=40,
        )  # fmt: skip

    def supervisorctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(Path(sys.executable).parent / "supervisorctl"),
             "-c", str(self.dir / "run" / "supervisord.conf"), *args],
            capture_output=True,
            text=True,
            timeout=30,
        )  # fmt: skip

    def web_master(self) -> int:
        return self.pid("web")

    def web_workers(self) -> list[int]:
        return sorted(children_of(self.web_master()))

    def log_lines(self, since: int = 0) -> list[dict[str, Any]]:
        """The JSON lines the app logged, from byte offset `since`."""
        lines = []
        for raw in self.log_path.read_bytes()[since:].splitlines():
            try:
                line = json.loads(raw)
            except ValueError:
                continue  # gunicorn's, uvicorn's and nginx's own lines
            if isinstance(line, dict):
                lines.append(line)
        return lines

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env | {"DJANGO_DEBUG": "0", "SECURE_SSL_REDIRECT": "0"},
            capture_output=True,
            text=True,
            timeout=120,
        )

    def drain_stop(self, timeout: float = 60) -> None:
        """Stop as an operator does behind a balancer: SIGTERM to serve-topology.sh alone, which
        drains (DRAIN_SECONDS of /readyz 503) before it stops the app processes gracefully."""
        started = process_tree(self.process.pid)
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout)
        finally:
            self.stop(started)

    def kill(self) -> None:
        """SIGKILL every process of this node at once (supervisord and all it started), as a
        machine that dies. Each is stopped (SIGSTOP) first, until no new one appears: killed
        one by one (in a set's order), a supervisord or scheduler.sh that outlived a child of
        theirs by a moment could start it anew, an orphan that went on serving the node."""
        tree: set[int] = set()
        while new := set(process_tree(self.process.pid)) - tree:
            for pid in new:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            tree |= new
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(10)
        for pid in tree:  # gone, not only signalled (no port of this node left bound)
            wait_for(lambda pid=pid: _start_time(pid) is None, 10, f"process {pid} to die")

    def stop(self, started: dict[int, str] | None = None) -> None:
        """SIGTERM to serve-topology.sh's process group, SIGKILL after 20 s; then SIGKILL to
        whatever of its processes (`started`: as they were before a stop began) outlived it.
        supervisord runs each program in a process group of its own and stops them as it
        exits; a supervisord killed before it had (its programs still starting, on a loaded
        machine) left them running: a heavy pool's gunicorn outlived a CI run."""
        started = started or process_tree(self.process.pid)
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)
        except ProcessLookupError:
            pass
        for pid, start in started.items():
            if _start_time(pid) == start:  # (the same process, not a new one with its pid)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _start_time(pid: int) -> str | None:
    """When process `pid` started (clock ticks after boot, /proc/PID/stat), None if it is gone
    or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def process_tree(pid: int) -> dict[int, str]:
    """Process `pid` and its descendants, each with its start time (`_start_time`)."""
    tree = {pid}
    frontier = [pid]
    while frontier:
        children = children_of(frontier.pop())
        frontier.extend(children - tree)
        tree |= children
    return {p: start for p in tree if (start := _start_time(p)) is not None}


def children_of(pid: int) -> set[int]:
    found = set()
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(Path(stat).parent.name))
    return found


# The loopback addresses players connect from, one each (127.0.0.1 is the test's own).
PLAYER_ADDRESSES = (f"127.30.{n // 250 % 250}.{1 + n % 250}" for n in itertools.count())

# Answers a client may get while a part is down, after which it retries the same request.
RETRY_STATUSES = {502, 503, 504}


class Player:
    """A client that plays with `expect` and retries whatever may not have landed.

    It alternates draws and recycles (always legal), so every applied action shows in `moves`.
    On a retry answered `stale`, it reads the game: one move more than it expected means its
    earlier attempt landed. `sent` is what it believes the log holds, in order.
    """

    def __init__(self, base_url: str, name: str) -> None:
        # Each player from a loopback address of its own, as people are: the proxy limits
        # sign-ups (a password door) per client address.
        self.address = next(PLAYER_ADDRESSES)
        self.http = httpx.Client(
            base_url=base_url,
            timeout=10,
            transport=httpx.HTTPTransport(local_address=self.address),
        )
        self.name = name
        self.statuses: Counter[int | str] = Counter()
        self.bad_bodies: list[str] = []
        self.reconciled = 0
        self.sent: list[str] = []
        token = self._register({"username": name, "password": "correct-horse-99"})
        self.http.headers["Authorization"] = f"Token {token}"
        self.game: dict[str, Any] = {}

    def _register(self, body: dict[str, str]) -> str:
        """A sign-up, retried through outages. A retry refused because the name is taken means
        an earlier attempt landed and only its answer was lost (a timeout on a loaded machine,
        a process killed after the commit): then the account is ours, and a login gets a key."""
        unanswered = False
        for _ in range(300):
            response = self._send("POST", "/api/v1/auth/register", body)
            if response is None or response.status_code in RETRY_STATUSES:
                unanswered = True
                time.sleep(0.1)
                continue
            if response.status_code == 400 and unanswered:
                return str(self._call("POST", "/api/v1/auth/token", body)["token"])
            assert response.status_code < 400, (response.status_code, response.text)
            return str(response.json()["token"])
        raise AssertionError(f"{self.name}: sign-up never answered")

    def new_game(self, **body: Any) -> dict[str, Any]:
        self.game = self._call("POST", "/api/v1/games", body or {"draw": 3})
        self.sent = []
        return self.game

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        """One call, retried through outages until it gets a real answer."""
        for _ in range(300):
            response = self._send(method, path, body)
            if response is not None and response.status_code not in RETRY_STATUSES:
                assert response.status_code < 400, (response.status_code, response.text)
                return response.json()
            time.sleep(0.1)
        raise AssertionError(f"{method} {path} never succeeded")

    def _send(self, method: str, path: str, body: Any) -> httpx.Response | None:
        try:
            response = self.http.request(method, path, json=body)
        except httpx.TransportError as error:
            self.statuses[type(error).__name__] += 1
            return None
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            error = {}
            with contextlib.suppress(ValueError):
                error = response.json().get("error", {})
            if (
                response.status_code != 503
                or error.get("code") != "unavailable"
                or "Traceback" in response.text
            ):
                self.bad_bodies.append(f"{response.status_code} {response.text[:300]}")
        return response

    def act(self) -> None:
        action = {"type": "draw"} if self.game["stock"]["count"] else {"type": "recycle"}
        expect = self.game["moves"]
        path = f"/api/v1/games/{self.game['id']}/actions"
        for _ in range(300):
            response = self._send("POST", path, {**action, "expect": expect})
            if response is None or response.status_code in RETRY_STATUSES:
                time.sleep(0.1)
                continue
            if response.status_code == 409 and response.json()["error"]["code"] == "stale":
                game = self._call("GET", f"/api/v1/games/{self.game['id']}")
                assert game["moves"] == expect + 1, (expect, game["moves"])
                self.reconciled += 1
                break
            assert response.status_code == 200, (response.status_code, response.text)
            game = response.json()["game"]
            break
        else:
            raise AssertionError(f"{self.name}: action never answered")
        self.game = game
        self.sent.append(action["type"])

    def logged(self) -> list[dict[str, Any]]:
        return self._call("GET", f"/api/v1/games/{self.game['id']}/actions")

    def server_game(self) -> dict[str, Any]:
        return self._call("GET", f"/api/v1/games/{self.game['id']}")


class PgBouncer:
    """One PgBouncer (scripts/serve-pgbouncer.sh, transaction mode) that several nodes share."""

    def __init__(self, upstream: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="canfield-pgbouncer-"))
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "nobody")
        self.process = subprocess.Popen(
            ["bash", "scripts/serve-pgbouncer.sh"],
            cwd=ROOT,
            env=dict(os.environ)
            | {
                "PGBOUNCER_BIND": f"127.0.0.1:{self.port}",
                "PGBOUNCER_UPSTREAM": upstream,
                "PGBOUNCER_DIR": str(self.dir),
                "VENV_BIN": str(Path(sys.executable).parent),
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for(self._answers, 20, "pgbouncer")

    def url(self, database_url: str) -> str:
        """database_url with PgBouncer's address instead of the server's."""
        head, _, tail = database_url.partition("@")
        return f"{head}@127.0.0.1:{self.port}/{tail.partition('/')[2]}"

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError("pgbouncer exited")
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Balancer:
    """HAProxy in front of nodes (scripts/serve-balancer.sh, deploy/haproxy.cfg.template): `nodes`
    are their balancer ports (Topology's `balancer_port`: the PROXY protocol)."""

    def __init__(self, nodes: list[int], check_interval: str = "200ms") -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="canfield-balancer-"))
        self.port = free_port()
        self.log_path = self.dir / "balancer.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (open for the balancer's life)
        self.process = subprocess.Popen(
            ["bash", "scripts/serve-balancer.sh"],
            cwd=ROOT,
            env=dict(os.environ)
            | {
                "BALANCER_LISTEN": f"127.0.0.1:{self.port}",
                "NODES": " ".join(f"127.0.0.1:{port}" for port in nodes),
                "CHECK_INTERVAL": check_interval,
                "RUN_DIR": str(self.dir),
                "VENV_BIN": str(Path(sys.executable).parent),
            },
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(lambda: self.up() == len(nodes), 30, "the balancer to see every node up")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def states(self) -> dict[str, str]:
        """Each node's state as HAProxy sees it (its stats socket): UP, DOWN, ..."""
        return {name: row["status"] for name, row in self.stats().items()}

    def stats(self) -> dict[str, dict[str, str]]:
        """Each node's row of HAProxy's statistics (its stats socket): status, check_status,
        check_desc, last_chk, ..."""
        if self.process.poll() is not None:
            raise AssertionError(f"haproxy exited:\n{self.log_path.read_text()[-2000:]}")
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(5)
                sock.connect(str(self.dir / "haproxy.sock"))
                sock.sendall(b"show stat\n")
                raw = b""
                while chunk := sock.recv(65536):
                    raw += chunk
        except OSError:
            return {}
        lines = raw.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        return {
            row["svname"]: row
            for row in rows
            if row["pxname"] == "nodes" and row["svname"].startswith("node-")
        }

    def up(self) -> int:
        return sum(state == "UP" for state in self.states().values())

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(10)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
