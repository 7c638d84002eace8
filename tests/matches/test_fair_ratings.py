"""R33a: aborted seats (a game of fewer than 10 actions takes no place and moves no rating), a
provisional rating moving an established one at most half as far as an established one would,
and a winner's repeated wins over fresh accounts held for staff instead of rated."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game
from matches import ratings, services
from matches.models import Match, Rating, RatingChange
from tests.matches.test_ratings import act, join, play, review


def rating(user, mu, sigma, matches, size=2):
    return Rating.objects.create(
        player=user, size=size, draw=3, mu=mu, sigma=sigma, rating=ratings.displayed(mu, sigma),
        matches=matches, updated_at=timezone.now(),
    )  # fmt: skip


def test_a_seat_of_fewer_than_10_actions_is_aborted_and_moves_no_rating(
    pool, make_user, api_client
):
    # given: a table of four; u3 has a rating (shown 1500, as the newcomers': seated with them)
    # and will resign at once (1 action), the others play
    pool(1)
    users = [make_user(f"u{i}") for i in range(4)]
    rating(users[3], 27.0, 9.0, 4, size=4)
    match = [join(user, i) for i, user in enumerate(users)][0]
    play(users[0], match, 9)  # 10 actions with the resignation: the least that is played
    play(users[1], match, 10)
    play(users[2], match, 11)

    # when: u3 resigns at once, the last game of the match to end, and the reviews end clean
    act(users[3], match, {"type": "resign"})
    assert review() == ["clean"] * 4

    # then: u3's seat is aborted: no place, no rating change, the rating as it was
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_at is not None
    answer = api_client.get(f"/api/v1/matches/{match.pk}").json()
    rows = {row["player"]: row for row in answer["players"]}
    assert [(rows[u.username]["aborted"], rows[u.username]["place"]) for u in users] == [
        (False, 1), (False, 2), (False, 3), (True, None),
    ]  # fmt: skip
    assert rows["u3"]["rating_after"] is None and not answer["cancelled"]
    row = Rating.objects.get(player=users[3])
    assert (row.mu, row.sigma, row.matches) == (27.0, 9.0, 4)
    assert not RatingChange.objects.filter(player=users[3]).exists()
    # and the others are rated as a match of three: nobody's rating moved against u3
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 3])
    for user, [want] in zip(users[:3], expected, strict=True):
        row = Rating.objects.get(player=user)
        assert row.mu == pytest.approx(want.mu, abs=1e-9)
        assert row.sigma == pytest.approx(want.sigma, abs=1e-9)
        assert rows[user.username]["rating_after"] == row.rating


def test_a_match_left_with_one_played_seat_is_cancelled_and_rates_nobody(
    pool, make_user, api_client
):
    # given: a duel; anna plays 10 draws
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    rating(anna, 27.0, 9.0, 3)
    match = join(anna, 0, size=2)
    join(bob, 1, size=2)
    play(anna, match, 10)

    # when: bob draws once and resigns (the alts)
    play(bob, match, 1)

    # then: bob's seat is aborted and the match cancelled: nobody is rated
    match.refresh_from_db()
    assert match.status == "cancelled" and match.rated_at is None
    answer = api_client.get(f"/api/v1/matches/{match.pk}").json()
    assert answer["status"] == "finished" and answer["cancelled"] and not answer["rated"]
    assert [(row["player"], row["aborted"], row["place"]) for row in answer["players"]] == [
        ("anna", False, None), ("bob", True, None),
    ]  # fmt: skip
    assert review() == ["clean"] * 2
    assert not RatingChange.objects.exists()
    assert list(Rating.objects.values_list("player__username", "mu", "matches")) == [
        ("anna", 27.0, 3)
    ]


def test_a_provisional_opponent_moves_an_established_rating_half_as_far(pool, make_user):
    # given: two established players alike; pete provisional (2 matches) and eve established
    # (10 matches) with the same mu and sigma, shown at the same rating as the others
    pool(2)
    anna, pete, alice, eve = (make_user(name) for name in ("anna", "pete", "alice", "eve"))
    for established in (anna, alice):
        rating(established, 30.0, 3.0, 20)
    rating(pete, 36.0, 5.0, 2)
    rating(eve, 36.0, 5.0, 10)
    against_pete = join(anna, 0, size=2)
    assert join(pete, 1, size=2).pk == against_pete.pk
    against_eve = join(alice, 2, size=2)
    assert join(eve, 3, size=2).pk == against_eve.pk

    # when: anna beats pete and alice beats eve, the same result (fewer moves)
    play(anna, against_pete, 9)
    play(pete, against_pete, 10)
    play(alice, against_eve, 9)
    play(eve, against_eve, 10)
    assert review() == ["clean"] * 4

    # then: anna's change is half of alice's, mu and sigma alike, and so her rating's
    def change(user):
        row = RatingChange.objects.get(player=user)
        return row.mu_after - row.mu_before, row.sigma_after - row.sigma_before, row

    anna_mu, anna_sigma, anna_row = change(anna)
    alice_mu, alice_sigma, alice_row = change(alice)
    assert anna_row.place == alice_row.place == 1
    assert alice_mu > 0 and anna_mu == pytest.approx(alice_mu / 2, abs=1e-9)
    assert anna_sigma == pytest.approx(alice_sigma / 2, abs=1e-9)
    gain = anna_row.rating_after - anna_row.rating_before
    assert 0 < gain <= (alice_row.rating_after - alice_row.rating_before) / 2 + 0.5
    # and the provisional loser's own change is openskill's, as the established one's
    assert change(pete)[:2] == pytest.approx(change(eve)[:2], abs=1e-9)
    # and against an established opponent of the same mu with a narrower sigma the change is
    # larger still: the damped one stays under half of it
    wider = ratings.rate([(30.0, 3.0), (36.0, 3.0)], [1, 2])[0]
    assert anna_mu < (wider[0] - 30.0) / 2


def test_an_account_beating_fresh_alts_again_and_again_is_held_not_rated(
    pool, make_user, api_client, admin_client
):
    # given: the ratings board's best, established; boss and six fresh accounts from six
    # addresses
    pool(6)
    champ = make_user("champ")
    rating(champ, 35.0, 3.0, 40)
    boss = make_user("boss")
    alts = [make_user(f"alt{i}") for i in range(6)]

    # when: each alt opens a duel, boss takes the seat (half an hour later: the rating window
    # has widened) and wins it, the alt playing just the 10 actions a seat needs
    duels = []
    for i, alt in enumerate(alts):
        duel = services.match_join(player=alt, size=2, draw=3, address_hash=f"{i + 1:064x}").match
        with time_machine.travel(duel.created_at + dt.timedelta(minutes=30)):
            seated = services.match_join(player=boss, size=2, draw=3, address_hash="b" * 64)
        assert seated.match.pk == duel.pk
        play(boss, duel, 9)
        play(alt, duel, 10)
        assert review() == ["clean"] * 2
        duels.append(duel)

    # then: the first three are rated; from the fourth on, each is held for staff, unrated
    for duel in duels:
        duel.refresh_from_db()
    assert [duel.rated_at is not None for duel in duels] == [True] * 3 + [False] * 3
    assert [duel.hold for duel in duels] == [""] * 3 + ["held"] * 3
    assert all(duel.fresh_win for duel in duels)
    assert "boss" in duels[3].hold_reason and "alt3" in duels[3].hold_reason
    assert not RatingChange.objects.filter(match__in=duels[3:]).exists()
    assert Rating.objects.get(player=boss).matches == 3
    answer = api_client.get(f"/api/v1/matches/{duels[4].pk}").json()
    assert not answer["rated"] and {row["rating_after"] for row in answer["players"]} == {None}
    # and neither boss nor the held matches' alts get anywhere on the boards from them
    board = api_client.get("/api/v1/ratings?size=2&draw=3").json()["results"]
    assert board[0]["player"] == "champ"
    assert {entry["player"] for entry in board} == {"champ", "boss", "alt0", "alt1", "alt2"}
    weekly = api_client.get("/api/v1/ratings/weekly?size=2&draw=3").json()["results"]
    assert {entry["player"]: entry["matches"] for entry in weekly}["boss"] == 3
    # and staff find them in the admin, rate one they judge honest and drop the others
    listed = admin_client.get("/admin/matches/match/?hold__exact=held")
    assert listed.status_code == 200 and str(duels[3].pk).encode() in listed.content
    released = admin_client.post(
        "/admin/matches/match/", {"action": "release", "_selected_action": [str(duels[3].pk)]}
    )
    dropped = admin_client.post(
        "/admin/matches/match/",
        {"action": "drop", "_selected_action": [str(duels[4].pk), str(duels[5].pk)]},
    )
    assert released.status_code == dropped.status_code == 302
    assert [Match.objects.get(pk=duel.pk).hold for duel in duels[3:]] == [
        "released", "dropped", "dropped",
    ]  # fmt: skip
    assert Match.objects.get(pk=duels[3].pk).rated_at is not None
    assert Rating.objects.get(player=boss).matches == 4
    assert not services.match_rate_reviewed(duels[4].pk)
    assert not RatingChange.objects.filter(match__in=duels[4:]).exists()
    assert Game.objects.filter(match_seat__match__in=duels).count() == 12
