"""The filters of the lists and the export (docs/api.md "Conventions", lists: filters): since,
until, max, status, daily, draw, ruleset, match; an unknown parameter is 400 unknown_parameter
naming it, in the caller's language; `ids` reads a batch of games the caller may see."""

import datetime as dt
import json
import uuid

import pytest
from django.utils import timezone

from games.models import Game

GAMES = "/api/v1/games"


def deal(client, body=None):
    response = client.post(GAMES, body or {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def resign(client, game_id):
    response = client.post(f"{GAMES}/{game_id}/actions", {"type": "resign"}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["game"]


def ids(response):
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def export_ids(response):
    assert response.status_code == 200, response.content
    return [json.loads(line)["id"] for line in b"".join(response.streaming_content).splitlines()]


@pytest.fixture
def games(auth_client):
    """Four games of the caller, oldest first: draw 3 app (resigned, dealt two days ago), draw 1
    cardgames, draw 3 classic, draw 1 app (the last three in progress)."""
    made = [
        deal(auth_client, {"draw": 3}),
        deal(auth_client, {"draw": 1, "ruleset": "cardgames"}),
        deal(auth_client, {"draw": 3, "ruleset": "classic"}),
        deal(auth_client, {"draw": 1}),
    ]
    resign(auth_client, made[0]["id"])
    Game.objects.filter(pk=made[0]["id"]).update(created_at=timezone.now() - dt.timedelta(days=2))
    return [game["id"] for game in made]


def test_filters_of_the_games_list(auth_client, games):
    newest_first = games[::-1]
    assert ids(auth_client.get(GAMES)) == newest_first
    assert ids(auth_client.get(GAMES, {"draw": 1})) == [games[3], games[1]]
    assert ids(auth_client.get(GAMES, {"ruleset": "classic"})) == [games[2]]
    assert ids(auth_client.get(GAMES, {"status": "resigned"})) == [games[0]]
    assert ids(auth_client.get(GAMES, {"daily": "false", "match": "false"})) == newest_first
    assert ids(auth_client.get(GAMES, {"match": "true"})) == []
    yesterday = (timezone.now() - dt.timedelta(days=1)).isoformat()
    assert ids(auth_client.get(GAMES, {"since": yesterday})) == newest_first[:3]
    assert ids(auth_client.get(GAMES, {"until": yesterday})) == [games[0]]
    a_date = (timezone.now() - dt.timedelta(days=1)).date().isoformat()
    assert ids(auth_client.get(GAMES, {"since": a_date})) == newest_first[:3]
    # max: at most that many in all, paginated as any list
    page = auth_client.get(GAMES, {"max": 3, "page_size": 2}).json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert ids(auth_client.get(page["next"])) == [games[1]]


def test_filters_of_the_export(auth_client, games):
    export = "/api/v1/account/export"
    assert export_ids(auth_client.get(export)) == games
    assert export_ids(auth_client.get(export, {"draw": 1, "max": 1})) == [games[1]]
    assert export_ids(auth_client.get(export, {"status": "playing", "max": 2})) == games[1:3]
    assert export_ids(auth_client.get(export, {"ruleset": "app", "daily": "false"})) == [
        games[0],
        games[3],
    ]


def test_filters_of_a_players_public_games(auth_client, api_client, user, games):
    resign(auth_client, games[1])
    path = f"/api/v1/players/{user.username}/games"
    assert ids(api_client.get(path)) == [games[1], games[0]]
    assert ids(api_client.get(path, {"draw": 3})) == [games[0]]
    assert ids(api_client.get(path, {"max": 1})) == [games[1]]
    streamed = api_client.get(path, {"ruleset": "cardgames"}, HTTP_ACCEPT="application/x-ndjson")
    assert export_ids(streamed) == [games[1]]
    refused = api_client.get(path, {"status": "playing"})
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "status must be one of: won, resigned."


@pytest.mark.parametrize(
    ("path", "language", "message"),
    [
        (GAMES, "en", "Unknown query parameter: rated."),
        (GAMES, "hu", "Ismeretlen lekérdezési paraméter: rated."),
        ("/api/v1/account/export", "pl", "Nieznany parametr zapytania: rated."),
        ("/api/v1/players/alice/games", "en", "Unknown query parameter: rated."),
        ("/api/v1/matches", "en", "Unknown query parameter: rated."),
        ("/api/v1/ratings", "en", "Unknown query parameter: rated."),
        ("/api/v1/ratings/weekly", "en", "Unknown query parameter: rated."),
        ("/api/v1/players/alice/ratings", "en", "Unknown query parameter: rated."),
        ("/api/v1/account/tokens", "en", "Unknown query parameter: rated."),
        ("/api/v1/challenges", "en", "Unknown query parameter: rated."),
        ("/api/v1/daily", "en", "Unknown query parameter: rated."),
    ],
)
def test_an_unknown_parameter_is_named(auth_client, path, language, message):
    response = auth_client.get(path, {"rated": "true"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "unknown_parameter" and error["message"] == message
    assert error["params"] == {"parameters": ["rated"]}


def test_unknown_parameters_on_a_board(api_client):
    response = api_client.get("/api/v1/daily/2026-12-01/leaderboard", {"b": 1, "a": 2})
    assert response.status_code == 400
    assert response.json()["error"]["params"] == {"parameters": ["a", "b"]}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"draw": "2"}, "draw must be one of: 3, 1."),
        ({"ruleset": "x"}, "ruleset must be one of: app, cardgames, classic."),
        ({"daily": "maybe"}, "daily must be true or false."),
        ({"daily": "yes"}, "daily must be true or false."),
        ({"match": ""}, "match must be true or false."),
        ({"max": "0"}, "max must be a whole number from 1 to 999999999."),
        ({"max": "x"}, "max must be a whole number from 1 to 999999999."),
        ({"page": "0"}, "page must be a whole number from 1 to 999999999."),
        ({"since": "yesterday"}, "since must be a time (ISO 8601, like 2026-12-05T10:00:00Z)"),
        ({"ids": "nope"}, "ids takes at most 100 ids, each a UUID."),
        ({"ids": str(uuid.uuid4()), "draw": "1"}, "ids takes no filter: only page and page_size."),
        ({"ids": ",".join(str(uuid.uuid4()) for _ in range(101))}, "ids takes at most 100 ids"),
    ],
)
def test_bad_values_are_refused_with_a_clear_message(auth_client, query, message):
    response = auth_client.get(GAMES, query)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and error["message"].startswith(message)


def test_a_parameter_given_twice_is_refused(auth_client):
    response = auth_client.get(f"{GAMES}?draw=1&draw=3", HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Podaj draw tylko raz."


def test_a_batch_read_answers_what_the_caller_may_see(auth_client, client_for, make_user):
    mine = deal(auth_client)
    other = client_for(make_user("bob"))
    hidden = deal(other)  # in progress: only bob's
    public = resign(other, deal(other)["id"])  # finished: anyone's
    missing = str(uuid.uuid4())
    asked = [public["id"], missing, hidden["id"], mine["id"], public["id"]]
    response = auth_client.get(GAMES, {"ids": ",".join(asked)})
    body = response.json()
    assert ids(response) == [public["id"], mine["id"]]
    assert body["count"] == 2 and body["next"] is None and body["previous"] is None
    # paginated as any list (100 a page by default)
    second = auth_client.get(GAMES, {"ids": ",".join(asked), "page_size": 1, "page": 2}).json()
    assert [game["id"] for game in second["results"]] == [mine["id"]] and second["previous"]
    # the same games as their own reads, hidden cards hidden: a game in progress shows only its
    # stock's count and the reserve's top
    assert body["results"][1]["stock"] == {"count": mine["stock"]["count"]}
    assert body["results"][1]["reserve"] == mine["reserve"]
    assert "actions" not in body["results"][0]
    # repeated, as generated clients send a list
    repeated = auth_client.get(f"{GAMES}?ids={public['id']}&ids={mine['id']}")
    assert ids(repeated) == [public["id"], mine["id"]]
