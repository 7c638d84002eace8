"""Live boards under load: listeners on one daily board while its players act at full speed.

    .venv/bin/python bench/live.py [--listeners 2000] [--players 20] [--seconds 8]
                                   [--clients 4] [--one-process 2000 4000] [--quick]

Starts scripts/serve-topology.sh with two ws processes (WS_PROCESSES=2) on a fresh
PostgreSQL database `canfield_live_bench` (127.0.0.1:5432) and Redis db 3, puts `--players`
players on today's 3-card daily (accounts and tokens written straight to the database), then:
1. the players act (draw/recycle with `expect`, through nginx) for `--seconds` with no listener;
2. `--listeners` WebSocket clients connect to the board through nginx (which spreads them over
   the two ws processes), from `--clients` client processes, each with at most
   `HANDSHAKES` handshakes in flight and `ATTEMPTS` tries per socket (retries are counted), and
   once all are open the players act again for `--seconds`;
3. the listeners close and the players act once more without them: the fall is measured
   against the mean of phases 1 and 3, so that load from elsewhere weighs on both sides.
Prints actions/s of the phases and the fall; for the listeners: how many opened (and the
retries and close codes), whether every one got every batch of phase 2 in the same order (the
board is still while they connect, so all of them must get the same batches), whether an
entry's moves ever went back, and the change-to-screen latency: for each action, from its
answer to the arrival of the first batch that shows it (its moves or later ones of its game),
p50/p99 over every action and listener; and each ws process's memory. `--one-process N ...`:
for each N, N listeners straight to one ws process while the players act: the largest N whose
listeners all open and all get every batch is the count one process holds. The open-file limit
is raised to its hard limit. Loopback only.
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
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.daily import Game, fresh_database, new_games, play, tokens_for  # noqa: E402
from tests.ops.stack import Topology  # noqa: E402

DATABASE = "canfield_live_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:6379/3"


# Handshakes in flight per client process, and tries per socket (with back-off) before it counts
# as failed: a crowd connects at a sane rate, and a refused handshake is retried, not waited on.
HANDSHAKES = 16
ATTEMPTS = 5


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

    def data_received(self, data: bytes) -> None:
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
                    self.keep(bytes(self.parts))
                    self.parts.clear()
                    if not self.first.done():
                        self.first.set_result(None)
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

    asyncio.run(run())
    codes: Counter[str] = Counter(
        "still open at the end" if listener.close_code is None else str(listener.close_code)
        for listener in listeners
        if listener is not None
    )
    by_id = [text.decode() for text in sorted(texts, key=texts.__getitem__)]
    pipe.send((by_id, logs, dict(codes)))


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


def ws_processes(topology: Topology) -> list[int]:
    """The topology's WebSocket server processes (programs ws-1 and ws-2 of supervisord)."""
    return [topology.pid(f"ws-{n}") for n in (1, 2)]


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


def check(
    texts: list[str], logs: list[list[tuple[float, int]]], answered: dict[str, list[tuple]]
) -> tuple[str, bool, float]:
    """Every listener got the same batches in the same order; latencies from each action's
    answer to the first batch that shows it. (the report, all the same, p99 in seconds)."""
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
    return report, same == len(batches) and backwards == 0, p99


async def act(games: list[Game], seconds: float, answered: dict | None = None) -> float:
    """The players act for `seconds`: actions/s. `answered`: game -> [(moves, answered at)]."""
    original = Game.act

    async def act_and_record(self: Game) -> float:
        took = await original(self)
        if answered is not None:
            answered.setdefault(self.game["id"], []).append((self.game["moves"], time.time()))
        return took

    Game.act = act_and_record  # type: ignore[method-assign]
    try:
        latencies = await play(games, len(games), seconds)
    finally:
        Game.act = original  # type: ignore[method-assign]
    return len(latencies) / seconds


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


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=2000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=4, help="listener client processes")
    parser.add_argument("--one-process", type=int, nargs="*", default=[])
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.listeners, args.players, args.seconds, args.clients = 200, 10, 3.0, 2
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    fresh_database(DATABASE)
    os.environ["WS_PROCESSES"] = "2"
    # Every listener comes from this machine's one address: no cap on its sockets here.
    os.environ["WS_PER_ADDRESS"] = "1000000"
    topology = Topology(database_url=DATABASE_URL, redis_url=REDIS_URL)
    try:
        ports = ws_ports(topology)
        print(f"topology on {topology.base_url}: ws on ports {ports}, open files {hard}")
        limits = httpx.Limits(max_connections=args.players + 10)
        async with httpx.AsyncClient(
            base_url=topology.base_url, timeout=30, limits=limits
        ) as client:
            tokens = await tokens_for("live", args.players, DATABASE_URL)
            games = await new_games(client, tokens, {"daily": True, "draw": 3})
            path = f"/ws/daily/{games[0].game['daily']['date']}/3/"
            await act(games, 1.0)  # warm up

            async def listened(urls: list[str]) -> tuple[float, str, bool, float]:
                """Phase 2 on these urls: (actions/s, the listeners' report, all got every
                batch, change-to-screen p99)."""
                # Changes made while no hub listened go out in the first tick of the first
                # listener's hub: a first socket takes it, then the board is still while the
                # crowd connects (so all of them must get the same batches).
                primer = await connect(urls[0], compression=None, max_queue=None)
                await asyncio.sleep(2.5)
                listeners = await asyncio.to_thread(Listeners, urls, args.clients)
                print(listeners, flush=True)
                answered: dict[str, list[tuple[int, float]]] = {}
                servers, clients = ws_processes(topology), [p.pid for p in listeners.processes]
                cpu_before = cpu_seconds(servers), cpu_seconds(clients)
                busy = await act(games, args.seconds, answered)
                cpu = cpu_seconds(servers) - cpu_before[0], cpu_seconds(clients) - cpu_before[1]
                await asyncio.sleep(2)  # the last batch reaches every listener
                memory = ", ".join(f"{rss_mb(pid):.0f} MB" for pid in servers)
                texts, logs, codes = await asyncio.to_thread(listeners.stop)
                await primer.close()
                report, same, p99 = check(texts, logs, answered)
                if os.environ.get("LIVE_DUMP"):
                    import pickle

                    Path(os.environ["LIVE_DUMP"]).write_bytes(pickle.dumps((texts, logs, answered)))
                every = same and listeners.opened == len(urls)
                closes = ", ".join(f"{code}: {n}" for code, n in sorted(codes.items()))
                report += (
                    f"\nclose codes {closes}; ws memory {memory}; CPU while the players "
                    f"acted: ws processes {cpu[0] / args.seconds:.0%}, listener clients "
                    f"{cpu[1] / args.seconds:.0%} of a core"
                )
                return busy, report, every, p99

            quiet = await act(games, args.seconds)
            print(f"no listeners:        {quiet:7.0f} actions/s", flush=True)
            urls = [f"ws://127.0.0.1:{topology.port}{path}"] * args.listeners  # through nginx
            busy, report, _, _ = await listened(urls)
            again = await act(games, args.seconds)
            print(f"no listeners again:  {again:7.0f} actions/s", flush=True)
            print(
                f"{args.listeners} listeners:     {busy:7.0f} actions/s "
                f"(fall {1 - busy / ((quiet + again) / 2):.0%} against the mean without)"
            )
            print(report, flush=True)

            for count in args.one_process:
                urls = [f"ws://127.0.0.1:{ports[0]}{path}"] * count
                busy, report, every, p99 = await listened(urls)
                verdict = "holds them" if every and p99 < 1.5 else "does not hold them"
                print(f"one ws process, {count} listeners: {busy:.0f} actions/s; {verdict}")
                print(report, flush=True)
    finally:
        log = topology.log_path.read_text(errors="replace").splitlines()
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
        others = Counter(
            re.sub(r"\d+", "N", line)[:160] for line in log if not line.startswith("{")
        )
        print("server log lines other than the app's (digits as N):")
        for line, n in others.most_common(12):
            print(f"{n:7d}  {line}")
        topology.stop()


if __name__ == "__main__":
    asyncio.run(main())
