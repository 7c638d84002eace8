"""Live boards under CPU load: listeners on one daily board while its players act without
pause, as many requests in flight as it takes to keep every core busy.

    .venv/bin/python bench/live.py [--listeners 2000] [--players 20] [--player-clients 2]
        [--seconds 10] [--clients 4] [--ws-processes 2] [--ws-nice 0] [--nodes 1|2]
        [--via nodes|balancer] [--one-process N ...] [--database canfield_live_bench]
        [--redis redis://127.0.0.1:6379/3] [--quick]

Starts scripts/serve-topology.sh with `--ws-processes` ws processes on a fresh PostgreSQL
database (127.0.0.1:5432) and the given Redis database; with `--nodes 2`, two such topologies
(nodes) through one PgBouncer with HAProxy in front (scripts/serve-balancer.sh), as
bench/nodes.py does. It puts `--players` players on today's 3-card daily (accounts and tokens
written straight to the database); they act (draw/recycle with `expect`) without pause through
the front (nginx, or HAProxy), each from a thread of its own in `--player-clients` client
processes (http.client, keep-alive: a lean client, since it shares the cores). One socket
straight to each ws process stays open all along (each process's hub then ticks in every
phase: its CPU without listeners is the baseline). Then:
1. the players act for `--seconds` with no listener;
2. `--listeners` WebSocket clients connect to the board from `--clients` client processes (a
   minimal client on uvloop; at most `HANDSHAKES` handshakes in flight each, `ATTEMPTS` tries
   per socket), through the front (one node: its nginx spreads them over its ws processes; two
   nodes: straight to each node's nginx in turn, since HAProxy would need two open files a
   socket, more than this machine's limit allows at 10,000; `--via balancer`: through it); once
   all are open, the players act again for `--seconds`;
3. the listeners close and the players act once more without them: the fall of actions/s is
   measured against the mean of phases 1 and 3, so that load from elsewhere weighs on both.
For each phase it prints actions/s, how busy the machine's cores were, and the CPU (share of one
core: CPU seconds / wall seconds) of the ws processes, the proxies (nginx), the players' client
and the listeners' client, which all share the machine; for the listeners: how many opened,
whether every one got every batch of phase 2 in the same order, whether an entry's moves ever
went back, and change-to-screen p50/p99 (for each action, from its answer to the arrival of the
first batch that shows it, over every action and listener); and the ws processes' CPU per batch
and listener (µs): their CPU in phase 2 less their mean rate without listeners, over the batches
times the listeners. `--one-process N ...`: for each N, N listeners straight to one ws process
while the players act. The open-file limit is raised to its hard limit. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import re
import resource
import secrets
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import uvloop
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import Client  # noqa: E402
from bench.daily import fresh_database, new_games, tokens_for  # noqa: E402
from tests.ops.stack import Balancer, PgBouncer, Topology, children_of, free_port  # noqa: E402

# Handshakes in flight per client process, and tries per socket (with back-off) before it counts
# as failed: a crowd connects at a sane rate, and a refused handshake is retried, not waited on.
HANDSHAKES = 16
ATTEMPTS = 5
CORES = os.cpu_count() or 1


class Listener(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455, enough for a board's listener): the handshake,
    unmasked text frames from the server (fragmented or not), pings answered, the close code
    kept. Thousands of them in a few client processes cost far less CPU than a full client
    library, which would otherwise take the cores the servers are measured on."""

    def __init__(self, host: str, path: str, keep: Any) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n\r\n"
        ).encode()
        self.keep, self.buffer, self.parts = keep, bytearray(), bytearray()
        self.upgraded = False
        self.first: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.first.done():
            self.first.set_exception(ConnectionError("closed before the snapshot"))

    def _send(self, opcode: int, payload: bytes) -> None:
        # Client frames are masked; a zero mask leaves the payload as it is.
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)

    def _got(self, text: bytes) -> None:
        self.keep(text)
        if not self.first.done():
            self.first.set_result(None)

    def data_received(self, data: bytes) -> None:
        if not self.buffer and self.upgraded:
            # The common case: one whole unfragmented text frame, read without copies.
            length = data[1] & 0x7F if len(data) > 1 else -1
            start = 2 if length < 126 else 4 if length == 126 else 10
            if length == 126 and len(data) >= 4:
                length = int.from_bytes(data[2:4], "big")
            elif length == 127 and len(data) >= 10:
                length = int.from_bytes(data[2:10], "big")
            if data[0] == 0x81 and len(data) == start + length and not self.parts:
                self._got(data[start:])
                return
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.transport.close()
                return
            del buffer[: end + 4]
            self.upgraded = True
        while len(buffer) >= 2:
            length, start = buffer[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            fin, opcode = buffer[0] & 0x80, buffer[0] & 0x0F
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            if opcode in (0, 1):
                self.parts += payload
                if fin:
                    self._got(bytes(self.parts))
                    self.parts.clear()
            elif opcode == 9:
                self._send(0xA, payload)
            elif opcode == 8:
                self.close_code = int.from_bytes(payload[:2], "big") if payload else 1005
                self._send(0x8, payload[:2])
                self.transport.close()


def listen(urls: list[str], pipe: Any) -> None:
    """A client process: opens one socket per url, sends ("open", opened, failed, retries),
    keeps every frame until told to stop, then sends (texts, per-socket [(arrival, text id)],
    close codes)."""
    texts: dict[bytes, int] = {}
    logs: list[list[tuple[float, int]]] = [[] for _ in urls]
    listeners: list[Listener | None] = [None for _ in urls]
    counts = {"opened": 0, "failed": 0, "retries": 0}

    async def one(i: int, url: str, gate: asyncio.Semaphore) -> None:
        host, _, path = url.removeprefix("ws://").partition("/")
        address, _, port = host.partition(":")
        log = logs[i]

        def keep(text: bytes) -> None:
            log.append((time.time(), texts.setdefault(text, len(texts))))

        loop = asyncio.get_running_loop()
        for attempt in range(ATTEMPTS):
            if attempt:
                counts["retries"] += 1
                await asyncio.sleep(0.5 * 2**attempt)
            log.clear()
            listener = None
            try:
                async with gate:
                    _, listener = await asyncio.wait_for(
                        loop.create_connection(
                            lambda: Listener(host, "/" + path, keep), address, int(port)
                        ),
                        30,
                    )
                    await asyncio.wait_for(listener.first, 30)  # the snapshot
                break
            except (OSError, TimeoutError):
                if listener is not None:  # its frames no longer count
                    listener.keep = lambda text: None
                    listener.transport.close()
                continue
        else:
            counts["failed"] += 1
            return
        counts["opened"] += 1
        listeners[i] = listener

    async def run() -> None:
        gate = asyncio.Semaphore(HANDSHAKES)
        await asyncio.gather(*(one(i, url, gate) for i, url in enumerate(urls)))
        pipe.send(("open", counts["opened"], counts["failed"], counts["retries"]))
        await asyncio.to_thread(pipe.recv)  # stop

    uvloop.run(run())
    codes: Counter[str] = Counter(
        "still open at the end" if listener.close_code is None else str(listener.close_code)
        for listener in listeners
        if listener is not None
    )
    by_id = [text.decode() for text in sorted(texts, key=texts.__getitem__)]
    pipe.send((by_id, logs, dict(codes)))


def players(port: int, games: list[tuple[str, dict[str, Any]]], pipe: Any) -> None:
    """A players' client process: a thread per game, each acting without pause (draw, or
    recycle when the stock is empty, with `expect`) for the seconds it is sent; sends back
    [(game, moves, answered at)] and this process's CPU seconds meanwhile. None: stop."""
    clients = [(Client(port, token), game) for token, game in games]
    while (seconds := pipe.recv()) is not None:
        answered: list[list[tuple[str, int, float]]] = [[] for _ in clients]
        deadline = time.monotonic() + seconds
        cpu = time.process_time()

        def play(client: Client, game: dict[str, Any], out: list, deadline: float) -> None:
            path = f"/api/v1/games/{game['id']}/actions"
            while time.monotonic() < deadline:
                action = "draw" if game["stock"]["count"] else "recycle"
                status, body = client.call("POST", path, {"type": action, "expect": game["moves"]})
                assert status == 200, (status, body)
                game.update(body["game"])  # type: ignore[index]
                out.append((game["id"], game["moves"], time.time()))

        threads = [
            threading.Thread(target=play, args=(client, game, out, deadline))
            for (client, game), out in zip(clients, answered, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        pipe.send(([a for out in answered for a in out], time.process_time() - cpu))


class Players:
    """The players' client processes (`players`), acting on command."""

    def __init__(self, port: int, games: list[tuple[str, dict[str, Any]]], count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes, self.processes = [], []
        for part in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=players, args=(port, games[part::count], theirs))
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    def act(self, seconds: float) -> tuple[list[tuple[str, int, float]], float]:
        """Every player acts for `seconds`: ([(game, moves, answered at)], client CPU s)."""
        for pipe in self.pipes:
            pipe.send(seconds)
        answered, cpu = [], 0.0
        for pipe in self.pipes:
            theirs, their_cpu = pipe.recv()
            answered += theirs
            cpu += their_cpu
        return answered, cpu

    def stop(self) -> None:
        for pipe in self.pipes:
            pipe.send(None)
        for process in self.processes:
            process.join(timeout=30)


def ws_ports(topology: Topology) -> list[int]:
    conf = (topology.dir / "run" / "nginx.conf").read_text()
    upstream = conf[conf.index("upstream ws") :]
    return [
        int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+);", upstream[: upstream.index("}")])
    ]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, all) CPU ticks of the whole machine so far (/proc/stat)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4], sum(fields)


def check(
    texts: list[str], logs: list[list[tuple[float, int]]], answered: dict[str, list[tuple]]
) -> tuple[str, bool, float, int]:
    """Every listener got the same batches in the same order; latencies from each action's
    answer to the first batch that shows it. (the report, all the same, p99 in seconds,
    batches)."""
    batches = [tuple(text for _, text in log[1:]) for log in logs if log]
    reference, same = Counter(batches).most_common(1)[0] if batches else ((), 0)
    shown: list[dict[str, int]] = []  # per text: game -> moves it shows
    backwards = 0
    for text in texts:
        message = json.loads(text)
        shown.append({e["game"]: e["moves"] for e in message.get("entries", [])})
    seen: dict[str, int] = {}
    for text in reference:
        for game, moves in shown[text].items():
            backwards += moves < seen.get(game, -1)
            seen[game] = moves
    latencies: list[float] = []
    for log in logs:
        # Per game, the next of its answered actions not yet on this listener's screen.
        pending = {game: 0 for game in answered}
        for arrival, text in log[1:]:
            for game, moves in shown[text].items():
                actions, first = answered.get(game, []), pending.get(game, 0)
                last = first
                while last < len(actions) and actions[last][0] <= moves:
                    latencies.append(arrival - actions[last][1])
                    last += 1
                pending[game] = last
    latencies.sort()
    # A skipped tick shows as two batches about 2 s apart (their first arrivals).
    firsts: dict[int, float] = {}
    for log in logs:
        for arrival, text in log[1:]:
            firsts[text] = min(firsts.get(text, arrival), arrival)
    arrivals = sorted(firsts[text] for text in reference if text in firsts)
    gaps = [later - earlier for earlier, later in zip(arrivals, arrivals[1:], strict=False)]
    p50 = statistics.median(latencies) if latencies else float("nan")
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)] if latencies else float("nan")
    counts = [len(got) for got in batches] or [0]
    report = (
        f"{len(batches)} listeners: {len(reference)} batches; per listener min {min(counts)} "
        f"max {max(counts)}; {same} got every batch in the same order; {backwards} entries "
        f"went back; change-to-screen p50 {p50 * 1000:.0f} ms p99 {p99 * 1000:.0f} ms "
        f"({len(latencies)} samples); between batches max {max(gaps, default=0):.2f} s, "
        f"{sum(gap > 1.5 for gap in gaps)} gaps over 1.5 s"
    )
    return report, same == len(batches) and backwards == 0, p99, len(reference)


class Listeners:
    """`urls` opened by `clients` client processes; `stop()` closes them and gathers what each
    socket received."""

    def __init__(self, urls: list[str], clients: int) -> None:
        context = multiprocessing.get_context("spawn")
        began = time.monotonic()
        self.pipes, self.processes = [], []
        for part in range(clients):
            mine, theirs = context.Pipe()
            process = context.Process(target=listen, args=(urls[part::clients], theirs))
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)
        self.opened = self.failed = self.retries = 0
        for pipe in self.pipes:
            _, opened, failed, retries = pipe.recv()
            self.opened, self.failed = self.opened + opened, self.failed + failed
            self.retries += retries
        self.seconds = time.monotonic() - began

    def __str__(self) -> str:
        return (
            f"{self.opened} listeners open in {self.seconds:.1f} s "
            f"({self.failed} failed after {ATTEMPTS} tries, {self.retries} retries)"
        )

    def stop(self) -> tuple[list[str], list[list[tuple[float, int]]], Counter[str]]:
        """(every distinct text received, per socket [(arrival, text index)], close codes)."""
        for pipe in self.pipes:
            pipe.send("stop")
        texts: list[str] = []
        logs: list[list[tuple[float, int]]] = []
        codes: Counter[str] = Counter()
        for pipe in self.pipes:
            their_texts, their_logs, their_codes = pipe.recv()
            shift = len(texts)  # one numbering of the texts for all processes
            texts += their_texts
            logs += [[(arrival, text + shift) for arrival, text in log] for log in their_logs]
            codes.update(their_codes)
        for process in self.processes:
            process.join(timeout=30)
        # The same text from two processes: one number.
        first: dict[str, int] = {}
        renumber = [first.setdefault(text, i) for i, text in enumerate(texts)]
        logs = [[(arrival, renumber[text]) for arrival, text in log] for log in logs]
        return texts, logs, codes


class Phase:
    """What one phase of `seconds` cost: actions, and CPU by group (share of one core)."""

    def __init__(self, seconds: float, answered: list[tuple[str, int, float]]) -> None:
        self.seconds, self.answered = seconds, answered
        self.cpu: dict[str, float] = {}
        self.batches = 0  # batches the listeners got (phase 2)

    @property
    def rate(self) -> float:
        return len(self.answered) / self.seconds

    def __str__(self) -> str:
        shares = ", ".join(f"{name} {cpu / self.seconds:.2f}" for name, cpu in self.cpu.items())
        return f"{self.rate:7.0f} actions/s; CPU, cores: {shares}"


class Bench:
    def __init__(self, args: argparse.Namespace, nodes: list[Topology], front: str) -> None:
        self.args, self.nodes, self.front = args, nodes, front
        self.ws = [node.pid(f"ws-{n}") for node in nodes for n in range(1, args.ws_processes + 1)]
        self.ports = [port for node in nodes for port in ws_ports(node)]

    def proxies(self) -> list[int]:
        """nginx's processes (master and workers) of every node."""
        masters = [node.pid("proxy") for node in self.nodes]
        return masters + [pid for master in masters for pid in children_of(master)]

    async def phase(self, players: Players, extra: dict[str, list[int]]) -> Phase:
        """The players act for --seconds; the CPU of every group meanwhile."""
        groups = {
            "machine busy": [],
            "ws processes": self.ws,
            "proxies": self.proxies(),
            "players' client": [],
            **extra,
        }
        before = {name: cpu_seconds(pids) for name, pids in groups.items()}
        ticks = machine_ticks()
        answered, players_cpu = await asyncio.to_thread(players.act, self.args.seconds)
        phase = Phase(self.args.seconds, answered)
        for name, pids in groups.items():
            phase.cpu[name] = cpu_seconds(pids) - before[name]
        busy, total = (now - then for now, then in zip(machine_ticks(), ticks, strict=True))
        phase.cpu["machine busy"] = busy / total * CORES * self.args.seconds
        phase.cpu["players' client"] = players_cpu
        return phase


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=2000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--player-clients", type=int, default=2, help="players' processes")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=4, help="listener client processes")
    parser.add_argument("--ws-processes", type=int, default=2, help="ws processes a node")
    parser.add_argument("--nodes", type=int, choices=(1, 2), default=1)
    parser.add_argument(
        "--via", choices=("nodes", "balancer"), default="nodes",
        help="two nodes: the listeners straight to each node's nginx, or through HAProxy",
    )  # fmt: skip
    parser.add_argument("--ws-nice", type=int, default=0, help="the ws processes' niceness")
    parser.add_argument("--one-process", type=int, nargs="*", default=[])
    parser.add_argument("--database", default="canfield_live_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.listeners, args.players, args.seconds, args.clients = 200, 10, 3.0, 2
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    database_url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    fresh_database(args.database, args.redis)
    env = {
        "WS_PROCESSES": str(args.ws_processes),
        "WS_NICE": str(args.ws_nice),
        # Every listener comes from this machine's one address: no cap on its sockets here.
        "WS_PER_ADDRESS": "1000000",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "MATCH_SECRET": secrets.token_urlsafe(50),
    }
    pgbouncer = balancer = None
    nodes: list[Topology] = []
    try:
        if args.nodes > 1:
            pgbouncer = PgBouncer(database_url)
            env["PGBOUNCER_URL"] = pgbouncer.url(database_url)
        for _ in range(args.nodes):
            # Behind the balancer a node also listens on a port of its own for it (the PROXY
            # protocol: the clients' addresses through).
            port = free_port() if args.nodes > 1 else None
            nodes.append(
                Topology(
                    database_url=database_url, redis_url=args.redis, env=env, balancer_port=port
                )
            )
        front = nodes[0].base_url
        if args.nodes > 1:
            balancer = Balancer([node.balancer_port or 0 for node in nodes], "1s")
            front = balancer.base_url
        bench = Bench(args, nodes, front)
        nice = sorted({os.getpriority(os.PRIO_PROCESS, pid) for pid in bench.ws})
        print(
            f"{args.nodes} node(s) behind {front}: ws on ports {bench.ports}, pids {bench.ws} "
            f"(niceness {nice}), "
            f"open files {hard}"
        )
        await run(bench, database_url)
    finally:
        for node in nodes:
            report_log(node)
        if balancer is not None:
            balancer.stop()
        for node in nodes:
            node.stop()
        if pgbouncer is not None:
            pgbouncer.stop()


async def run(bench: Bench, database_url: str) -> None:
    args = bench.args
    limits = httpx.Limits(max_connections=60)
    async with httpx.AsyncClient(base_url=bench.front, timeout=30, limits=limits) as client:
        tokens = await tokens_for("live", args.players, database_url)
        games = await new_games(client, tokens, {"daily": True, "draw": 3})
    path = f"/ws/daily/{games[0].game['daily']['date']}/3/"
    port = int(bench.front.rpartition(":")[2])
    players = Players(
        port, [(t, g.game) for t, g in zip(tokens, games, strict=True)], args.player_clients
    )
    # One socket straight to each ws process, open all along: every process's hub ticks in
    # every phase (its CPU without listeners is the baseline).
    primers = [
        await connect(f"ws://127.0.0.1:{port}{path}", compression=None, max_queue=None)
        for port in bench.ports
    ]

    async def drain(primer: Any) -> None:
        async for _ in primer:
            pass

    readers = [asyncio.create_task(drain(primer)) for primer in primers]
    try:
        await asyncio.to_thread(players.act, 1.0)  # warm up
        await asyncio.sleep(2.5)  # the warm-up's changes reach the primers: the board is still

        async def listened(urls: list[str]) -> tuple[Phase, str, bool, float]:
            """Phase 2 on these urls: (the phase, the listeners' report, all got every batch,
            change-to-screen p99)."""
            listeners = await asyncio.to_thread(Listeners, urls, args.clients)
            print(listeners, flush=True)
            clients = [p.pid for p in listeners.processes]
            phase = await bench.phase(players, {"listeners' client": clients})
            await asyncio.sleep(2)  # the last batch reaches every listener
            memory = ", ".join(f"{rss_mb(pid):.0f} MB" for pid in bench.ws)
            texts, logs, codes = await asyncio.to_thread(listeners.stop)
            answered: dict[str, list[tuple[int, float]]] = {}
            for game, moves, at in sorted(phase.answered, key=lambda a: a[2]):
                answered.setdefault(game, []).append((moves, at))
            report, same, p99, batches = check(texts, logs, answered)
            every = same and listeners.opened == len(urls)
            closes = ", ".join(f"{code}: {n}" for code, n in sorted(codes.items()))
            report += f"\nclose codes {closes}; ws memory {memory}"
            phase.batches = batches
            return phase, report, every, p99

        quiet = await bench.phase(players, {})
        print(f"no listeners:       {quiet}", flush=True)
        if args.nodes > 1 and args.via == "nodes":
            urls = [f"ws://127.0.0.1:{node.port}{path}" for node in bench.nodes]
        else:
            urls = [bench.front.replace("http://", "ws://") + path]
        urls = [urls[i % len(urls)] for i in range(args.listeners)]
        busy, report, _, _ = await listened(urls)
        again = await bench.phase(players, {})
        print(f"no listeners again: {again}", flush=True)
        mean = (quiet.rate + again.rate) / 2
        print(f"{args.listeners} listeners:    {busy}")
        print(
            f"the listeners cost {1 - busy.rate / mean:.0%} of the actions/s "
            "(against the mean without them)"
        )
        baseline = (quiet.cpu["ws processes"] + again.cpu["ws processes"]) / 2
        fanout = busy.cpu["ws processes"] - baseline
        if fanout > 0.1:  # /proc counts CPU in 10 ms ticks
            per = fanout / max(1, busy.batches * args.listeners) * 1e6
            print(
                f"ws processes' CPU per batch and listener: {per:.1f} µs ({busy.batches} batches)"
            )
        else:
            print(f"ws processes' CPU for the listeners: {fanout:.2f} s, too little to divide")
        print(report, flush=True)

        for count_ in args.one_process:
            urls = [f"ws://127.0.0.1:{bench.ports[0]}{path}"] * count_
            busy, report, every, p99 = await listened(urls)
            verdict = "holds them" if every and p99 < 1.5 else "does not hold them"
            print(f"one ws process, {count_} listeners: {busy}; {verdict}")
            print(report, flush=True)
    finally:
        players.stop()
        for reader in readers:
            reader.cancel()
        for primer in primers:
            await primer.close()


def report_log(node: Topology) -> None:
    log = node.log_path.read_text(errors="replace").splitlines()
    warnings: dict[str, list[str]] = {}
    for line in log:
        if line.startswith("{") and '"level": "warning"' in line:
            event = json.loads(line).get("event", "?")
            warnings.setdefault(event, []).append(line)
    print("the app's warnings:", {event: len(lines) for event, lines in warnings.items()})
    for lines in warnings.values():
        for line in lines[:20]:
            print("  ", line[:300])
    # The servers' own lines (nginx, uvicorn, supervisord: not the app's JSON): a refused
    # handshake or a dropped socket says why here.
    others = Counter(re.sub(r"\d+", "N", line)[:160] for line in log if not line.startswith("{"))
    print("server log lines other than the app's (digits as N):")
    for line, n in others.most_common(12):
        print(f"{n:7d}  {line}")


if __name__ == "__main__":
    asyncio.run(main())
