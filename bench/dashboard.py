"""The operator's dashboard fed by a run: the production topology (through PgBouncer) under
players, hints, refused actions and live listeners, scraped every second by a real Prometheus
(Debian's `prometheus`) with the alert rules of deploy/prometheus/alerts.yml; then each panel
of deploy/grafana/canfield-dashboard.json is drawn from its own queries' results (Prometheus's
query_range) with matplotlib into docs/screenshots/dashboard.png. Grafana itself is not
available here (no Debian package, no image registry): the panels are the same queries, drawn
by matplotlib instead of Grafana.

    python bench/dashboard.py [--quick] [--seconds N] [--players N] [--listeners N]

Prints the figures it read back from Prometheus (actions/s, p99, batch lag, listeners) and the
alerts firing at the end. Needs PostgreSQL on 127.0.0.1:5432, Redis (REDIS_URL), nginx,
pgbouncer and prometheus.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import free_port, production_env, start_topology, stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "deploy" / "grafana" / "canfield-dashboard.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
OUT = ROOT / "docs" / "screenshots" / "dashboard.png"
PASSWORD = "correct-horse-99"


def printed(log: Path, prefix: str) -> str:
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith(prefix):
            return line.removeprefix(prefix).strip()
    raise SystemExit(f"the topology printed no {prefix!r}")


class Prometheus:
    """A Prometheus of this run's own: scrapes the metrics every second, evaluates the rules."""

    def __init__(self, target: str, workdir: Path) -> None:
        self.port = free_port()
        config = workdir / "prometheus.yml"
        config.write_text(
            json.dumps(
                {
                    "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                    "rule_files": [str(ALERTS)],
                    "scrape_configs": [
                        {"job_name": "canfield", "static_configs": [{"targets": [target]}]}
                    ],
                }
            )
        )
        self.log = open(workdir / "prometheus.log", "wb")  # noqa: SIM115 (open while it runs)
        self.process = subprocess.Popen(
            [shutil.which("prometheus") or "/usr/bin/prometheus",
             f"--config.file={config}", f"--storage.tsdb.path={workdir / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/-/ready", timeout=2)
                return
            time.sleep(0.5)
        raise SystemExit("prometheus did not start")

    def api(self, path: str, **params: object) -> object:
        url = f"http://127.0.0.1:{self.port}/api/v1/{path}?{urllib.parse.urlencode(params)}"
        with urllib.request.urlopen(url, timeout=30) as response:
            body = json.loads(response.read())
        assert body["status"] == "success", body
        return body["data"]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


def player_loop(base: str, name: str, daily: bool, stop_at: float, counts: dict) -> None:
    """Registers, plays draws and recycles (always legal) with `expect`; every 15th action is
    a refused one, every 25th a hint on a practice game."""
    with httpx.Client(base_url=base, timeout=30) as http:
        # A 503 while the host's password slot is busy, or nginx's 429 (sign-ups are a
        # password door: 1 a second per client, bursts of 5): try again when told.
        for _ in range(600):
            registered = http.post(
                "/api/v1/auth/register", json={"username": name, "password": PASSWORD}
            )
            if registered.status_code not in (429, 503):
                break
            time.sleep(float(registered.headers.get("Retry-After", "1")))
        token = registered.json()["token"]
        http.headers["Authorization"] = f"Token {token}"
        game = http.post("/api/v1/games", json={"draw": 3, "daily": daily}).json()
        for n in itertools.count(1):
            if time.monotonic() > stop_at:
                return
            path = f"/api/v1/games/{game['id']}"
            if n % 15 == 0:
                http.post(
                    f"{path}/actions", json={"type": "move", "from": "waste", "to": "reserve"}
                )
                counts["refused"] += 1
                continue
            if n % 25 == 0 and not daily:
                http.get(f"{path}/hint")
                counts["hints"] += 1
                continue
            action = {"type": "draw"} if game["stock"]["count"] else {"type": "recycle"}
            response = http.post(f"{path}/actions", json={**action, "expect": game["moves"]})
            if response.status_code == 200:
                game = response.json()["game"]
                counts["applied"] += 1
            else:
                game = http.get(path).json()


def listener_loop(url: str, stop_at: float) -> None:
    with connect(url, open_timeout=30) as ws:
        while time.monotonic() < stop_at:
            with contextlib.suppress(TimeoutError):
                ws.recv(timeout=1)


def draw(prometheus: Prometheus, start: float, end: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dashboard = json.loads(DASHBOARD.read_text())
    panels = dashboard["panels"]
    rows = math.ceil(len(panels) / 2)
    figure, axes = plt.subplots(rows, 2, figsize=(16, 3.3 * rows), squeeze=False)
    figure.suptitle(
        f"{dashboard['title']}: deploy/grafana/canfield-dashboard.json's panels, drawn by "
        "matplotlib from a real Prometheus (bench/dashboard.py; Grafana not available here)",
        fontsize=11,
    )
    for panel, axis in zip(panels, axes.flat, strict=False):
        for target in panel["targets"]:
            data = prometheus.api("query_range", query=target["expr"], start=start, end=end,
                                  step=2)  # fmt: skip
            for series in data["result"]:  # type: ignore[index]
                label = target["legendFormat"]
                for key, value in series["metric"].items():
                    label = label.replace("{{" + key + "}}", value)
                points = [(float(t) - start, float(v)) for t, v in series["values"]
                          if v not in ("NaN", "+Inf", "-Inf")]  # fmt: skip
                if points:
                    xs, ys = zip(*points, strict=True)
                    axis.plot(xs, ys, label=label[:48], linewidth=1.2)
        axis.set_title(f"{panel['title']} ({panel['fieldConfig']['defaults']['unit']})",
                       fontsize=10)  # fmt: skip
        axis.grid(alpha=0.3)
        axis.tick_params(labelsize=8)
        axis.set_xlabel("seconds into the run", fontsize=8)
        if axis.lines:
            axis.legend(fontsize=7, loc="upper left", ncol=2)
    for axis in list(axes.flat)[len(panels) :]:
        axis.remove()
    figure.tight_layout(rect=(0, 0, 1, 0.98))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(OUT, dpi=80)
    print(f"dashboard drawn: {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KiB)")


def scalar(prometheus: Prometheus, query: str, at: float) -> float:
    result = prometheus.api("query", query=query, time=at)["result"]  # type: ignore[index]
    values = [float(item["value"][1]) for item in result]
    return max((v for v in values if not math.isnan(v)), default=float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 s, 4 players, 10 listeners")
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--listeners", type=int, default=30)
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.players, args.listeners = 40, 4, 10
    workdir = Path(tempfile.mkdtemp(prefix="canfield-dashboard-"))
    metrics_port, port = free_port(), free_port()
    env = production_env(
        "bench_dashboard", PGBOUNCER="1", METRICS_PORT=str(metrics_port),
        THROTTLE_REGISTER="100000/hour", THROTTLE_TOKEN="100000/hour",
        THROTTLE_ACTIONS="1000000/minute", THROTTLE_HINTS="100000/minute",
        THROTTLE_HINTS_ADDRESS="100000/minute", SIGNUP_LIMIT="1000000",
        THROTTLE_GAMES="1000000/minute", THROTTLE_GAMES_BURST="1000000/second",
        THROTTLE_GAMES_ADDRESS="1000000/minute",
        WS_PER_ADDRESS="100000", DAILY_SOLVE_SECONDS="3", RUN_DIR=str(workdir / "run"),
    )  # fmt: skip
    log = workdir / "topology.log"
    topology = start_topology(root=ROOT, port=port, log=str(log), workers=2, env=env)
    prometheus = None
    try:
        target = urllib.parse.urlsplit(printed(log, "metrics on ")).netloc
        prometheus = Prometheus(target, workdir)
        base = f"http://127.0.0.1:{port}"
        date = httpx.get(f"{base}/api/v1/daily", timeout=30).json()["date"]
        start = time.time()
        stop_at = time.monotonic() + args.seconds
        counts = {"applied": 0, "refused": 0, "hints": 0}
        tag = os.getpid()
        threads = [
            threading.Thread(target=player_loop,
                             args=(base, f"dash{tag}p{n}", n % 2 == 0, stop_at, counts))
            for n in range(args.players)
        ] + [
            threading.Thread(target=listener_loop,
                             args=(f"ws://127.0.0.1:{port}/ws/daily/{date}/3/", stop_at))
            for _ in range(args.listeners)
        ]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(3)  # the last scrapes
        end = time.time()
        print(f"run: {args.seconds:.0f} s, {args.players} players, {args.listeners} listeners; "
              f"client saw {counts['applied']} applied, {counts['refused']} refused, "
              f"{counts['hints']} hints (shared 2-core machine)")  # fmt: skip
        p99 = "histogram_quantile(0.99, sum by (le) (rate({}_bucket[1m])))"
        figures = {
            "actions applied/s (1m rate at the end)": (
                "sum(rate(canfield_actions_applied_total[1m]))"
            ),
            "request p99 s (1m, at the end)": p99.format("canfield_http_request_duration_seconds"),
            "live batch lag p99 s (1m, at the end)": p99.format("canfield_live_batch_lag_seconds"),
            "live listeners (most at once)": "max_over_time(sum(canfield_live_listeners)[5m:1s])",
        }
        for label, query in figures.items():
            print(f"{label}: {scalar(prometheus, query, end - 3):.3f}")
        firing = [a["labels"]["alertname"] for a in prometheus.api("alerts")["alerts"]]  # type: ignore[index]
        print(f"alerts firing at the end: {len(firing)} {sorted(set(firing))}")
        draw(prometheus, start, end)
    finally:
        if prometheus is not None:
            prometheus.stop()
        stop(topology)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
