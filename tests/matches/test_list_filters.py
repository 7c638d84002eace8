"""What the filters of `GET /api/v1/matches` keep (docs/api.md
"Matches and ratings (R32, R33)": status, since, until, max, size, draw, as "Lists: filters"
reads them): each returns exactly the caller's matches it names, newest first; an unknown
parameter is 400 `unknown_parameter`."""

import datetime as dt

import pytest
from django.utils import timezone

from matches.models import Match

MATCHES = "/api/v1/matches"


def join(client, size, draw):
    answer = client.post(MATCHES, {"size": size, "draw": draw}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def resign(client, game_id):
    answer = client.post(f"/api/v1/games/{game_id}/actions", {"type": "resign"}, format="json")
    assert answer.status_code == 200, answer.content


def ids(response):
    assert response.status_code == 200, response.content
    return [match["id"] for match in response.json()["results"]]


@pytest.fixture
def matches(pool, players):
    """Anna's three matches, newest first: a duel of draw 1 (open, alone), a match of four of
    draw 3 (open, alone), and a duel of draw 3 with bob, both resigned (finished), opened two
    days ago. Returns anna's and bob's clients and the three ids."""
    pool(3, draw=3)
    pool(1, draw=1)
    (_anna, anna), (_bob, bob) = players(2)
    duel = join(anna, 2, 3)
    bob_seat = join(bob, 2, 3)
    assert bob_seat["id"] == duel["id"]
    resign(anna, duel["game"])
    resign(bob, bob_seat["game"])
    Match.objects.filter(pk=duel["id"]).update(created_at=timezone.now() - dt.timedelta(days=2))
    four = join(anna, 4, 3)
    single = join(anna, 2, 1)
    return anna, bob, [single["id"], four["id"], duel["id"]]


def test_each_filter_keeps_exactly_its_matches(matches):
    anna, bob, (single, four, duel) = matches
    yesterday = timezone.now() - dt.timedelta(days=1)

    assert ids(anna.get(MATCHES)) == [single, four, duel]
    assert ids(anna.get(MATCHES, {"status": "open"})) == [single, four]
    assert ids(anna.get(MATCHES, {"status": "finished"})) == [duel]
    assert ids(anna.get(MATCHES, {"size": 4})) == [four]
    assert ids(anna.get(MATCHES, {"size": 2})) == [single, duel]
    assert ids(anna.get(MATCHES, {"draw": 1})) == [single]
    assert ids(anna.get(MATCHES, {"draw": 3})) == [four, duel]
    assert ids(anna.get(MATCHES, {"since": yesterday.isoformat()})) == [single, four]
    assert ids(anna.get(MATCHES, {"since": yesterday.date().isoformat()})) == [single, four]
    assert ids(anna.get(MATCHES, {"until": yesterday.isoformat()})) == [duel]
    assert ids(anna.get(MATCHES, {"status": "open", "size": 2})) == [single]
    assert ids(anna.get(MATCHES, {"status": "finished", "draw": 1})) == []
    # max: at most that many in all, the newest, paginated as any list
    assert ids(anna.get(MATCHES, {"max": 2})) == [single, four]
    page = anna.get(MATCHES, {"max": 2, "page_size": 1}).json()
    assert page["count"] == 2 and [m["id"] for m in page["results"]] == [single]
    assert ids(anna.get(page["next"])) == [four]
    # only the caller's
    assert ids(bob.get(MATCHES)) == [duel]
    assert ids(bob.get(MATCHES, {"status": "open"})) == []


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        ({"rated": "true"}, "unknown_parameter", "Unknown query parameter: rated."),
        ({"status": "playing"}, "invalid_request", None),
        ({"size": "3"}, "invalid_request", None),
        ({"draw": "2"}, "invalid_request", None),
        ({"max": "0"}, "invalid_request", "max must be a whole number from 1 to 999999999."),
        ({"since": "yesterday"}, "invalid_request", None),
    ],
)
def test_an_unknown_parameter_or_a_bad_value_is_refused(players, query, code, message):
    [(_anna, anna)] = players(1)

    response = anna.get(MATCHES, query)

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code
    assert message is None or error["message"] == message
    if code == "unknown_parameter":
        assert error["params"] == {"parameters": ["rated"]}
