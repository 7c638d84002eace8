"""The matches API (docs/api.md "Matches and ratings (R32, R33)"): joining, reading, the game's
visibility while the match is open, hints refused, errors."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import events
from fairplay.models import Review
from fairplay.services import reviews_run
from games.models import Game
from matches.models import Match


def draw(client, game_id, times):
    """`times` draws (at most 12: the stock's 34 cards, 3 at a time)."""
    for _ in range(times):
        answer = client.post(f"/api/v1/games/{game_id}/actions", {"type": "draw"}, format="json")
        assert answer.status_code == 200, answer.json()


def resign(client, game_id):
    answer = client.post(f"/api/v1/games/{game_id}/actions", {"type": "resign"}, format="json")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_a_duel_from_join_to_finish(pool, players, api_client):
    # given
    pool(2)
    (anna, anna_client), (bob, bob_client) = players(2)

    # when: both join a duel
    first = anna_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
    again = anna_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
    second = bob_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")

    # then: one match, the caller's own game in it, no code
    assert first.status_code == 201 and again.status_code == 200 and second.status_code == 201
    match = second.json()
    assert match["id"] == first.json()["id"] == again.json()["id"]
    assert match["status"] == "open" and match["code"] is None
    assert [row["player"] for row in match["players"]] == ["p0", "p1"]
    assert [row["rating_before"] for row in match["players"]] == [1500, 1500]
    assert match["game"] != first.json()["game"]
    game = bob_client.get(f"/api/v1/games/{match['game']}").json()
    assert game["match"] == match["id"] and game["code"] is None and not game["practice"]
    # opponents see figures only; the game stays hidden from others
    assert anna_client.get(f"/api/v1/games/{match['game']}").status_code == 404
    hint = bob_client.get(f"/api/v1/games/{match['game']}/hint")
    assert hint.status_code == 403 and hint.json()["error"]["rule"] == "R30"

    # when: anna draws 9 times and resigns (10 actions: a seat played, R33a): her game ends,
    # the match stays open and her game hidden
    draw(anna_client, first.json()["game"], 9)
    resign(anna_client, first.json()["game"])
    assert bob_client.get(f"/api/v1/games/{first.json()['game']}").status_code == 404
    assert api_client.get(f"/api/v1/matches/{match['id']}").json()["status"] == "open"

    # when: bob draws 10 times, then resigns: the match finishes, unrated until its review (R35)
    draw(bob_client, match["game"], 10)
    resign(bob_client, match["game"])
    finished = api_client.get(f"/api/v1/matches/{match['id']}").json()
    assert finished["status"] == "finished" and not finished["rated"]
    assert [row["place"] for row in finished["players"]] == [1, 2]
    assert [row["aborted"] for row in finished["players"]] == [False, False]
    assert {row["rating_after"] for row in finished["players"]} == {None}

    # when: the fair-play review runs: both games clean, the match is rated
    assert [review.state for review in reviews_run(budget=30)] == [Review.State.CLEAN] * 2
    done = api_client.get(f"/api/v1/matches/{match['id']}").json()
    assert done["status"] == "finished" and done["rated"] and done["code"].startswith("CF2-D3-")
    assert done["game"] is None
    by_player = {row["player"]: row for row in done["players"]}
    # same score (0): fewer moves first
    assert by_player["p0"]["place"] == 1 and by_player["p1"]["place"] == 2
    assert by_player["p0"]["rating_after"] > 1500 > by_player["p1"]["rating_after"]
    assert anna_client.get(f"/api/v1/games/{match['game']}").json()["code"] == done["code"]

    # and the ratings show on the board and the player's page
    board = api_client.get("/api/v1/ratings?size=2&draw=3").json()
    assert [entry["player"] for entry in board["results"]] == ["p0", "p1"]
    assert board["results"][0]["provisional"] and board["results"][0]["matches"] == 1
    page = api_client.get("/api/v1/players/p0").json()
    assert page["ratings"]["2-3"]["rating"] == by_player["p0"]["rating_after"]
    weekly = api_client.get("/api/v1/ratings/weekly?size=2&draw=3").json()
    assert weekly["results"][0]["player"] == "p0" and weekly["results"][0]["gain"] > 0
    history = api_client.get("/api/v1/players/P1/ratings?size=2&draw=3").json()
    assert history["player"] == "p1" and [
        (row["match"], row["place"], row["rating_before"], row["rating_after"])
        for row in history["results"]
    ] == [(match["id"], 2, 1500, by_player["p1"]["rating_after"])]
    assert api_client.get("/api/v1/players/p1/ratings?size=4").json()["results"] == []
    assert api_client.get("/api/v1/players/nobody/ratings").status_code == 404
    assert api_client.get("/api/v1/players/a%00b/ratings").status_code == 404
    listed = anna_client.get("/api/v1/matches?status=finished").json()
    assert [each["id"] for each in listed["results"]] == [match["id"]]

    # and each player's account events (accounts/events.py) told the match as it went
    kinds = {
        player.username: [e["type"] for e in events.events_after(user_id=player.pk, after=0)]
        for player in (anna, bob)
    }
    assert kinds == {
        "p0": ["game_started", "match_seat_filled", "match_found", "game_ended",
               "match_finished", "match_rated"],
        "p1": ["game_started", "match_found", "game_ended", "match_finished", "match_rated"],
    }  # fmt: skip
    (rated,) = [
        e for e in events.events_after(user_id=anna.pk, after=0) if e["type"] == "match_rated"
    ]
    assert rated["data"] == {"match": match["id"], "rating": by_player["p0"]["rating_after"]}
    assert anna_client.get("/api/v1/matches?status=open").json()["count"] == 0
    assert Game.objects.filter(match_seat__match_id=match["id"]).count() == 2
    assert Match.objects.get(pk=match["id"]).deal.used_at is not None


def test_bad_requests_get_clear_errors(pool, players, api_client):
    pool(1)
    ((_, client),) = players(1)
    for body in ({}, {"size": 3}, {"size": 2, "draw": 2}, {"size": "2"}, {"size": 2, "x": 1}, []):
        answer = client.post("/api/v1/matches", body, format="json")
        assert answer.status_code == 400, body
        assert answer.json()["error"]["code"] == "invalid_request"
    hu = client.post("/api/v1/matches", {"size": 3}, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    assert (
        hu.json()["error"]["message"]
        != client.post("/api/v1/matches", {"size": 3}, format="json").json()["error"]["message"]
    )
    assert api_client.post("/api/v1/matches", {"size": 2}, format="json").status_code == 401
    assert api_client.get("/api/v1/matches/nope").status_code == 404
    assert api_client.get("/api/v1/matches/00000000-0000-0000-0000-000000000000").status_code == 404
    for query in ("size=3", "draw=2", "size=x", "players=robots", "page=0"):
        answer = api_client.get(f"/api/v1/ratings?{query}")
        assert answer.status_code == 400, query
    assert api_client.get("/api/v1/ratings/weekly?size=5").status_code == 400


def test_a_join_answers_from_what_it_wrote_in_few_statements(pool, players):
    # given two new players (no Player row yet) and a pool
    pool(4)
    (_anna, anna_client), (_bob, bob_client) = players(2)

    # when anna opens a match, then bob takes its second seat, each statement counted
    # (read at once: the next request's start empties Django's query log)
    with CaptureQueriesContext(connection) as captured:
        first = anna_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
    opened = [query["sql"] for query in captured.captured_queries]
    with CaptureQueriesContext(connection) as captured:
        second = bob_client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
    seated = [query["sql"] for query in captured.captured_queries]

    # then each answer is the match as a read of it shows it to that player
    assert first.status_code == 201 and second.status_code == 201
    for client, answer in ((anna_client, first), (bob_client, second)):
        read = client.get(f"/api/v1/matches/{answer.json()['id']}").json()
        assert answer.json() == {**read, "players": answer.json()["players"]}
        assert [{**row, "seconds": 0} for row in answer.json()["players"]] == [
            {**row, "seconds": 0} for row in read["players"][: len(answer.json()["players"])]
        ]
    assert [row["player"] for row in first.json()["players"]] == ["p0"]
    assert [row["player"] for row in second.json()["players"]] == ["p0", "p1"]
    # and a join is one short transaction: the key, the player's row made and locked in one
    # upsert, the open match and rating, the candidates, the deal (a new match) or the seated
    # players' checks and the match's update (a seat in one), the inserts; the answer reads the
    # seats only when there were others; and the account events (accounts/events.py): the game's
    # start, and for a seat taken the seated players read and their events in one insert
    assert len(opened) <= 12, [sql[:80] for sql in opened]
    assert len(seated) <= 15, [sql[:80] for sql in seated]
