import datetime as dt
import itertools
import random
import threading

from django.db import connection, transaction
from django.utils import timezone

from games.models import Game
from leaderboard import selectors, services
from leaderboard.models import BoardScore, DailyChallenge, Entry
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


@requires_postgres
def test_concurrent_score_changes_keep_the_counters_equal_to_a_recount(transactional_db, make_user):
    # given a few ranked games that every thread plays at once
    games = [
        services.daily_game_get_or_create(player=make_user(f"p{i}"), draw=3)[0].pk for i in range(4)
    ]
    counter = itertools.count()

    def play() -> int:
        # Each action moves a game between scores that other threads move the other way, in
        # its own transaction with the game's row locked, as an action does.
        rng = random.Random(next(counter))
        for _ in range(40):
            with transaction.atomic():
                game = (
                    Game.objects.select_for_update(of=("self",))
                    .select_related("challenge")
                    .get(pk=rng.choice(games))
                )
                game.score = rng.choice([0, 5, 10, 255])
                game.moves += 1
                Game.objects.filter(pk=game.pk).update(score=game.score, moves=game.moves)
                services.entry_record(game=game, at=timezone.now())
        return 40

    def play_and_disqualify() -> int:
        played = play()
        services.entries_disqualify(entries=Entry.objects.filter(game_id=games[0]), by=None)
        return played + play()

    # when
    results = race(play_and_disqualify)

    # then no action failed (no deadlock) and the counters equal a recount
    assert results == [80] * THREADS
    challenge = DailyChallenge.objects.get(draw=3)
    held = BoardScore.objects.filter(challenge=challenge).values_list("score", "entries")
    assert {score: n for score, n in held if n} == selectors.board_scores_recounted(
        challenge=challenge
    )
    assert sum(n for _, n in held) == 3
