"""Every door that checks or sets a password goes to the heavy pool under the proxy's limit:
deploy/nginx.conf.template as it is, run by a real nginx in front of stand-in web, heavy and
ws processes that answer their own name. The client's address comes from a header (realip in
the template's ${BALANCER} slot), so that each door is flooded from an address of its own."""

from __future__ import annotations

import shutil
import string
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from scripts.ports import free_port
from tests import net

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin")

pytestmark = pytest.mark.skipif(NGINX is None, reason="no nginx")

# (method, path) of every password door (deploy/nginx.conf.template: `$password_door`).
DOORS = [
    ("POST", "/api/v1/auth/token"),
    ("POST", "/api/v1/auth/register"),
    ("POST", "/api/v1/account/password"),
    ("DELETE", "/api/v1/account"),
    ("POST", "/accounts/login/"),
    ("POST", "/accounts/signup/"),
    ("POST", "/account/password/"),
    ("POST", "/account/delete/"),
    ("POST", "/admin/login/"),
    ("POST", "/admin/password_change/"),
    ("POST", "/admin/auth/user/7/password/"),
    ("POST", "/oauth/token"),
    ("POST", "/oauth/revoke"),
]

# Requests that hash nothing: the web pool, never limited.
ORDINARY = [
    ("GET", "/api/v1/account"),
    ("GET", "/accounts/login/"),
    ("GET", "/account/password/"),
    ("POST", "/api/v1/games"),
    ("POST", "/api/v1/account/bot"),
    ("GET", "/oauth/authorize"),
]


class StandIn(ThreadingHTTPServer):
    """A threaded HTTP server whose listen queue takes a burst: the default's 5 pending
    connections, under a burst of 150 from nginx, dropped the rest (the client's retries of
    the handshake took seconds, past the tests' timeouts)."""

    request_queue_size = 256
    daemon_threads = True


def stand_in(name: str) -> StandIn:
    """An app process that answers every request with its pool's name."""

    class Handler(BaseHTTPRequestHandler):
        def answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_DELETE = answer

        def log_message(self, *args: object) -> None:
            pass

    server = StandIn(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def proxy(tmp_path_factory) -> Iterator[str]:
    run = tmp_path_factory.mktemp("nginx")
    servers = {name: stand_in(name) for name in ("web", "heavy", "ws")}
    port = free_port()

    def upstream(name: str) -> str:
        return f"server 127.0.0.1:{servers[name].server_address[1]};"

    config = string.Template(TEMPLATE.read_text()).safe_substitute(
        LISTEN=f"127.0.0.1:{port}",
        BALANCER="set_real_ip_from 127.0.0.1; real_ip_header X-Real-IP;",
        WEB_SERVERS=upstream("web"),
        HEAVY_SERVERS=upstream("heavy"),
        WS_SERVERS=upstream("ws"),
        RUN_DIR=str(run),
    )
    (run / "nginx.conf").write_text(config)
    # nginx's log to a file: it logs each request its limits refuse, and a pipe nobody reads
    # fills (64 KiB) and then blocks nginx itself, whose requests all hang
    log = run / "error.log"
    with log.open("wb") as errors:
        process = subprocess.Popen(
            [NGINX, "-e", "stderr", "-c", str(run / "nginx.conf"), "-g", "daemon off;"],
            stderr=errors,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                net.get(f"{url}/", headers={"X-Real-IP": "192.0.2.250"}, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        for server in servers.values():
            server.shutdown()


def send(url: str, method: str, path: str, address: str) -> httpx.Response:
    return net.request(
        method, url + path, headers={"X-Real-IP": address}, content=b"x=1", timeout=5
    )


def at_once(call: Callable[[], httpx.Response], times: int) -> list[httpx.Response]:
    """`call` once, then `times` - 1 more together, the answers in that order: a burst past a
    limit whatever the machine's pace (one after another, on a loaded machine, 20 requests
    could take the 15 s in which a 1-a-second bucket with bursts of 5 lets them all through)."""
    first = call()
    with ThreadPoolExecutor(times - 1) as pool:
        rest = [pool.submit(call) for _ in range(times - 1)]
        return [first, *(future.result() for future in rest)]


def assert_throttled(answers: list[httpx.Response], pool: str, message: str) -> None:
    """The first answer came from `pool`, so did every other 200, and the rest are the
    proxy's 429 in the API's shape, saying `message`, with `Retry-After: 1`."""
    assert answers[0].text == pool
    assert all(a.text == pool for a in answers if a.status_code == 200)
    refused = [a for a in answers if a.status_code != 200]
    assert refused and all(a.status_code == 429 for a in refused)
    assert refused[0].json()["error"] == {"code": "throttled", "message": message}
    assert refused[0].headers["Retry-After"] == "1"


@pytest.mark.parametrize(("method", "path"), DOORS, ids=[f"{m} {p}" for m, p in DOORS])
def test_each_password_door_goes_to_the_heavy_pool_under_a_limit(proxy, method, path):
    # given: a client of its own (an address per door: the limit counts per client)
    address = f"198.51.100.{DOORS.index((method, path)) + 1}"

    # when: it knocks 20 times at once
    answers = at_once(lambda: send(proxy, method, path, address), 20)

    # then: the first reach the heavy pool, the rest are answered by the proxy (1 a second,
    # bursts of 5: 20 in a row cannot all pass)
    assert answers[0].status_code == 200
    assert_throttled(answers, "heavy", "too many password attempts from this address, retry later")


def test_app_registrations_go_to_the_web_pool_under_a_limit_of_their_own(proxy):
    # given: a client registering OAuth apps in a loop (a row each, no password hash)
    # when: it asks 20 times at once
    answers = at_once(lambda: send(proxy, "POST", "/oauth/register", "203.0.113.66"), 20)

    # then: the first reach the web pool, the rest are answered by the proxy (1 a second,
    # bursts of 5), and another client is not affected
    assert answers[0].text == "web"
    assert all(a.text == "web" for a in answers if a.status_code == 200)
    refused = [a for a in answers if a.status_code != 200]
    assert refused and all(a.status_code == 429 for a in refused)
    assert refused[0].headers["Retry-After"] == "1"
    assert send(proxy, "POST", "/oauth/register", "203.0.113.67").text == "web"


def test_ordinary_requests_go_to_the_web_pool_without_that_limit(proxy):
    # given: one client making ordinary requests, many of each
    for method, path in ORDINARY:
        # when
        answers = [send(proxy, method, path, "203.0.113.9") for _ in range(10)]

        # then: all to web, none refused
        assert [a.text for a in answers] == ["web"] * 10, (method, path)


def test_replays_go_to_the_web_pool_under_a_limit_of_their_own(proxy):
    # given: a client looping on a replay page (megabytes for a long game)
    path = "/replay/8f14e45f-ceea-467f-a0e6-0123456789ab"

    # when: it asks 30 times at once
    answers = at_once(lambda: send(proxy, "GET", path, "203.0.113.77"), 30)

    # then: the first reach the web pool, the rest are answered by the proxy (1 a second,
    # bursts of 10), and another client is not affected
    assert answers[0].text == "web"
    refused = [a for a in answers if a.status_code != 200]
    assert refused and all(a.status_code == 429 for a in refused)
    assert refused[0].headers["Retry-After"] == "1"
    assert send(proxy, "GET", path, "203.0.113.78").text == "web"


def play_now(url: str, address: str, cookies: str | None = None) -> httpx.Response:
    headers = {"X-Real-IP": address}
    if cookies is not None:
        headers["Cookie"] = cookies
    return net.post(url + "/play/now", headers=headers, content=b"x=1", timeout=5)


def test_a_new_visitors_play_now_goes_to_the_heavy_pool_under_a_limit(proxy):
    # given: a visitor without a session (its CSRF and device cookies only): Play now makes
    # a guest, two commits that must not hold a web worker (issue 30)
    cookies = "csrftoken=abc; canfield_device=d1"

    # when: it presses Play now 20 times at once
    answers = at_once(lambda: play_now(proxy, "203.0.113.90", cookies), 20)

    # then: the first reach the heavy pool, the rest are answered by the proxy (1 a second,
    # bursts of 5), and another visitor is not affected
    assert answers[0].status_code == 200 and answers[0].text == "heavy"
    assert all(a.text == "heavy" for a in answers if a.status_code == 200)
    refused = [a for a in answers if a.status_code != 200]
    assert refused and all(a.status_code == 429 for a in refused)
    assert refused[0].headers["Retry-After"] == "1"
    assert play_now(proxy, "203.0.113.91").text == "heavy"


def test_play_now_with_a_session_goes_to_the_web_pool_without_that_limit(proxy):
    # given: a member (or a guest back for another game): a session cookie
    cookies = "csrftoken=abc; sessionid=s3ss10n"

    # when: it presses Play now many times
    answers = [play_now(proxy, "203.0.113.92", cookies) for _ in range(10)]

    # then: all to the web pool (a deal, as `POST games`, counted by the app's own limits)
    assert [a.text for a in answers] == ["web"] * 10
    # and the page's GET (405) is an ordinary request too
    get = net.get(proxy + "/play/now", headers={"X-Real-IP": "203.0.113.92"}, timeout=5)
    assert get.text == "web"


# Reads at once: past the anonymous limit (10 a second, bursts of 40) some are refused unless
# the 150 take over 11 s (one client's connections, 30 s each: a loaded machine is slow, never
# that slow).
READS = 150


def reads(url: str, path: str, address: str, headers: dict[str, str]) -> list[httpx.Response]:
    with httpx.Client(
        base_url=url, headers={"X-Real-IP": address, **headers}, timeout=30,
        limits=httpx.Limits(max_connections=READS),
    ) as client:  # fmt: skip
        return at_once(lambda: client.get(path), READS)


def test_anonymous_api_reads_are_limited_per_client(proxy):
    # given: an anonymous client (no key, no session) reading a game in a loop
    path = "/api/v1/games/8f14e45f-ceea-467f-a0e6-0123456789ab"

    # when: it asks 150 times at once
    answers = reads(proxy, path, "203.0.113.120", {})

    # then: the first reach the web pool, the rest past the burst are answered by the proxy
    # (10 a second, bursts of 40), in the API's shape; another client is not affected
    assert_throttled(answers, "web", "too many requests from this address, retry later")
    assert reads(proxy, path, "203.0.113.121", {})[0].text == "web"


@pytest.mark.parametrize(
    "credential",
    [{"Authorization": "Bearer cfk_abc"}, {"Cookie": "csrftoken=abc; sessionid=s3ss10n"}],
    ids=["key", "session"],
)
def test_api_reads_with_a_key_or_a_session_are_not_limited_by_the_proxy(proxy, credential):
    # given: a client with a credential (the app's throttles count it)
    path = "/api/v1/games/8f14e45f-ceea-467f-a0e6-0123456789ab"
    address = "203.0.113.122" if "Authorization" in credential else "203.0.113.123"

    # when: it reads 150 times at once
    answers = reads(proxy, path, address, credential)

    # then: every one reaches the web pool
    assert [a.text for a in answers] == ["web"] * READS
