"""The production scheduler (scripts/scheduler.sh) run as a process against the test database,
for the tests of what it does on its own (ending day-over games, analysing)."""

import contextlib
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from games.days import DRAWS, day_deal, day_ends_at, day_today
from games.models import DailyChallenge

ROOT = Path(__file__).resolve().parents[2]


def challenges_of_today_and_tomorrow() -> None:
    """Today's and tomorrow's challenges, so that the scheduler's hourly job has nothing to
    solve."""
    today = day_today()
    for date in (today, today + dt.timedelta(days=1)):
        for draw in DRAWS:
            DailyChallenge.objects.create(
                date=date, draw=draw, deal_code=str(day_deal(date, draw)), attempt=0,
                ends_at=day_ends_at(date),
            )  # fmt: skip


@contextlib.contextmanager
def scheduler_running(settings, tmp_path: Path, **env: str) -> Iterator[Callable[[], str]]:
    """The scheduler on the test database with `env` added, stopped on leaving; yields a
    function that reads its output so far."""
    database = settings.DATABASES["default"]
    environ = (
        os.environ
        | env
        | {
            "DATABASE_URL": (
                f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
                f"{database['NAME']}"
            ),
            "VENV_BIN": str(Path(sys.executable).parent),
        }
    )
    log_path = tmp_path / "scheduler.log"
    with log_path.open("wb") as log:
        scheduler = subprocess.Popen(
            ["bash", "scripts/scheduler.sh"],
            cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            yield log_path.read_text
        finally:
            os.killpg(scheduler.pid, signal.SIGTERM)
            scheduler.wait(30)


def wait_for(done: Callable[[], bool], output: Callable[[], str], seconds: float = 60) -> None:
    """Until `done()` is true, checked every 0.2 s; past `seconds`, fail with `output()`."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, output()
        time.sleep(0.2)
