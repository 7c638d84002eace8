import datetime as dt
import threading

from django.db import connection

from games.models import Game
from leaderboard import services
from leaderboard.models import DailyChallenge, Entry
from tests.conftest import requires_postgres

THREADS = 6


def race(target) -> list:
    """Run `target` in THREADS threads released at once; their results (or exceptions)."""
    barrier = threading.Barrier(THREADS)
    results: list = [None] * THREADS

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = target()
        except Exception as error:  # reported by the assertions below
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@requires_postgres
def test_concurrent_first_requests_create_one_challenge(transactional_db):
    day = dt.date(2031, 1, 1)

    results = race(lambda: services.challenge_get_or_create(date=day, draw=3).pk)

    assert DailyChallenge.objects.filter(date=day).count() == 1
    assert set(results) == {DailyChallenge.objects.get(date=day).pk}


@requires_postgres
def test_concurrent_daily_requests_make_one_ranked_game(transactional_db, make_user):
    player = make_user("alice")

    results = race(lambda: services.daily_game_get_or_create(player=player, draw=3))

    assert Entry.objects.count() == 1 and Game.objects.count() == 1
    game_id = Entry.objects.get().game_id
    assert all(not isinstance(result, Exception) for result in results), results
    assert {game.pk for game, _ in results} == {game_id}
    assert sorted(created for _, created in results) == [False] * (THREADS - 1) + [True]
