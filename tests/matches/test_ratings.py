"""Ratings (R33) and the end of matches (R32): updates equal openskill's for the places, the
24-hour close, cancelled matches; a match is rated only after the fair-play review of its games
(R35): a pending review waits for `review_games`, a held game for staff."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone
from openskill.models import PlackettLuce

from fairplay.models import Review
from fairplay.services import reviews_clear, reviews_disqualify, reviews_run
from games.models import Game
from games.services import game_act
from matches import ratings, services
from matches.models import Rating, RatingChange
from tests.fairplay.test_review import MACHINE_GAP, cycle, pace


def join(user, i, size=4):
    match = services.match_join(player=user, size=size, draw=3, address_hash=f"{i + 1:064x}").match
    return match


def act(user, match, *actions):
    game = Game.objects.get(owner=user, match_seat__match=match)
    for action in actions:
        _, game, _ = game_act(game=game, user=user, action=action, expect=None)


def play(user, match, draws, *, resign=True):
    """`draws` draws (recycling when the stock is out), then a resignation: a seat played, not
    aborted (R33a), once draws and resignation make 10 actions or more."""
    cycle(user, Game.objects.get(owner=user, match_seat__match=match), draws)
    if resign:
        act(user, match, {"type": "resign"})


def review() -> list[str]:
    """`review_games`' work: the pending reviews run; their states."""
    return [each.state for each in reviews_run(budget=30)]


def test_a_table_of_four_rates_as_openskill_does_for_the_places(pool, make_user):
    # given: four players, two with a history (u1 established, u3 still provisional)
    pool(4)
    users = [make_user(f"u{i}") for i in range(4)]
    Rating.objects.create(
        player=users[1], size=4, draw=3, mu=26.0, sigma=7.0, rating=ratings.displayed(26, 7),
        matches=12, updated_at=timezone.now(),
    )  # fmt: skip
    Rating.objects.create(
        player=users[3], size=4, draw=3, mu=23.0, sigma=7.0, rating=ratings.displayed(23, 7),
        matches=3, updated_at=timezone.now(),
    )  # fmt: skip
    match = [join(user, i) for i, user in enumerate(users)][0]
    # when: they end with 12, 9, 11 and 10 draws before resigning (score 0 each: fewer moves
    # first)
    draws = {0: 12, 1: 9, 2: 11, 3: 10}
    for i, user in enumerate(users):
        play(user, match, draws[i])

    # then: finished with places, rated once its games are reviewed clean
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_at is None
    assert review() == ["clean"] * 4
    # and each rating is openskill's Plackett-Luce for the places by moves; u1's change, an
    # established rating against three provisional ones, half of it (R33a)
    match.refresh_from_db()
    assert match.rated_at is not None
    seats = {seat.player_id: seat for seat in match.players.all()}
    places = [seats[user.pk].place for user in users]
    assert places == [4, 1, 3, 2]
    model = PlackettLuce()
    before = [
        model.rating(),
        model.rating(mu=26.0, sigma=7.0),
        model.rating(),
        model.rating(mu=23.0, sigma=7.0),
    ]
    expected = model.rate([[r] for r in before], ranks=places)
    keep = [1.0, 0.5, 1.0, 1.0]
    for user, old, [want], part in zip(users, before, expected, keep, strict=True):
        mu = old.mu + part * (want.mu - old.mu)
        sigma = old.sigma + part * (want.sigma - old.sigma)
        row = Rating.objects.get(player=user, size=4, draw=3)
        assert row.mu == pytest.approx(mu, abs=1e-9)
        assert row.sigma == pytest.approx(sigma, abs=1e-9)
        assert row.rating == round(1500 + 20 * (mu - 3 * sigma))
        assert seats[user.pk].rating_after == row.rating
        change = RatingChange.objects.get(player=user, match=match)
        assert (change.rating_after, change.place) == (row.rating, seats[user.pk].place)
    assert [Rating.objects.get(player=u).matches for u in users] == [1, 13, 1, 4]


def test_after_24_hours_running_games_end_match_over_and_the_match_is_rated(pool, make_user):
    # given: a table of four with three seated, one of whom finished, the others playing
    pool(1)
    users = [make_user(f"u{i}") for i in range(3)]
    match = [join(user, i) for i, user in enumerate(users)][0]
    play(users[0], match, 10)
    play(users[1], match, 10, resign=False)
    play(users[2], match, 11, resign=False)

    # when: 24 hours pass and the scheduler closes matches
    later = match.ends_at + dt.timedelta(seconds=5)
    with time_machine.travel(later):
        assert services.matches_close(now=timezone.now()) == 1
        # an action on a game after its match's time is refused
        game = Game.objects.get(owner=users[2], match_seat__match=match)
        assert game.status == "resigned" and game.end_reason == "match_over"
        assert game.finished_at == match.ends_at

    # then: finished with places, and rated once its games are reviewed
    match.refresh_from_db()
    assert match.status == "finished" and match.finished_at == match.ends_at
    assert match.rated_at is None
    assert review() == ["clean"] * 3
    match.refresh_from_db()
    assert match.rated_at is not None and RatingChange.objects.filter(match=match).count() == 3
    assert sorted(match.players.values_list("place", flat=True)) == [1, 2, 3]


def test_a_read_after_24_hours_closes_the_match(pool, make_user, api_client, client_for):
    pool(2)
    anna, bob = make_user("anna"), make_user("bob")
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    with time_machine.travel(match.ends_at + dt.timedelta(minutes=1)):
        answer = api_client.get(f"/api/v1/matches/{match.pk}").json()
        acted = client_for(anna).post(
            f"/api/v1/games/{answer['players'][0] and Game.objects.get(owner=anna).pk}/actions",
            {"type": "draw"},
            format="json",
        )
    assert answer["status"] == "finished" and answer["code"] is not None
    assert {row["end_reason"] for row in answer["players"]} == {"match_over"}
    assert acted.status_code == 409 and acted.json()["error"]["code"] == "game_over"


def test_a_match_left_with_one_player_is_cancelled_and_changes_no_rating(pool, make_user):
    pool(2)
    anna = make_user("anna")
    Rating.objects.create(
        player=anna, size=2, draw=3, mu=27.0, sigma=5.0, rating=ratings.displayed(27, 5),
        matches=4, updated_at=timezone.now(),
    )  # fmt: skip
    match = join(anna, 0, size=2)
    act(anna, match, {"type": "resign"})
    with time_machine.travel(match.ends_at):
        services.matches_close(now=timezone.now())
    match.refresh_from_db()
    assert match.status == "cancelled" and match.rated_at is None
    row = Rating.objects.get(player=anna)
    assert (row.mu, row.sigma, row.matches) == (27.0, 5.0, 4)
    assert not RatingChange.objects.exists()
    # and anna may join again: a new match (the cancelled one is over)
    again, created, _ = services.match_join(player=anna, size=2, draw=3)
    assert created and again.pk != match.pk


def test_a_pending_review_holds_the_rating_back_until_it_ends_clean_then_rates_once(
    pool, make_user
):
    # given: a finished duel whose first game was reviewed before the second ended
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    play(anna, match, 10)
    assert review() == ["clean"]
    play(bob, match, 9)

    # then: finished with places, not rated while bob's game waits for its review
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_at is None
    assert sorted(match.players.values_list("place", flat=True)) == [1, 2]
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    bob_game = Game.objects.get(owner=bob, match_seat__match=match)
    assert Review.objects.get(game=bob_game).state == "pending"

    # when: the review runs: clean, the match is rated
    assert review() == ["clean"]
    match.refresh_from_db()
    assert match.rated_at is not None and RatingChange.objects.filter(match=match).count() == 2
    assert [row.matches for row in Rating.objects.all()] == [1, 1]

    # and once only: another clean decision of a game of it changes nothing
    assert not services.match_rate_reviewed(match.pk)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_match_game_without_a_review_keeps_the_match_unrated(pool, make_user):
    # given: a finished duel, one of whose games has no review row (every match game's end
    # queues one: a game without it has not been reviewed)
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    play(anna, match, 9)
    play(bob, match, 9)
    Review.objects.filter(game__owner=bob).delete()

    # when: the other game's review ends clean
    assert review() == ["clean"]

    # then: the match stays unrated
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_at is None
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize("decision", ["clear", "disqualify"])
def test_a_held_games_match_waits_for_staff_then_rates(pool, make_user, admin_user, decision):
    # given: a duel: anna plays at machine speed (70 actions 0.02 s apart, set rather than read
    # off this machine's clock: held), bob draws 9 times and resigns
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    play(anna, match, 70)
    anna_game = Game.objects.get(owner=anna, match_seat__match=match)
    pace(anna_game, MACHINE_GAP)
    play(bob, match, 9)

    # when: the review runs
    assert review() == ["held", "clean"]

    # then: finished with places, but not rated while anna's game is held
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_at is None
    assert Review.objects.get(game=anna_game).state == "held"
    assert not RatingChange.objects.exists()
    assert set(match.players.values_list("rating_after", flat=True)) == {None}

    # when: staff decide (a disqualified game's player keeps their place: the match happened)
    decide = reviews_clear if decision == "clear" else reviews_disqualify
    assert len(decide(reviews=Review.objects.filter(game=anna_game), by=admin_user)) == 1

    # then: the match is rated, once
    match.refresh_from_db()
    assert match.rated_at is not None and RatingChange.objects.filter(match=match).count() == 2
    assert sorted(match.players.values_list("place", flat=True)) == [1, 2]
    assert RatingChange.objects.get(player=anna).place == match.players.get(player=anna).place


def test_the_weekly_board_counts_this_weeks_gains_and_resets_on_monday(pool, make_user, api_client):
    # given: a duel rated on a Sunday, another on the next Monday (each reviewed that day)
    pool(2)
    anna, bob = make_user("anna"), make_user("bob")
    sunday = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(sunday, tick=False):
        first = join(anna, 0, size=2)
        join(bob, 1, size=2)
        play(anna, first, 10)
        play(bob, first, 9)
        assert review() == ["clean"] * 2  # rated when reviewed, that Sunday
        week_of_sunday = api_client.get("/api/v1/ratings/weekly?size=2&draw=3").json()
    with time_machine.travel(sunday + dt.timedelta(days=1), tick=False):
        monday = api_client.get("/api/v1/ratings/weekly?size=2&draw=3").json()
        second = join(anna, 0, size=2)
        join(bob, 1, size=2)
        play(bob, second, 10)
        play(anna, second, 9)
        assert review() == ["clean"] * 2
        later = api_client.get("/api/v1/ratings/weekly?size=2&draw=3").json()

    # then: Sunday's week shows bob's gain; Monday starts empty; then anna's gain alone
    assert week_of_sunday["week"] == "2026-11-23"
    assert [(e["rank"], e["player"]) for e in week_of_sunday["results"]][0] == (1, "bob")
    assert week_of_sunday["results"][0]["gain"] > 0 > week_of_sunday["results"][1]["gain"]
    assert monday["week"] == "2026-11-30" and monday["count"] == 0
    gains = {e["player"]: e["gain"] for e in later["results"]}
    change = RatingChange.objects.get(player=anna, match=second)
    assert gains["anna"] == change.rating_after - change.rating_before > 0
    assert [e["matches"] for e in later["results"]] == [1, 1]


def test_the_admin_lists_matches_ratings_and_history(pool, make_user, admin_client):
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    act(anna, match, {"type": "resign"})
    act(bob, match, {"type": "resign"})
    for path in ("match", "rating", "ratingchange", "matchdeal"):
        assert admin_client.get(f"/admin/matches/{path}/").status_code == 200, path
    page = admin_client.get(f"/admin/matches/match/{match.pk}/change/")
    assert page.status_code == 200 and b"anna" in page.content
    code = match.deal.deal_code.encode()
    deal = admin_client.get(f"/admin/matches/matchdeal/{match.deal_id}/change/")
    assert deal.status_code == 200 and code not in deal.content
    # an open match's game keeps its deal from staff too (it is the other players')
    carl, dan = make_user("carl"), make_user("dan")
    open_match = join(carl, 2, size=2)
    game = Game.objects.get(owner=carl, match_seat__match=open_match)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200 and open_match.deal.deal_code.encode() not in page.content
    join(dan, 3, size=2)
    act(carl, open_match, {"type": "resign"})
    act(dan, open_match, {"type": "resign"})
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert open_match.deal.deal_code.encode() in page.content
