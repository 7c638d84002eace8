"""`make bench`: every benchmark in bench/ with short settings, then one table of their figures.

The convention every bench/*.py follows: it runs as `python bench/NAME.py --quick` in well
under a minute on a small machine (fewer seconds, players, games than its defaults), and prints
each figure it measured on a line of its own (a line with a number in it). The table has one
row per such line. A benchmark without a `--quick` flag is listed as skipped; one that fails
(e.g. PostgreSQL is not running) is listed with its exit status and last line.

    python bench/run.py [NAME ...] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
HAS_NUMBER = re.compile(r"\d")
QUICK_FLAG = re.compile(r"[\"']--quick[\"']")


def benchmarks(names: list[str]) -> list[Path]:
    found = sorted(
        path
        for path in BENCH.glob("*.py")
        if path.name != Path(__file__).name and not path.name.startswith("_")  # helpers
    )
    if names:
        found = [path for path in found if path.stem in names]
    return found


def run(path: Path, timeout: float) -> tuple[str, float, list[str]]:
    """(status, seconds, figure lines) of one benchmark."""
    if not QUICK_FLAG.search(path.read_text()):
        return "skipped: no --quick flag", 0.0, []
    began = time.monotonic()
    try:
        result = subprocess.run(
            [sys.executable, str(path), "--quick"],
            cwd=BENCH.parent,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:.0f} s", time.monotonic() - began, []
    seconds = time.monotonic() - began
    lines = [line.rstrip() for line in result.stdout.splitlines() if HAS_NUMBER.search(line)]
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed ({result.returncode}): {last[:120]}", seconds, lines
    return "ok", seconds, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only these benchmarks (file names, no .py)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per benchmark")
    args = parser.parse_args()

    rows = []
    for path in benchmarks(args.names):
        print(f"running bench/{path.name} --quick ...", file=sys.stderr, flush=True)
        status, seconds, lines = run(path, args.timeout)
        rows.append((path.stem, status, seconds, lines))

    print("| benchmark | status | s | figure |")
    print("| --- | --- | --- | --- |")
    for name, status, seconds, lines in rows:
        for i, line in enumerate(lines or [""]):
            first = i == 0
            cells = (
                name if first else "",
                status if first else "",
                f"{seconds:.0f}" if first else "",
            )
            print(f"| {' | '.join(cells)} | {line.strip().replace('|', '/')} |")
    return (
        0
        if all(status in {"ok"} or status.startswith("skipped") for _, status, _, _ in rows)
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
