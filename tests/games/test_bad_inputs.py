"""Every endpoint answers bad input with its documented 4xx and leaves the game unchanged."""

import uuid

import pytest

from games.days import day_today
from games.models import Action, Game
from tests.games.helpers import easy_deck

MB = 1024 * 1024

BAD_ACTIONS = [
    ("malformed JSON", b'{"type": "draw"', 400),
    ("not an object", b'["draw"]', 400),
    ("a string", b'"draw"', 400),
    ("null", b"null", 400),
    ("empty body", b"", 400),
    ("no type", b'{"from": "waste"}', 400),
    ("unknown type", b'{"type": "teleport"}', 400),
    ("type not a string", b'{"type": 7}', 400),
    ("unknown pile", b'{"type": "move", "from": "deck", "to": "foundation"}', 400),
    ("pile not a string", b'{"type": "move", "from": ["waste"], "to": "foundation"}', 400),
    ("from foundation", b'{"type": "move", "from": "foundation", "to": "tableau:1"}', 400),
    ("no destination", b'{"type": "move", "from": "waste"}', 400),
    ("tableau:5", b'{"type": "move", "from": "tableau:5", "to": "foundation"}', 400),
    ("count 0", b'{"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 0}', 400),
    ("count -1", b'{"type": "move", "from": "tableau:1", "to": "tableau:2", "count": -1}', 400),
    (
        "count huge",
        b'{"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 1e300}',
        400,
    ),
    ("count 10**40", b'{"type": "tap", "from": "tableau:1", "count": ' + b"9" * 40 + b"}", 400),
    ("count float", b'{"type": "move", "from": "tableau:1", "to": "tableau:2", "count": 1.5}', 400),
    (
        "count string",
        b'{"type": "move", "from": "tableau:1", "to": "tableau:2", "count": "1"}',
        400,
    ),
    ("count true", b'{"type": "tap", "from": "tableau:1", "count": true}', 400),
    ("columns not bool", b'{"type": "tap", "from": "tableau:1", "columns": "no"}', 400),
    ("unknown field", b'{"type": "draw", "score": 255}', 400),
    ("field of another type", b'{"type": "draw", "from": "stock"}', 400),
    ("expect negative", b'{"type": "draw", "expect": -1}', 400),
    ("expect string", b'{"type": "draw", "expect": "0"}', 400),
    ("expect float", b'{"type": "draw", "expect": 0.5}', 400),
    ("NUL in type", b'{"type": "dr\\u0000aw"}', 400),
    ("NUL in pile", b'{"type": "move", "from": "waste\\u0000", "to": "foundation"}', 400),
    ("raw NUL byte", b'{"type": "draw"\x00}', 400),
    ("invalid UTF-8", b'{"type": "dr\xff\xfeaw"}', 400),
    ("lone surrogate", b'{"type": "\\ud800draw"}', 400),
    ("byte order mark", b'\xef\xbb\xbf{"type": "draw"}', 400),
    ("infinite expect", b'{"type": "draw", "expect": 1e400}', 400),
    ("1 MB body", b'{"type": "draw", "pad": "' + b"x" * MB + b'"}', 400),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, 400),
]


@pytest.fixture
def game(auth_client):
    response = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    return Game.objects.get(pk=response.json()["id"])


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.state, game.score, game.moves, game.status, Action.objects.count()


@pytest.mark.parametrize(("body", "status"), [(b, s) for _, b, s in BAD_ACTIONS],
                         ids=[name for name, _, _ in BAD_ACTIONS])  # fmt: skip
def test_bad_action_bodies(auth_client, game, body, status):
    before = snapshot(game.pk)

    response = auth_client.generic(
        "POST", f"/api/v1/games/{game.pk}/actions", body, content_type="application/json"
    )

    assert response.status_code == status
    assert response.json()["error"]["code"] == "invalid_request"
    assert snapshot(game.pk) == before


def test_wrong_content_type_is_4xx(auth_client, game):
    before = snapshot(game.pk)

    response = auth_client.generic(
        "POST", f"/api/v1/games/{game.pk}/actions", b"type=draw", content_type="text/plain"
    )

    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
    assert snapshot(game.pk) == before


@pytest.mark.parametrize("target", ["other user's game", "random uuid", "not a uuid"])
def test_actions_on_games_one_cannot_see(auth_client, game, make_user, client_for, target):
    bob = client_for(make_user("bob"))
    bobs_game = bob.post("/api/v1/games", {}, format="json").json()["id"]
    game_id = {
        "other user's game": bobs_game,
        "random uuid": str(uuid.uuid4()),
        "not a uuid": "x' OR 1=1 --",
    }[target]
    before = snapshot(bobs_game)

    response = auth_client.post(f"/api/v1/games/{game_id}/actions", {"type": "draw"}, "json")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert snapshot(bobs_game) == before


BAD_CREATES = [
    b'{"draw": 3',
    b"[]",
    b'{"draw": 3.0}',
    b'{"ruleset": null}',
    b'{"deck": null}',
    b'{"code": "CF1-D3-AAAAAC\\u0000"}',
    b'{"deck": ["AH", {"x": 1}]}',
    b'{"pad": "' + b"x" * MB + b'"}',
]


@pytest.mark.parametrize("body", BAD_CREATES)
def test_bad_create_bodies(auth_client, body):
    response = auth_client.generic("POST", "/api/v1/games", body, content_type="application/json")

    assert 400 <= response.status_code < 500
    assert response.json()["error"]["code"] in {"invalid_request", "invalid_code", "invalid_deck"}
    assert not Game.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/auth/register", "/api/v1/auth/token"])
@pytest.mark.parametrize(
    "body",
    [b"{", b"[]", b'{"username": null, "password": null}', b'{"username": "a\\u0000"}',
     b'{"username": "x", "password": "' + b"y" * MB + b'"}'],
)  # fmt: skip
def test_bad_account_bodies(api_client, db, path, body):
    response = api_client.generic("POST", path, body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("query", ["lang=", "lang=%00", "lang=hu&lang=xx", "lang=" + "x" * 5000])
def test_bad_text_queries(auth_client, game, query):
    response = auth_client.get(f"/api/v1/games/{game.pk}/text?{query}")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


LISTS = ["/api/v1/games", "/api/v1/daily/{today}/leaderboard"]


@pytest.mark.parametrize("query", ["page=0", "page=-1", "page=abc", "page=%00", "page=1.5",
                                   "page=99999999999999999999", "page_size=0", "page_size=101",
                                   "page_size=x"])  # fmt: skip
@pytest.mark.parametrize("path", LISTS)
def test_bad_pages_are_the_same_400_on_every_list(auth_client, game, path, query):
    url = path.format(today=day_today().isoformat())

    response = auth_client.get(f"{url}?{query}")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("path", LISTS)
def test_a_page_past_the_last_is_the_same_404_on_every_list(auth_client, game, path):
    url = path.format(today=day_today().isoformat())

    response = auth_client.get(f"{url}?page=2")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "path", ["/api/v1/players/a%00b", "/api/v1/daily/2026-11-30%00/leaderboard"]
)
def test_a_nul_character_in_a_path_is_a_4xx_on_every_database(api_client, db, path):
    # PostgreSQL refuses NUL in text: a lookup with one must not reach it as a 500
    response = api_client.get(path)

    assert 400 <= response.status_code < 500
    assert response.json()["error"]["code"] in {"invalid_request", "not_found"}


def test_a_nul_character_in_a_password_is_a_4xx(api_client, db, make_user):
    # given
    make_user("nulpass")

    # when
    response = api_client.post(
        "/api/v1/auth/token", {"username": "nulpass", "password": "x\x00y"}, format="json"
    )

    # then
    assert 400 <= response.status_code < 500


def test_the_player_page_of_a_name_with_nul_is_a_404(client, db):
    response = client.get("/players/a%00b")

    assert response.status_code == 404
