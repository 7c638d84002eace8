"""Browser tests: a real ASGI server (uvicorn as in production, HTTP and WebSockets) in a
subprocess on a free port, against its own fresh database, driven by Playwright through
Debian's Chromium."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scripts.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@contextmanager
def asgi_server(env: dict[str, str], log_path: Path, clock: str | None = None) -> Iterator[str]:
    """The production ASGI server (scripts/serve-ws.sh: uvicorn, HTTP and WebSockets) on a free
    port serving the project with `env`; yields its URL. With a `clock` (an ISO time), the
    server's clock starts there and ticks on (tests/web/clocked.py): a server whose "today" a
    test chooses. Idle connections are kept 75 s, as nginx keeps a client's in production (the
    clients here talk to this server directly; uvicorn's own 5 s would race their next call)."""
    port = free_port()
    env = dict(env, WS_BIND=f"127.0.0.1:{port}")
    if clock is not None:
        env.update(ASGI_APP="tests.web.clocked:application", TEST_CLOCK=clock)
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            ["bash", "scripts/serve-ws.sh", "--timeout-keep-alive", "75"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            # Generous: CI runs two passes at once on two cores, and Django's first request
            # imports most of the project.
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{url}/accounts/login/", timeout=2)
                    break
                except OSError as error:
                    if process.poll() is not None or time.monotonic() > deadline:
                        log.flush()
                        tail = log_path.read_text(errors="replace")[-2000:]
                        raise RuntimeError(
                            f"the test server did not start (exit code {process.poll()}, "
                            f"last error {error!r}); its log ends:\n{tail}"
                        ) from None
                    time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


# Run in every page before its scripts: this browser has seen the first-game tips.
TIPS_SEEN = "try { localStorage.setItem('tipsSeen', '1'); } catch (error) {}"


@pytest.fixture
def new_context(browser, base_url):
    """Browser contexts (separate cookie jars, i.e. separate people), closed after the test.
    They ask for reduced motion unless a test says otherwise, so that the cards are where the
    state puts them as soon as it is shown (tests/web/test_motion.py plays the animations).
    They are browsers that have seen the first-game tips (web/static/web/tips.js), unless a
    test asks for `tips=True` (tests/web/test_visitor.py)."""
    contexts = []

    def make(tips: bool = False, **options):
        options.setdefault("viewport", {"width": 1200, "height": 900})
        options.setdefault("locale", "en-US")
        options.setdefault("reduced_motion", "reduce")
        context = browser.new_context(base_url=base_url, **options)
        context.set_default_timeout(10_000)
        if not tips:
            context.add_init_script(TIPS_SEEN)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
