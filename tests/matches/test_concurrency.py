"""Matchmaking and rating under concurrency, on PostgreSQL (its row locks are what R32 and R33
rely on): 50 threads joining at once keep every invariant of the matches; racing last games
finish a match exactly once, racing reviews of its games rate it exactly once (R35), and racing
answers to a challenge decide it once."""

import threading
from collections import Counter, defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from core.errors import ChallengeClosed, ChallengePending
from fairplay.models import Review
from fairplay.services import review_run
from games import services as game_services
from games.models import Game
from matches import challenges, services
from matches.models import Challenge, Match, MatchDeal, MatchPlayer, Rating, RatingChange
from tests.conftest import requires_postgres

THREADS = 50


def run_threads(work, arguments) -> list[BaseException]:
    """Run `work(argument)` in one thread per argument, all released at once; their errors."""
    barrier = threading.Barrier(len(arguments))
    errors: list[BaseException] = []

    def body(argument) -> None:
        try:
            barrier.wait()
            work(argument)
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=body, args=(argument,)) for argument in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def fill_pool(draws=(3, 1), n: int = THREADS) -> None:
    from matches.deals import match_deal_code

    for draw in draws:
        start = MatchDeal.objects.filter(draw=draw).count()
        MatchDeal.objects.bulk_create(
            MatchDeal(draw=draw, index=i, deal_code=str(match_deal_code(draw, i)))
            for i in range(start, start + n)
        )


def reset() -> None:
    Challenge.objects.all().delete()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    MatchPlayer.objects.all().delete()
    Game.objects.all().delete()
    Match.objects.all().delete()
    MatchDeal.objects.all().delete()
    get_user_model().objects.all().delete()


joins = st.lists(
    st.tuples(
        st.sampled_from([2, 4]),  # size
        st.sampled_from([3, 1]),  # draw
        st.integers(min_value=0, max_value=7),  # the address (8: accounts share them)
        st.integers(min_value=1, max_value=2),  # how many times the player joins at once
    ),
    min_size=THREADS,
    max_size=THREADS,
)


@requires_postgres
@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=joins)
def test_concurrent_joins_keep_the_invariants_of_matches(plan):
    # given: 50 accounts, some sharing an address, each joining once or twice at once (100
    # requests in all, padded), on a pool of deals
    reset()
    fill_pool(n=2 * THREADS)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"j{i}") for i in range(len(plan))
    )
    requests = [(user, *spec) for user, spec in zip(users, plan, strict=True)]
    calls = [request for request in requests for _ in range(request[4])]
    calls += [requests[i % len(requests)] for i in range(2 * THREADS - len(calls))]

    def join(call) -> None:
        user, size, draw, address, _times = call
        services.match_join(player=user, size=size, draw=draw, address_hash=f"{address:064x}")

    # when: 50 threads join at once, twice (the second wave meets the open matches the first
    # made, and contends for their seats)
    errors = run_threads(join, calls[:THREADS]) + run_threads(join, calls[THREADS:])

    # then
    assert errors == []
    event(f"seated with others: {MatchPlayer.objects.filter(seat__gt=1).count() > 0}")
    seats = list(MatchPlayer.objects.select_related("match", "game"))
    by_match = defaultdict(list)
    for seat in seats:
        by_match[seat.match_id].append(seat)
    for match_id, members in by_match.items():
        match = members[0].match
        players = [seat.player_id for seat in members]
        # distinct players, within the size, seats counted right
        assert len(players) == len(set(players)) <= match.size
        assert match.seats == len(members) and match.full == (len(members) == match.size)
        # no two accounts of one address hash in a match
        hashes = [seat.address_hash for seat in members]
        assert len(hashes) == len(set(hashes)), match_id
        # every match's games share one deal: the match's, in its draw mode, app rules
        deals = {(seat.game.deal_code, seat.game.draw, seat.game.ruleset) for seat in members}
        assert deals == {(match.deal.deal_code, match.draw, "app")}
    # nobody sits in two open matches of one mode; everybody who joined sits in one
    modes = Counter((seat.player_id, seat.match.size, seat.match.draw) for seat in seats)
    assert max(modes.values()) == 1
    assert set(modes) == {(user.pk, size, draw) for user, size, draw, *_ in requests}
    # a deal serves one match
    assert len({match.deal_id for match in Match.objects.all()}) == Match.objects.count()


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_racing_last_games_finish_and_racing_reviews_rate_a_match_exactly_once(make_user):
    # given: 6 duels, each with both games one action from their end (9 draws each: with the
    # resignation, a seat played, R33a)
    fill_pool(draws=(3,), n=6)
    duels = []
    for i in range(6):
        anna, bob = make_user(f"a{i}"), make_user(f"b{i}")
        services.match_join(player=anna, size=2, draw=3, address_hash=f"{2 * i:064x}")
        services.match_join(player=bob, size=2, draw=3, address_hash=f"{2 * i + 1:064x}")
        duels += [anna, bob]
    assert Match.objects.count() == 6 and not Match.objects.filter(full=False).exists()
    for user in duels:
        for _ in range(9):
            game = Game.objects.get(owner=user)
            game_services.game_act(game=game, user=user, action={"type": "draw"}, expect=None)

    def resign(user) -> None:
        game = Game.objects.get(owner=user)
        game_services.game_act(game=game, user=user, action={"type": "resign"}, expect=None)

    # when: all 12 last games end at once
    errors = run_threads(resign, duels)

    # then: every match finished once with its places, unrated while its reviews are pending
    assert errors == []
    assert Match.objects.filter(status="finished", rated_at__isnull=True).count() == 6
    assert not RatingChange.objects.exists()
    for match in Match.objects.all():
        places = sorted(match.players.values_list("place", flat=True))
        assert places == [1, 2]
    assert Review.objects.filter(state="pending").count() == 12

    # when: the 12 reviews run at once (both games of each duel end their review together)
    def review(pk) -> None:
        review_run(Review.objects.select_related("game__owner").get(pk=pk))

    errors = run_threads(review, list(Review.objects.values_list("pk", flat=True)))

    # then: every match rated once: one change per player and match
    assert errors == []
    assert Review.objects.filter(state="clean").count() == 12
    assert Match.objects.filter(status="finished", rated_at__isnull=False).count() == 6
    assert RatingChange.objects.count() == 12
    assert set(Rating.objects.values_list("matches", flat=True)) == {1}

    # and a retried finish (another write seeing the match again) changes nothing
    match = Match.objects.first()
    services.match_rate(match=match, seats=list(match.players.all()), at=match.finished_at)
    assert RatingChange.objects.count() == 12


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_racing_answers_to_a_challenge_decide_it_once():
    # given: 10 challenges, and crossing ones between 10 other pairs
    reset()
    fill_pool(n=10)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"c{i}") for i in range(40)
    )
    made = [
        challenges.challenge_create(challenger=users[i], username=users[i + 1].username, draw=3,
                                    rated=True)
        for i in range(0, 20, 2)
    ]  # fmt: skip

    def answer(call) -> None:
        kind, challenge = call
        if kind == "accept":
            challenges.challenge_accept(challenge_id=challenge.pk, user=challenge.player)
        elif kind == "decline":
            challenges.challenge_decide(challenge_id=challenge.pk, user=challenge.player,
                                        status=Challenge.Status.DECLINED)  # fmt: skip
        else:
            challenges.challenge_decide(challenge_id=challenge.pk, user=challenge.challenger,
                                        status=Challenge.Status.CANCELLED)  # fmt: skip

    def cross(pair) -> None:
        one, other = pair
        challenges.challenge_create(challenger=one, username=other.username, draw=1, rated=False)

    # when: each is accepted twice, declined and cancelled at once; and each of 10 pairs
    # challenge each other at once
    calls = [(kind, c) for c in made for kind in ("accept", "accept", "decline", "cancel")]
    errors = run_threads(answer, calls)
    pairs = [(users[i], users[i + 1]) for i in range(20, 40, 2)]
    crossing = run_threads(cross, pairs + [(b, a) for a, b in pairs])

    # then: each decided once (3 refusals each), one duel per accepted one, one challenge per pair
    assert len(errors) == 3 * len(made)
    assert all(isinstance(error, ChallengeClosed) for error in errors)
    decided = Counter(Challenge.objects.filter(pk__in=[c.pk for c in made]).values_list(
        "status", flat=True))  # fmt: skip
    assert sum(decided.values()) == len(made) and "pending" not in decided
    assert Match.objects.filter(duel=True).count() == decided["accepted"]
    assert MatchPlayer.objects.count() == 2 * decided["accepted"]
    assert len(crossing) == len(pairs)
    assert all(isinstance(error, ChallengePending) for error in crossing)
    assert Challenge.objects.filter(draw=1).count() == len(pairs)
