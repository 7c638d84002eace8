"""A Redis that restarts empty: a big board's reads while its ranking is rebuilt in the
background (p50/p99/max), and how long the rebuild takes.

    .venv/bin/python bench/rebuild.py [--games 200000] [--database NAME]
        [--redis redis://127.0.0.1:6379/3] [--keep]

Fills a fresh PostgreSQL database (default `canfield_rebuild_bench`) as bench/leaderboard.py
does, builds the board's ranking in `--redis`, then FLUSHDB of that Redis database (only) and
reads the board in process, through the ORM as the API does, without pause (the count and a
page 1, halfway, at the end of the winners, last; a random player's rank; the last player's),
until the ranking is back; then the same reads from the rebuilt ranking. The first read after
the flush (it reads the stand-in, one index-only query) is shown apart. `--keep` keeps a
database that already holds today's board of `--games` games (no new fill).

Wall-clock figures depend on the machine's other load; beside them the process's CPU while
the rebuild ran: the reading (main) thread's, the rebuild thread's (its share of the rebuild's
time bounds the time it could hold the GIL against the readers) and the other background
threads' (the stand-in's reads).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.leaderboard import filled_board  # noqa: E402


def figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)]
    return (
        f"p50 {statistics.median(samples):6.1f} ms, p99 {p99:6.1f} ms, "
        f"max {samples[-1]:7.1f} ms ({len(samples)} reads)"
    )


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rebuild_thread_cpu() -> float | None:
    """CPU seconds of this process's rebuild thread so far (None: none runs)."""
    for thread in threading.enumerate():
        if thread.name.startswith("board-rebuild-") and thread.native_id is not None:
            try:
                with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
            except OSError:
                return None
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--database", default="canfield_rebuild_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    parser.add_argument("--after", type=int, default=500, help="reads after the rebuild")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    parser.add_argument("--keep", action="store_true", help="keep a database already filled")
    args = parser.parse_args()
    if args.quick:
        args.games, args.after = 20_000, 100

    filled_board(database=args.database, redis=args.redis, games=args.games, keep=args.keep)
    from django.utils import timezone

    from games.models import DailyChallenge
    from leaderboard import boards, selectors
    from leaderboard.models import Entry

    challenge = DailyChallenge.objects.get()
    players = list(Entry.objects.filter(challenge=challenge).values_list("pk", flat=True))
    last_ranked = Entry.objects.order_by("score", "-moves").values_list("pk", flat=True)[0]
    winners = Entry.objects.filter(score=255).count()
    last = -(-args.games // selectors.PAGE_SIZE)
    pages = [1, max(1, last // 2), -(-winners // selectors.PAGE_SIZE), last]

    def read(turn: int) -> None:
        if turn % 3 == 2:
            pick = random.choice(players) if turn % 2 else last_ranked
            entry = Entry.objects.select_related("challenge").get(pk=pick)
            selectors.entry_rank(entry=entry, now=timezone.now())
        else:
            selectors.board_count(challenge=challenge)
            page = pages[turn % len(pages)]
            assert selectors.board_page(challenge=challenge, page=page, now=timezone.now())

    store = boards.store()
    assert isinstance(store, boards.RedisBoards)
    began = time.perf_counter()
    assert boards.ranking_rebuild(challenge)
    print(f"ranking built in the foreground (for reference) in {time.perf_counter() - began:.1f} s")

    def ready() -> bool:
        try:
            store.ranked_count(challenge.pk)
        except boards.NotReady:
            return False
        return True

    store.client.flushdb(asynchronous=True)  # (a million entries take over the client's timeout)
    flushed = time.perf_counter()
    cpu, reader_cpu = process_cpu(), time.thread_time()
    read(0)
    first = (time.perf_counter() - flushed) * 1000
    during: list[float] = []
    rebuild_cpu = 0.0
    turn = 1
    while not ready():
        began = time.perf_counter()
        read(turn)
        during.append((time.perf_counter() - began) * 1000)
        rebuild_cpu = max(rebuild_cpu, rebuild_thread_cpu() or 0.0)
        turn += 1
    rebuilt = time.perf_counter() - flushed
    cpu, reader_cpu = process_cpu() - cpu, time.thread_time() - reader_cpu
    print(f"after FLUSHDB: first read {first:.1f} ms (reads the stand-in)")
    print(f"during the rebuild ({rebuilt:.1f} s in the background): {figures(during)}")
    share = rebuild_cpu / rebuilt
    print(
        f"process CPU meanwhile {cpu:.1f} s ({cpu / rebuilt:.0%} of a core): reads"
        f" {reader_cpu:.1f} s, the rebuild thread {rebuild_cpu:.1f} s ({share:.0%} of its time:"
        f" without the GIL at least {1 - share:.0%} of it), other background threads"
        f" {cpu - reader_cpu - rebuild_cpu:.1f} s"
    )
    after = []
    for turn in range(args.after):
        began = time.perf_counter()
        read(turn)
        after.append((time.perf_counter() - began) * 1000)
    print(f"from the rebuilt ranking: {figures(after)}")
    store.ranking_forget(challenge.pk)


if __name__ == "__main__":
    main()
