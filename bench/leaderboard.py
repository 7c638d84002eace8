"""Leaderboard reads on a big board: p50/p99 of page 1, deep pages, and players' ranks.

    .venv/bin/python bench/leaderboard.py [--games 100000] [--runs 1000] [--database NAME]
        [--redis redis://127.0.0.1:6379/3]

Creates a fresh PostgreSQL database (default `canfield_lb_bench`, 127.0.0.1, user postgres),
fills one day's 3-card board with `--games` ranked games (a spread of scores and moves, a
fifth still in progress), runs VACUUM ANALYZE, then times what the API does for each read,
with the ORM, in process, after a warm-up, twice: counting in the database (the embedded
mode's way, and the fallback while Redis is unreachable), then, with `--redis`, through the
board's ranking in that Redis (built once from the database first, timed). The reads: the
count and page 1;
the count and page `--games / 100` (halfway down); the count and the page where the crowd
of winners (score 255) ends, the most skipping within one score; the count and the last
page; the rank of a random player and of the last-ranked player (what each live `entry`
message carries).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database  # noqa: E402


def fill(games: int) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.models import Game
    from leaderboard import services
    from leaderboard.days import day_today
    from leaderboard.models import Entry

    call_command("migrate", verbosity=0)
    challenge = services.challenge_get_or_create(date=day_today(), draw=3)
    start = timezone.now() - dt.timedelta(hours=6)
    rng = random.Random(1)
    user_model = get_user_model()
    batch = 5000
    for first in range(0, games, batch):
        numbers = range(first, min(games, first + batch))
        users = user_model.objects.bulk_create(
            user_model(username=f"player{i}", password="!") for i in numbers
        )
        created = [start + dt.timedelta(seconds=rng.uniform(0, 5 * 3600)) for _ in users]
        rows = Game.objects.bulk_create(
            Game(
                owner=user, ruleset="app", draw=3, deal_code=challenge.deal_code,
                challenge=challenge, state={},
            )
            for user in users
        )  # fmt: skip
        entries = []
        for user, game, began in zip(users, rows, created, strict=True):
            # Scores (multiples of 5, as the game's) bunch low with a crowd of winners at 255,
            # moves spread widely; a fifth of the games are still in progress (live time).
            roll = rng.random()
            status = "playing" if roll < 0.2 else "won" if roll < 0.5 else "resigned"
            ended = began + dt.timedelta(seconds=rng.uniform(60, 2400))
            entries.append(
                Entry(
                    challenge=challenge, player=user, game=game, status=status,
                    score=255 if status == "won" else 5 * int(rng.random() * rng.random() * 40),
                    moves=rng.randint(20, 400), started_at=began,
                    ended_at=None if status == "playing" else ended, reached_at=ended,
                )
            )  # fmt: skip
        Entry.objects.bulk_create(entries)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def timed(runs: int, read) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        read()
        samples.append((time.perf_counter() - began) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--database", default="canfield_lb_bench")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    parser.add_argument("--redis", default="", help="a Redis URL: also time the Redis ranking")
    args = parser.parse_args()
    if args.quick:
        args.games, args.runs = 5_000, 100

    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    os.environ["REDIS_URL"] = args.redis
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    import django

    fresh_database(args.database)
    django.setup()
    from django.utils import timezone

    from leaderboard import boards, selectors
    from leaderboard.models import DailyChallenge, Entry

    began = time.perf_counter()
    fill(args.games)
    print(f"filled {args.games} ranked games in {time.perf_counter() - began:.1f} s")
    challenge = DailyChallenge.objects.get()
    deep = max(1, args.games // 100)
    last = -(-args.games // selectors.PAGE_SIZE)
    # The most counting along the index: the page that ends the crowded best score.
    winners = Entry.objects.filter(score=255).count()
    crowded = -(-winners // selectors.PAGE_SIZE)
    players = list(Entry.objects.filter(challenge=challenge).values_list("pk", flat=True))
    last_ranked = Entry.objects.order_by("score", "-moves").values_list("pk", flat=True)[0]

    def page(number: int):
        def read() -> None:
            selectors.board_count(challenge=challenge)
            rows = selectors.board_page(challenge=challenge, page=number, now=timezone.now())
            assert rows

        return read

    def rank_of(pick):
        def read() -> None:
            entry = Entry.objects.select_related("challenge").get(pk=pick())
            selectors.entry_rank(entry=entry, now=timezone.now())

        return read

    reads = (
        ("page 1", page(1)),
        (f"page {deep} (rank {(deep - 1) * selectors.PAGE_SIZE + 1})", page(deep)),
        (f"page {crowded} (end of score 255)", page(crowded)),
        (f"page {last} (the last)", page(last)),
        ("a random player's rank", rank_of(lambda: random.choice(players))),
        ("the last player's rank", rank_of(lambda: last_ranked)),
    )
    # Counting in the database walks the index: fewer runs, or a big board takes minutes.
    modes = [("counting in PostgreSQL", boards.LocalBoards(), max(20, args.runs // 10))]
    if args.redis:
        redis_boards = boards.RedisBoards(args.redis)
        redis_boards.ranking_forget(challenge.pk)
        modes.append(("the ranking in Redis", redis_boards, args.runs))
    for mode, store, runs in modes:
        boards._store = store
        began = time.perf_counter()
        selectors.board_count(challenge=challenge)  # builds the Redis ranking, once
        print(f"-- {mode}: first read {time.perf_counter() - began:.2f} s, {runs} runs each")
        for name, read in reads:
            for _ in range(5):  # warm the connection and the caches
                read()
            p50, p99 = timed(runs, read)
            print(f"{name:<28} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms", flush=True)
    if args.redis:
        redis_boards.ranking_forget(challenge.pk)


if __name__ == "__main__":
    main()
