"""Challenges (docs/api.md "Challenges"): a named player invited to a duel, each transition
(accept, decline, cancel, expiry) and each refusal; a duel played to its end is rated only when
both players opted in."""

import datetime as dt

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from accounts import events
from accounts.identity import account_bot_declare, account_delete
from fairplay.models import Review
from fairplay.services import reviews_run
from matches.challenges import challenges_expire
from matches.models import Challenge, Match, RatingChange

CHALLENGES = "/api/v1/challenges"


def challenge(client, body):
    return client.post(CHALLENGES, body, format="json")


def accept(client, challenge_id, body=None):
    return client.post(f"{CHALLENGES}/{challenge_id}/accept", body or {}, format="json")


def act(client, game_id, kind):
    answer = client.post(f"/api/v1/games/{game_id}/actions", {"type": kind}, format="json")
    assert answer.status_code == 200, answer.json()


def play_out(client, game_id, draws):
    """`draws` draws, then a resign (10 actions or more: a seat played, R33a)."""
    for _ in range(draws):
        act(client, game_id, "draw")
    act(client, game_id, "resign")


def test_an_accepted_rated_challenge_is_a_rated_duel(pool, players, api_client):
    # given
    pool(2)
    (anna, anna_client), (bob, bob_client) = players(2)

    # when: anna challenges bob (by his name in any case) to a rated duel
    made = challenge(anna_client, {"player": "P1", "draw": 3, "rated": True})

    # then: pending for 24 hours, seen by both, pending first
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["challenger"], body["player"], body["draw"], body["rated"]) == (
        "p0",
        "p1",
        3,
        True,
    )
    assert (body["status"], body["decided_at"], body["match"]) == ("pending", None, None)
    created = dt.datetime.fromisoformat(body["created"])
    assert dt.datetime.fromisoformat(body["expires_at"]) - created == dt.timedelta(hours=24)
    for client in (anna_client, bob_client):
        listed = client.get(CHALLENGES).json()
        assert listed["count"] == 1 and listed["results"][0] == body
        assert client.get(f"{CHALLENGES}/{body['id']}").json() == body

    # when: bob accepts
    accepted = accept(bob_client, body["id"])

    # then: the duel, full at once, both games dealt from one hidden deal (R32)
    assert accepted.status_code == 201, accepted.json()
    match = accepted.json()
    assert match["duel"] is True and match["unrated"] is False
    assert match["size"] == 2 and match["status"] == "open" and match["code"] is None
    assert [row["player"] for row in match["players"]] == ["p0", "p1"]
    bob_game = bob_client.get(f"/api/v1/games/{match['game']}").json()
    assert bob_game["match"] == match["id"] and bob_game["code"] is None
    anna_match = anna_client.get(f"/api/v1/matches/{match['id']}").json()
    anna_game = anna_match["game"]
    assert anna_game not in (None, match["game"])
    read = bob_client.get(f"{CHALLENGES}/{body['id']}").json()
    assert (read["status"], read["match"]) == ("accepted", match["id"])
    assert read["decided_at"] is not None
    # a duel is no match of the mode to answer a join with: a join seats the player elsewhere
    joined = bob_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
    assert joined.status_code == 201 and joined.json()["id"] != match["id"]

    # when: both play it to the end and the fair-play review passes
    play_out(anna_client, anna_game, 9)
    play_out(bob_client, match["game"], 10)
    assert {review.state for review in reviews_run(budget=30)} == {Review.State.CLEAN}

    # then: rated (R33), the code shown
    done = api_client.get(f"/api/v1/matches/{match['id']}").json()
    assert done["status"] == "finished" and done["rated"] and done["code"].startswith("CF2-D3-")
    by_player = {row["player"]: row for row in done["players"]}
    assert by_player["p0"]["rating_after"] > 1500 > by_player["p1"]["rating_after"]
    assert RatingChange.objects.filter(match_id=match["id"]).count() == 2


@pytest.mark.parametrize(
    ("asked", "accepted_as"), [(True, {"rated": False}), (False, {}), (False, {"rated": False})]
)
def test_a_duel_is_unrated_unless_both_opt_in(pool, players, api_client, asked, accepted_as):
    # given
    pool(2)
    (_anna, anna_client), (_bob, bob_client) = players(2)
    made = challenge(anna_client, {"player": "p1", "rated": asked}).json()

    # when: accepted, played out and reviewed
    answer = accept(bob_client, made["id"], accepted_as)
    assert answer.status_code == 201, answer.json()
    match = answer.json()
    anna_game = anna_client.get(f"/api/v1/matches/{match['id']}").json()["game"]
    play_out(anna_client, anna_game, 9)
    play_out(bob_client, match["game"], 10)
    reviews_run(budget=30)

    # then: places, but no rating moved
    done = api_client.get(f"/api/v1/matches/{match['id']}").json()
    assert done["unrated"] is True and done["status"] == "finished" and not done["rated"]
    assert [row["place"] for row in done["players"]] == [1, 2]
    assert {row["rating_after"] for row in done["players"]} == {None}
    assert not RatingChange.objects.exists()
    assert api_client.get("/api/v1/ratings?size=2&draw=3").json()["count"] == 0


def test_an_unrated_challenge_cannot_be_accepted_rated(pool, players):
    pool(1)
    (_anna, anna_client), (_bob, bob_client) = players(2)
    made = challenge(anna_client, {"player": "p1"}).json()

    refused = accept(bob_client, made["id"], {"rated": True})

    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "invalid_request"
    assert bob_client.get(f"{CHALLENGES}/{made['id']}").json()["status"] == "pending"


def test_decline_and_cancel(pool, players, make_user, client_for):
    # given: two challenges to bob (from anna and carl)
    pool(1)
    (_anna, anna_client), (_bob, bob_client), (_carl, carl_client) = players(3)
    first = challenge(anna_client, {"player": "p1", "draw": 1}).json()
    second = challenge(carl_client, {"player": "p1"}).json()

    # when: the wrong party tries each transition
    wrong = [
        bob_client.post(f"{CHALLENGES}/{first['id']}/cancel"),
        anna_client.post(f"{CHALLENGES}/{first['id']}/decline"),
        accept(anna_client, first["id"]),
    ]
    # then: 403, nothing changed
    assert [answer.status_code for answer in wrong] == [403] * 3
    assert {answer.json()["error"]["code"] for answer in wrong} == {"forbidden"}

    # when: a third account reads or acts on anna's challenge: it does not exist for them
    stranger = carl_client
    assert stranger.get(f"{CHALLENGES}/{first['id']}").status_code == 404
    assert accept(stranger, first["id"]).status_code == 404
    assert stranger.post(f"{CHALLENGES}/{first['id']}/cancel").status_code == 404

    # when: bob declines anna's, carl cancels his
    declined = bob_client.post(f"{CHALLENGES}/{first['id']}/decline")
    cancelled = carl_client.post(f"{CHALLENGES}/{second['id']}/cancel")

    # then
    assert declined.status_code == cancelled.status_code == 200
    assert declined.json()["status"] == "declined" and cancelled.json()["status"] == "cancelled"
    assert declined.json()["decided_at"] is not None and declined.json()["match"] is None
    # and neither can be accepted or decided again: 409 `challenge_closed`, in the caller's words
    for answer, status in (
        (accept(bob_client, first["id"]), "declined"),
        (bob_client.post(f"{CHALLENGES}/{second['id']}/decline"), "cancelled"),
        (anna_client.post(f"{CHALLENGES}/{first['id']}/cancel"), "declined"),
    ):
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "challenge_closed"
        assert answer.json()["error"]["params"] == {"status": status}
    words = {
        bob_client.post(
            f"{CHALLENGES}/{first['id']}/accept", {}, format="json", HTTP_ACCEPT_LANGUAGE=language
        ).json()["error"]["message"]
        for language in ("en", "hu", "pl")
    }
    assert len(words) == 3
    assert not Match.objects.exists()
    # a new challenge between them is allowed once none is pending
    assert challenge(anna_client, {"player": "p1"}).status_code == 201


def test_refusals_when_challenging(pool, players, api_client):
    pool(1)
    (_anna, anna_client), (_bob, bob_client) = players(2)

    cases = [
        ({"player": "nobody"}, 404, "not_found"),
        ({"player": "a\x00b"}, 404, "not_found"),
        ({"player": "P0"}, 400, "invalid_request"),  # oneself
        ({}, 400, "invalid_request"),
        ({"player": ""}, 400, "invalid_request"),
        ({"player": 3}, 400, "invalid_request"),
        ({"player": "p1", "draw": 2}, 400, "invalid_request"),
        ({"player": "p1", "rated": "yes"}, 400, "invalid_request"),
        ({"player": "p1", "size": 4}, 400, "invalid_request"),
    ]
    for body, status, code in cases:
        answer = challenge(anna_client, body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), body
    assert anna_client.post(CHALLENGES, [], format="json").status_code == 400
    assert challenge(api_client, {"player": "p1"}).status_code == 401
    assert api_client.get(CHALLENGES).status_code == 401
    assert anna_client.get(f"{CHALLENGES}/nope").status_code == 404
    assert accept(anna_client, "00000000-0000-0000-0000-000000000000").status_code == 404

    # a second pending challenge between the same two, either way, is refused
    first = challenge(anna_client, {"player": "p1"}).json()
    for client, name in ((anna_client, "p1"), (bob_client, "p0")):
        again = challenge(client, {"player": name, "draw": 1})
        assert again.status_code == 409
        assert again.json()["error"]["code"] == "challenge_pending"
        assert again.json()["error"]["params"] == {"challenge": first["id"]}
    assert Challenge.objects.count() == 1


def test_a_guest_cannot_be_challenged(pool, players, client):
    # given: a visitor playing as a guest (the site's Play now)
    pool(1)
    ((_anna, anna_client),) = players(1)
    client.post("/play/now")
    guest = client.get("/api/v1/account").json()["username"]

    # then: no such player to challenge, and the guest may not challenge either
    assert challenge(anna_client, {"player": guest}).status_code == 404
    refused = client.post(
        CHALLENGES, {"player": "p0"}, content_type="application/json", HTTP_X_CSRFTOKEN="x"
    )
    assert refused.status_code == 403


def test_a_closed_accounts_challenges_end(pool, players):
    # given: anna's challenge to bob, then anna closes her account
    pool(1)
    (anna, anna_client), (_bob, bob_client), (_carl, carl_client) = players(3)
    made = challenge(anna_client, {"player": "p1"}).json()
    deleted = account_delete(user=anna)

    # when: bob accepts it
    late = accept(bob_client, made["id"])

    # then: cancelled, no duel; and her new name cannot be challenged
    assert late.status_code == 409 and late.json()["error"]["params"] == {"status": "cancelled"}
    assert bob_client.get(f"{CHALLENGES}/{made['id']}").json()["status"] == "cancelled"
    assert not Match.objects.exists()
    assert challenge(carl_client, {"player": deleted}).status_code == 404


def test_a_pending_challenge_expires_after_24_hours(pool, players):
    # given: two challenges made at noon
    pool(1)
    (_anna, anna_client), (_bob, bob_client), (_carl, carl_client) = players(3)
    noon = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(noon, tick=False):
        first = challenge(anna_client, {"player": "p1"}).json()
        second = challenge(carl_client, {"player": "p1"}).json()

    # when: a day later, before the scheduler ran
    with time_machine.travel(noon + dt.timedelta(hours=24), tick=False):
        read = bob_client.get(f"{CHALLENGES}/{first['id']}").json()
        late = accept(bob_client, first["id"])
        listed = bob_client.get(CHALLENGES).json()
        again = challenge(anna_client, {"player": "p1"})

    # then: read as expired, refused as expired, written as expired by the refused accept
    assert (read["status"], read["decided_at"]) == ("expired", "2026-12-02T12:00:00Z")
    assert late.status_code == 409 and late.json()["error"]["params"] == {"status": "expired"}
    assert Challenge.objects.get(pk=first["id"]).status == "expired"
    assert [row["status"] for row in listed["results"]] == ["expired", "expired"]
    # and a new one may be made; the scheduler writes the other
    assert again.status_code == 201
    with time_machine.travel(noon + dt.timedelta(hours=25), tick=False):
        call_command("expire_challenges")
        assert Challenge.objects.get(pk=second["id"]).status == "expired"
        assert Challenge.objects.get(pk=again.json()["id"]).status == "pending"
        # the pending one first in the list
        ids = [row["id"] for row in bob_client.get(CHALLENGES).json()["results"]]
        assert ids[0] == again.json()["id"] and set(ids[1:]) == {first["id"], second["id"]}
    assert challenges_expire(now=noon + dt.timedelta(hours=48)) == 1


@pytest.fixture
def standing_rules(settings):
    """R36's defaults (tests/settings.py turns them off for the rest of the suite)."""
    settings.RANKED_MIN_AGE_HOURS = 24
    settings.RANKED_MIN_GAMES = 3


def seasoned(user, client):
    """Put the account in good standing: two days old, three finished games."""
    user.date_joined -= dt.timedelta(days=2)
    user.save(update_fields=["date_joined"])
    for _ in range(3):
        game = client.post("/api/v1/games", {}, format="json").json()
        act(client, game["id"], "resign")


def test_a_rated_duel_needs_both_players_in_standing(standing_rules, settings, pool, players):
    # given: anna in good standing, bob and carl fresh
    pool(2)
    (anna, anna_client), (_bob, bob_client), _carl = players(3)
    seasoned(anna, anna_client)

    # when / then: a fresh challenger asks for a rated duel: 403 with their standing
    fresh = challenge(bob_client, {"player": "p0", "rated": True})
    assert fresh.status_code == 403 and fresh.json()["error"]["code"] == "standing"
    assert fresh.json()["error"]["params"]["games_needed"] == 3

    # when / then: anna asks a fresh player for a rated duel: 403 naming them
    other = challenge(anna_client, {"player": "p1", "rated": True})
    assert other.status_code == 403 and other.json()["error"]["code"] == "standing"
    assert other.json()["error"]["params"] == {"player": "p1"}

    # when / then: unrated duels need no standing
    assert challenge(bob_client, {"player": "p2"}).status_code == 201

    # when: a rated challenge made to bob while standing was not asked for, accepted by him
    # once it is: refused with his standing, and nothing changed
    settings.RANKED_MIN_AGE_HOURS, settings.RANKED_MIN_GAMES = 0, 0
    made = challenge(anna_client, {"player": "p1", "rated": True}).json()
    settings.RANKED_MIN_AGE_HOURS, settings.RANKED_MIN_GAMES = 24, 3
    refused = accept(bob_client, made["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "standing"
    assert refused.json()["error"]["params"]["games_needed"] == 3
    assert Challenge.objects.get(pk=made["id"]).status == "pending"
    # accepted unrated, it is a duel
    assert accept(bob_client, made["id"], {"rated": False}).json()["unrated"] is True


def test_bots_challenge_bots_only(pool, players):
    pool(2)
    (robot, robot_client), (_person, _), (other, other_client) = players(3)
    account_bot_declare(user=robot)
    account_bot_declare(user=other)

    refused = challenge(robot_client, {"player": "p1"})
    assert refused.status_code == 403 and refused.json()["error"]["rule"] == "R34"

    made = challenge(robot_client, {"player": "p2", "rated": True}).json()
    match = accept(other_client, made["id"]).json()
    assert Match.objects.get(pk=match["id"]).bot is True
    assert {row["bot"] for row in match["players"]} == {True}


@pytest.mark.usefixtures("hour_to_spare")
def test_challenging_is_throttled(pool, players, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"challenges": "2/hour"})
    (_anna, anna_client), *_others = players(4)

    codes = [challenge(anna_client, {"player": f"p{i}"}).status_code for i in (1, 2, 3)]

    assert codes == [201, 201, 429]
    assert anna_client.get(CHALLENGES).status_code == 200  # reads are not counted


def test_staff_see_challenges_in_the_admin(pool, players, admin_client):
    (_anna, anna_client), _bob = players(2)
    made = challenge(anna_client, {"player": "p1"}).json()

    listed = admin_client.get("/admin/matches/challenge/?status__exact=pending")
    page = admin_client.get(f"/admin/matches/challenge/{made['id']}/change/")

    assert listed.status_code == page.status_code == 200
    assert made["id"] in listed.content.decode()
    assert admin_client.get("/admin/matches/challenge/add/").status_code == 403


def _told(user, after=0):
    """The account's events after `after`, as (type, data) pairs."""
    return [(e["type"], e["data"]) for e in events.events_after(user_id=user.pk, after=after)]


def test_each_state_of_a_challenge_is_an_event_of_both_players(pool, players):
    # given
    pool(2)
    (anna, anna_client), (bob, bob_client), (carl, carl_client) = players(3)

    # when: anna challenges bob, who declines; carl challenges bob and cancels; anna again,
    # accepted this time; carl again, left to expire
    first = challenge(anna_client, {"player": "p1", "draw": 3, "rated": False}).json()
    bob_client.post(f"{CHALLENGES}/{first['id']}/decline")
    second = challenge(carl_client, {"player": "p1", "draw": 3, "rated": False}).json()
    carl_client.post(f"{CHALLENGES}/{second['id']}/cancel")
    third = challenge(anna_client, {"player": "p1", "draw": 3, "rated": True}).json()
    match = accept(bob_client, third["id"]).json()
    fourth = challenge(carl_client, {"player": "p0", "draw": 3, "rated": False}).json()
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(hours=25)):
        assert challenges_expire(now=timezone.now()) == 1

    # then: both players of each were told each state, with the same data
    def data(made, challenger, player, rated, match=None):
        return {"challenge": made["id"], "challenger": challenger, "player": player, "draw": 3,
                "rated": rated, "match": match}  # fmt: skip

    told = [
        (kind, d) for kind, d in _told(bob) if kind.startswith("challenge") or kind == "match_found"
    ]
    assert told == [
        ("challenge_created", data(first, "p0", "p1", False)),
        ("challenge_declined", data(first, "p0", "p1", False)),
        ("challenge_created", data(second, "p2", "p1", False)),
        ("challenge_cancelled", data(second, "p2", "p1", False)),
        ("challenge_created", data(third, "p0", "p1", True)),
        ("challenge_accepted", data(third, "p0", "p1", True, match["id"])),
        ("match_found", {"match": match["id"]}),
    ]
    anna_told = [kind for kind, _ in _told(anna)]
    assert anna_told.count("challenge_created") == 3 and "challenge_accepted" in anna_told
    assert "match_found" in anna_told and "game_started" in anna_told
    assert [kind for kind, _ in _told(carl)] == [
        "challenge_created", "challenge_cancelled", "challenge_created", "challenge_expired"
    ]  # fmt: skip
    assert _told(anna)[-1] == ("challenge_expired", data(fourth, "p2", "p0", False))
