import json

import pytest
from django.db import OperationalError
from rest_framework.throttling import ScopedRateThrottle

from games.engine import DealCode, shuffled_deck
from games.models import Action, Game
from tests.engine.test_deal import vectors
from tests.games.helpers import easy_deck

GAMES = "/api/v1/games"


def create(client, body=None):
    response = client.post(GAMES, body or {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def act(client, game_id, body):
    return client.post(f"{GAMES}/{game_id}/actions", body, format="json")


# ---- creating --------------------------------------------------------------------------------


def test_create_random_game_with_defaults(auth_client, user):
    game = create(auth_client)

    assert game["ruleset"] == "app" and game["draw"] == 3
    assert game["status"] == "playing" and game["score"] == 0 and game["moves"] == 0
    assert game["daily"] is None and game["finished_at"] is None
    stored = Game.objects.get(pk=game["id"])
    assert stored.owner == user and not stored.practice and not game["practice"]
    # a random game is a CF2 deal (R4a) whose code stays hidden until the game ends (R19)
    code = DealCode.parse(stored.deal_code)
    assert (code.version, code.draw) == (2, 3)
    assert game["code"] is None
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["code"] is None
    assert auth_client.get(GAMES).json()["results"][0]["code"] is None
    ended = act(auth_client, game["id"], {"type": "resign"}).json()["game"]
    assert ended["code"] == stored.deal_code
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["code"] == stored.deal_code


def test_create_from_code_deals_those_cards(auth_client):
    code = "CF1-D1-AAAAACL"
    game = create(auth_client, {"code": code.lower(), "ruleset": "cardgames"})

    deck = shuffled_deck(DealCode.parse(code).number)
    assert game["code"] == code and game["draw"] == 1 and game["ruleset"] == "cardgames"
    assert game["reserve"]["top"] == deck[12]
    assert game["tableau"] == [[card] for card in deck[14:18]]
    assert game["practice"] is True  # the player chose the deal: shown, never counted (R19)


@pytest.mark.parametrize("vector", vectors("deal_vectors_cf2.json"), ids=lambda v: v["code"])
def test_create_from_cf2_code_deals_those_cards(auth_client, vector):
    game = create(auth_client, {"code": vector["code"].lower()})

    assert game["code"] == vector["code"] and game["draw"] == vector["draw"]
    assert game["practice"] is True
    assert game["reserve"] == {"count": 13, "top": vector["reserve_top"]}
    assert game["tableau"] == vector["tableau"]
    assert game["foundations"][0]["top"] == vector["base_card"]
    drawn = act(auth_client, game["id"], {"type": "draw"}).json()["action"]["cards"]
    assert drawn == vector["stock_top_first"][: vector["draw"]]


def test_create_from_custom_deck(auth_client):
    deck = easy_deck()
    game = create(auth_client, {"deck": deck, "draw": 1})

    assert game["code"] is None and game["practice"] is True
    assert game["starting_rank"] == "A"
    assert game["tableau"] == [["2S"], ["3S"], ["4S"], ["5S"]]
    assert Game.objects.get(pk=game["id"]).deck == deck


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"code": "CF2-D3-AAAAACL"}, "invalid_code"),
        ({"code": "CF1-D3-AAAA"}, "invalid_code"),
        ({"code": "CF2-D3-IAAAAAAAAAAAAAAAAAAAAAAAAA"}, "invalid_code"),
        ({"code": "CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAAAAA"}, "invalid_code"),
        ({"code": "CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAA0A"}, "invalid_code"),
        ({"code": "CF2-D1-AAAAAAAAAAAAAAAAAAAADVXTIV", "draw": 3}, "invalid_request"),
        ({"code": 12}, "invalid_code"),
        ({"deck": ["AH"] * 52}, "invalid_deck"),
        ({"deck": easy_deck()[:51]}, "invalid_deck"),
        ({"deck": [1] * 52}, "invalid_deck"),
        ({"deck": "AH"}, "invalid_request"),
        ({"draw": 2}, "invalid_request"),
        ({"draw": "3"}, "invalid_request"),
        ({"draw": True}, "invalid_request"),
        ({"ruleset": "vegas"}, "invalid_request"),
        ({"ruleset": "classic", "draw": 1}, "invalid_request"),
        ({"code": "CF1-D3-AAAAACL", "draw": 1}, "invalid_request"),
        ({"code": "CF1-D3-AAAAACL", "deck": easy_deck()}, "invalid_request"),
        ({"score": 255}, "invalid_request"),
        ({"daily": "yes"}, "invalid_request"),
        ({"daily": True, "code": "CF1-D3-AAAAACL"}, "invalid_request"),
        ({"daily": True, "ruleset": "classic"}, "invalid_request"),
    ],
)
def test_create_rejects_bad_input(auth_client, body, code):
    response = auth_client.post(GAMES, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert not Game.objects.exists()


def test_create_needs_authentication(api_client, db):
    response = api_client.post(GAMES, {}, format="json")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


# ---- reading ---------------------------------------------------------------------------------


def test_list_is_own_games_newest_first_paginated(auth_client, make_user, client_for):
    ids = [create(auth_client)["id"] for _ in range(22)]
    create(client_for(make_user("bob")))

    page1 = auth_client.get(GAMES).json()
    page2 = auth_client.get(page1["next"]).json()

    assert page1["count"] == 22 and page1["previous"] is None
    assert [g["id"] for g in page1["results"] + page2["results"]] == ids[::-1]
    assert auth_client.get(f"{GAMES}?page=9").json()["error"]["code"] == "not_found"


def test_game_in_progress_is_visible_to_its_owner_only(
    auth_client, make_user, client_for, api_client
):
    game = create(auth_client)
    other = client_for(make_user("bob"))

    assert auth_client.get(f"{GAMES}/{game['id']}").status_code == 200
    for client in (other, api_client):
        for suffix in ("", "/actions", "/legal-actions", "/text"):
            response = client.get(f"{GAMES}/{game['id']}{suffix}")
            assert response.status_code == 404, suffix
            assert response.json()["error"]["code"] == "not_found"


def test_finished_game_is_public_with_its_log(auth_client, api_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    act(auth_client, game["id"], {"type": "draw"})
    act(auth_client, game["id"], {"type": "resign"})

    response = api_client.get(f"{GAMES}/{game['id']}")

    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "resigned" and body["finished_at"] is not None
    assert [a["type"] for a in body["actions"]] == ["draw", "resign"]
    assert api_client.get(f"{GAMES}/{game['id']}/actions").json() == body["actions"]
    assert api_client.get(f"{GAMES}/{game['id']}/legal-actions").json() == []


@pytest.mark.parametrize("game_id", ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "%00"])
def test_unknown_game_is_not_found(auth_client, game_id):
    for suffix in ("", "/actions", "/legal-actions", "/text"):
        assert auth_client.get(f"{GAMES}/{game_id}{suffix}").status_code == 404
    assert act(auth_client, game_id, {"type": "draw"}).status_code == 404


def test_legal_actions_list_concrete_moves(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    legal = auth_client.get(f"{GAMES}/{game['id']}/legal-actions").json()

    assert {"type": "move", "from": "reserve", "to": "foundation:H", "count": 1} in legal
    assert {"type": "draw"} in legal
    assert {"type": "undo"} not in legal


@pytest.mark.parametrize(("lang", "word"), [("hu", "tartalék"), ("en", "reserve"), ("pl", None)])
def test_text_in_each_language(auth_client, lang, word):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    response = auth_client.get(f"{GAMES}/{game['id']}/text?lang={lang}")

    assert response.status_code == 200
    assert response.json()["lang"] == lang
    if word:
        assert word in response.json()["text"].lower()


def test_text_rejects_unknown_language(auth_client):
    game = create(auth_client)

    response = auth_client.get(f"{GAMES}/{game['id']}/text?lang=xx")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_hidden_cards_never_leave_the_server(auth_client):
    # given: a fresh game of a known deck, so the hidden cards are known
    deck = easy_deck()
    game = create(auth_client, {"deck": deck, "draw": 1})
    hidden = deck[0:12] + deck[19:]  # reserve below its top; stock but the first card

    # when: a draw reveals d[18] only
    responses = [act(auth_client, game["id"], {"type": "draw"})]
    responses += [
        auth_client.get(f"{GAMES}/{game['id']}{suffix}")
        for suffix in ("", "/actions", "/legal-actions", "/text?lang=en", "/text?lang=hu")
    ]
    responses.append(auth_client.get(GAMES))
    responses.append(act(auth_client, game["id"], {"type": "recycle"}))
    responses.append(act(auth_client, game["id"], {"type": "move", "from": "stock", "to": "waste"}))

    # then
    for response in responses:
        names = set(json.dumps(response.json()).replace('"', " ").replace(",", " ").split())
        assert not names & set(hidden), response.content


# ---- acting ----------------------------------------------------------------------------------


def test_action_returns_the_action_and_the_game(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    response = act(auth_client, game["id"], {"type": "move", "from": "reserve", "to": "foundation"})

    body = response.json()
    assert response.status_code == 200
    assert body["action"] | {"at": None} == {
        "n": 1, "type": "move", "from": "reserve", "to": "foundation:H", "count": 1,
        "cards": ["2H"], "score_delta": 5, "auto_fill": None, "undoes": None,
        "auto_finish": [], "at": None,
    }  # fmt: skip
    assert body["game"]["score"] == 5 and body["game"]["moves"] == 1
    assert body["game"]["reserve"]["top"] == "3H"
    row = Action.objects.get(game_id=game["id"])
    assert (row.n, row.to_pile, row.cards, row.score_delta) == (1, "foundation:H", ["2H"], 5)


def test_undo_is_logged_and_reverts(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    act(auth_client, game["id"], {"type": "move", "from": "reserve", "to": "foundation"})

    body = act(auth_client, game["id"], {"type": "undo"}).json()

    assert body["action"]["undoes"] == 1 and body["action"]["score_delta"] == -5
    assert body["game"]["score"] == 0 and body["game"]["moves"] == 2
    assert body["game"]["reserve"]["top"] == "2H"


def test_tap_is_logged_as_the_move_it_became(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    body = act(auth_client, game["id"], {"type": "tap", "from": "reserve"}).json()

    assert body["action"]["type"] == "move" and body["action"]["to"] == "foundation:H"


def test_client_figures_change_nothing(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    response = act(auth_client, game["id"], {"type": "draw", "score": 255, "seconds": 1})

    assert response.status_code == 400
    stored = Game.objects.get(pk=game["id"])
    assert (stored.score, stored.moves, stored.actions_count) == (0, 0, 0)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "move", "from": "tableau:1", "to": "tableau:2"}, 422, "illegal_move"),
        ({"type": "recycle"}, 422, "illegal_move"),
        ({"type": "undo"}, 422, "illegal_move"),
        ({"type": "tap", "from": "foundation:H"}, 422, "no_destination"),
        ({"type": "draw", "expect": 3}, 409, "stale"),
    ],
)
def test_rejected_actions_change_nothing(auth_client, body, status, code):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    before = Game.objects.get(pk=game["id"]).state

    response = act(auth_client, game["id"], body)

    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert Game.objects.get(pk=game["id"]).state == before
    assert not Action.objects.exists()


def test_illegal_move_names_its_rule(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    error = act(auth_client, game["id"], {"type": "recycle"}).json()["error"]

    assert error["rule"] == "R18" and error["message"]


def test_expect_matching_moves_is_applied(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    act(auth_client, game["id"], {"type": "draw", "expect": 0})

    response = act(auth_client, game["id"], {"type": "draw", "expect": 1})

    assert response.status_code == 200 and response.json()["game"]["moves"] == 2


def test_finished_game_answers_game_over(auth_client):
    game = create(auth_client)
    act(auth_client, game["id"], {"type": "resign"})

    response = act(auth_client, game["id"], {"type": "draw"})

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_over"


def test_other_players_cannot_act(auth_client, make_user, client_for):
    game = create(auth_client)
    other = client_for(make_user("bob"))

    # in progress: they cannot see it
    assert act(other, game["id"], {"type": "draw"}).json()["error"]["code"] == "not_found"
    # finished: they can see it, not play it
    act(auth_client, game["id"], {"type": "resign"})
    response = act(other, game["id"], {"type": "draw"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"


def test_anonymous_cannot_act(api_client, auth_client):
    game = create(auth_client)

    response = act(api_client, game["id"], {"type": "draw"})

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_session_auth_needs_csrf(user):
    from rest_framework.test import APIClient

    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(user)

    response = browser.post(GAMES, {}, format="json")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert browser.get(GAMES).status_code == 200


@pytest.mark.usefixtures("hour_to_spare")
def test_actions_are_throttled(auth_client, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "actions", "3/hour")
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    codes = [act(auth_client, game["id"], {"type": "draw"}).status_code for _ in range(4)]

    assert codes == [200, 200, 200, 429]
    assert Game.objects.get(pk=game["id"]).moves == 3


def test_database_outage_is_503_not_500(auth_client, monkeypatch):
    game = create(auth_client)

    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch:
        patch.setattr("django.db.backends.utils.CursorWrapper.execute", down)
        response = auth_client.get(f"{GAMES}/{game['id']}")

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"


def test_actions_go_on_while_the_throttle_cache_is_down(auth_client, settings):
    # given: the cache points at a Redis that does not answer
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    assert isinstance(caches["default"], RedisCache)
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    # when
    response = act(auth_client, game["id"], {"type": "draw"})

    # then
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("code", "english", "hungarian"),
    [
        ("CF2-D3-I" + "A" * 25, "starts with a letter A-H", "A-H betűvel kezdődik"),
        ("cf2-d1-" + "a" * 7, "A CF2 code has 26 characters after its draw mode, not 7", "nem 7"),
        ("CF1-D3-AAAAAAAA", "A CF1 code has 7 characters", "7 karakter áll, nem 8"),
        ("CF2-D3-" + "A" * 24 + "1=", "the digits 2-7, not '1', '='", "ezeket nem: '1', '='"),
        ("CF3-D3-AAAAAAA", "not a valid deal code", "nem érvényes leosztáskód"),
    ],
)
def test_a_bad_code_says_what_is_wrong_in_the_callers_language(
    auth_client, code, english, hungarian
):
    answers = {
        lang: auth_client.post(GAMES, {"code": code}, format="json", HTTP_ACCEPT_LANGUAGE=lang)
        for lang in ("en", "hu")
    }

    for answer in answers.values():
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_code"
    assert english in answers["en"].json()["error"]["message"]
    assert hungarian in answers["hu"].json()["error"]["message"]
    assert not Game.objects.exists()
