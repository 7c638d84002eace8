"""CPU time of a process's start-up: `manage.py check` and the import of the WSGI and ASGI
applications (what gunicorn's master and a uvicorn process load), each with the garbage
collector paused until the apps are loaded (core/startup.py, as the entry points run) and
without the pause (the same entry point with `gc_pause` made a no-op).

    .venv/bin/python bench/startup.py [--runs 7] [--quick]

Development settings (DJANGO_DEBUG=1; no database is touched). The two ways alternate run by
run, so that the machine's drift weighs on both alike. Prints the median user + system
CPU-seconds of each (os.wait4 of the child) and the objects the start-up left frozen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each entry point as its server or command starts it (NO_PAUSE before it: without the pause).
ENTRIES = {
    "manage.py check": "import sys, runpy; sys.argv = ['manage.py', 'check']; "
    "runpy.run_path('manage.py', run_name='__main__')",
    "wsgi application": "import canfield_site.wsgi",
    "asgi application": "import canfield_site.asgi",
}
NO_PAUSE = "import core.startup; core.startup.gc_pause = lambda: None\n"
FROZEN = "import canfield_site.wsgi, gc; print(gc.get_freeze_count(), gc.isenabled())"
ENV = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "canfield_site.settings"}


def cpu_seconds(code: str) -> float:
    """User + system CPU of one `python -c code` in the project's directory."""
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _pid, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, code
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 runs of each (make bench)")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    for name, code in ENTRIES.items():
        paused, unpaused = [], []
        for _ in range(runs):
            paused.append(cpu_seconds(code))
            unpaused.append(cpu_seconds(NO_PAUSE + code))
        with_pause, without = statistics.median(paused), statistics.median(unpaused)
        print(
            f"{name}: {with_pause:.3f} CPU-s with the start-up's collections paused, "
            f"{without:.3f} without ({100 * (without - with_pause) / without:.0f} % saved, "
            f"median of {runs})"
        )
    frozen = subprocess.run(
        [sys.executable, "-c", FROZEN], cwd=ROOT, env=ENV, capture_output=True, text=True
    )
    count, enabled = frozen.stdout.split()
    print(f"objects frozen once the WSGI application is loaded: {count} (collector on: {enabled})")


if __name__ == "__main__":
    main()
