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
    """`games` players with a ranked game each on today's 3-card board, made inside PostgreSQL
    (INSERT ... SELECT over generate_series: a million in a minute or two, no rows through
    Python). Scores (multiples of 5, as the game's) bunch low with a crowd of winners at 255,
    moves spread widely; a fifth of the games are still in progress (live time)."""
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.days import day_today
    from leaderboard import services

    call_command("migrate", verbosity=0)
    challenge = services.challenge_get_or_create(date=day_today(), draw=3)
    params = {
        "games": games,
        "start": timezone.now() - dt.timedelta(hours=6),
        "challenge": challenge.pk,
        "code": challenge.deal_code,
    }
    with connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.5)")
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,
                                   email, is_staff, is_active, date_joined)
            SELECT '!', false, 'player' || i, '', '', '', false, true, now()
            FROM generate_series(0, %(games)s - 1) AS i;

            CREATE TEMP TABLE filled AS
            SELECT player, gen_random_uuid() AS game, began, moves,
                   CASE WHEN roll < 0.2 THEN 'playing' WHEN roll < 0.5 THEN 'won'
                        ELSE 'resigned' END AS status,
                   CASE WHEN roll >= 0.2 AND roll < 0.5 THEN 255
                        ELSE 5 * floor(spread * 40)::int END AS score,
                   CASE WHEN roll >= 0.2 THEN began + took * interval '1 second' END AS ended
            FROM (
                SELECT id AS player, random() AS roll, random() * random() AS spread,
                       %(start)s + random() * interval '5 hours' AS began,
                       20 + floor(random() * 381)::int AS moves, 60 + random() * 2340 AS took
                FROM auth_user WHERE username LIKE 'player%%'
            ) AS drawn;

            INSERT INTO games_game (id, ruleset, draw, status, score, moves, actions_count,
                                    state, created_at, finished_at, challenge_id, owner_id,
                                    hints, address_hash, deal_code, practice, "left")
            SELECT game, 'app', 3, status, score, moves, moves, '{}', began, ended,
                   %(challenge)s, player, 0, '', %(code)s, false, false
            FROM filled;

            INSERT INTO leaderboard_entry (status, score, moves, started_at, ended_at,
                                           reached_at, challenge_id, game_id, player_id,
                                           disqualified, bot, home)
            SELECT status, score, moves, began, ended, coalesce(ended, began), %(challenge)s,
                   game, player, false, false, least(52, score / 5 + 1)
            FROM filled;

            DROP TABLE filled;
            """,
            params,
        )
        cursor.execute("VACUUM ANALYZE")


def filled_board(*, database: str, redis: str, games: int, keep: bool = False) -> None:
    """Django set up on a new database `database` (and the Redis `redis`, or none), with
    `games` ranked games on one day's board (bench/rebuild.py too); with `keep`, the database
    is kept if it already holds today's board of `games` games."""
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    os.environ["REDIS_URL"] = redis
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # the development settings
    import django

    if keep and _holds_board(database, games):
        django.setup()
        print(f"kept the database's {games} ranked games")
        return
    fresh_database(database)
    django.setup()
    began = time.perf_counter()
    fill(games)
    print(f"filled {games} ranked games in {time.perf_counter() - began:.1f} s")


def _holds_board(database: str, games: int) -> bool:
    import psycopg

    try:
        with psycopg.connect(f"postgres://postgres@127.0.0.1:5432/{database}") as conn:
            found = conn.execute(
                "SELECT count(*) FROM leaderboard_entry e JOIN leaderboard_dailychallenge c"
                " ON c.id = e.challenge_id WHERE c.ends_at > now()"
            ).fetchone()
    except psycopg.Error:
        return False
    return found is not None and found[0] == games


def timed(runs: int, read, budget: float = 30.0) -> tuple[float, float, int]:
    """(p50, p99 in ms, runs made) of `runs` reads, fewer if they take over `budget` seconds
    (deep pages counted in the database take seconds each on a big board)."""
    samples = []
    deadline = time.perf_counter() + budget
    for _ in range(runs):
        began = time.perf_counter()
        read()
        samples.append((time.perf_counter() - began) * 1000)
        if began > deadline and len(samples) >= 10:
            break
    samples.sort()
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.99) - 1)], len(samples)


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

    filled_board(database=args.database, redis=args.redis, games=args.games)
    from django.utils import timezone

    from games.models import DailyChallenge
    from leaderboard import boards, selectors
    from leaderboard.models import Entry

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
            for _ in range(2):  # warm the connection and the caches
                read()
            p50, p99, made = timed(runs, read)
            print(f"{name:<28} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   ({made} runs)", flush=True)
    if args.redis:
        redis_boards.ranking_forget(challenge.pk)


if __name__ == "__main__":
    main()
