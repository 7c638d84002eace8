import datetime as dt
import itertools
import random
import threading

from django.db import connection
from django.utils import timezone

from core.errors import Stale
from games import services as game_services
from games.engine import Game as EngineGame
from games.engine import IllegalMove
from games.models import DailyChallenge, Game
from leaderboard import selectors, services
from leaderboard.models import Entry
from tests.conftest import requires_postgres
from tests.leaderboard.test_board_ranking import assert_board_matches_full_sort

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
def test_concurrent_actions_and_a_disqualification_keep_the_board_exact(
    transactional_db, make_user
):
    # given a few ranked games that every thread plays at once
    players = [make_user(f"p{i}") for i in range(4)]
    games = [services.daily_game_get_or_create(player=p, draw=3)[0].pk for p in players]
    counter = itertools.count()

    def play() -> int:
        # Real actions on random games of the board, several threads on the same game at once.
        rng = random.Random(next(counter))
        for _ in range(20):
            pick = rng.randrange(len(games))
            while True:  # a busy game answers Stale: the client retries
                game = game_services.game_get_for(game_id=games[pick], user=players[pick])
                legal = EngineGame.from_dict(game.state).legal_actions()
                turn = next(a for a in legal if a["type"] in {"draw", "recycle"})
                try:
                    game_services.game_act(game=game, user=players[pick], action=turn, expect=None)
                    break
                except (Stale, IllegalMove):  # another thread's action came first
                    continue
        return 20

    def play_and_disqualify() -> int:
        played = play()
        services.entries_disqualify(entries=Entry.objects.filter(game_id=games[0]), by=None)
        return played + play()

    # when
    results = race(play_and_disqualify)

    # then no action failed, and the board (read through its ranking) equals a full sort
    assert results == [40] * THREADS
    challenge = DailyChallenge.objects.get(draw=3)
    assert_board_matches_full_sort(challenge, timezone.now(), size=2)
    assert selectors.board_count(challenge=challenge) == 3
