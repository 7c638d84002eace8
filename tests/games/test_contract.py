"""The contract's promises beyond single endpoints (docs/api.md "Conventions"): every /api/
answer in the error shape, Bearer tokens, rate-limit headers, messages in the caller's
language with params, pages and filters the same on every list."""

import datetime as dt

import pytest
import time_machine
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation

from core.errors import CODES, reason_message
from core.throttling import FixedWindowScopedThrottle
from games.models import Game
from tests.conftest import requires_redis
from tests.games.helpers import easy_deck


@pytest.fixture
def game(auth_client):
    response = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    return Game.objects.get(pk=response.json()["id"])


def assert_error(response, status, code):
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["message"]
    assert code in CODES and CODES[code] == status


# ---- every /api/ answer in the error shape ----------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/", "/api/v1/", "/api/v1/nothing", "/api/v2/games", "/api/v1/games/", "/api/v1/daily/",
     "/api/v1/ping/", "/api/v1/auth/token/", "/api/v1/games/x/actions/", "/api/v1/schema"],
)  # fmt: skip
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_unknown_api_paths_answer_a_json_404(api_client, path, method):
    response = getattr(api_client, method)(path)

    assert_error(response, 404, "not_found")


def test_a_method_the_path_does_not_take_is_a_405(auth_client):
    assert_error(auth_client.delete("/api/v1/games"), 405, "method_not_allowed")
    assert_error(auth_client.put("/api/v1/daily", {}, format="json"), 405, "method_not_allowed")


def test_an_unacceptable_accept_is_a_406(auth_client):
    response = auth_client.get("/api/v1/games", HTTP_ACCEPT="text/html")

    assert_error(response, 406, "not_acceptable")


def test_a_body_not_in_json_is_a_415(auth_client):
    response = auth_client.generic("POST", "/api/v1/games", b"draw=3", content_type="text/plain")

    assert_error(response, 415, "unsupported_media_type")


# ---- Bearer ------------------------------------------------------------------------------------


def test_a_bearer_token_works_like_a_token(api_client, auth_client):
    key = auth_client._credentials["HTTP_AUTHORIZATION"].split()[1]

    for scheme in ("Bearer", "bearer", "Token"):
        api_client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
        assert api_client.get("/api/v1/games").status_code == 200


def test_a_wrong_bearer_token_is_said_to_be_invalid(api_client, db):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-key")

    response = api_client.get("/api/v1/games")

    assert_error(response, 401, "not_authenticated")
    assert "invalid" in response.json()["error"]["message"].lower()


# ---- rate limits -------------------------------------------------------------------------------


def test_throttled_endpoints_tell_their_limits_and_when_to_retry(api_client, user, monkeypatch):
    monkeypatch.setitem(FixedWindowScopedThrottle.THROTTLE_RATES, "token", "2/minute")
    body = {"username": "alice", "password": "correct-horse-battery"}

    # the clock stands half a minute into a window: its end never falls between the three
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, 30, 30, tzinfo=dt.UTC), tick=False):
        answers = [api_client.post("/api/v1/auth/token", body, format="json") for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [a["RateLimit-Limit"] for a in answers] == ["2", "2", "2"]
    assert [a["RateLimit-Remaining"] for a in answers] == ["1", "0", "0"]
    assert [a["RateLimit-Reset"] for a in answers] == ["30", "30", "30"]
    assert answers[2]["Retry-After"] == "30"
    assert_error(answers[2], 429, "throttled")


@requires_redis
def test_actions_counted_in_leases_are_refused_at_the_limit_not_after(
    auth_client, user, game, monkeypatch
):
    # given: 3,000 actions a minute (counted in leases of 3), 2,998 of this minute's counted
    monkeypatch.setitem(FixedWindowScopedThrottle.THROTTLE_RATES, "actions", "3000/minute")
    now = dt.datetime(2026, 12, 5, 12, 30, 30, tzinfo=dt.UTC)
    cache.set(f"throttle_actions_{user.pk}:{int(now.timestamp() // 60)}", 2998, 120)

    # when: three actions in that minute
    with time_machine.travel(now, tick=False):
        answers = [
            auth_client.post(f"/api/v1/games/{game.pk}/actions", {"type": "draw"}, format="json")
            for _ in range(3)
        ]

    # then: the 2,999th and 3,000th are taken, the next refused
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [a["RateLimit-Remaining"] for a in answers] == ["1", "0", "0"]
    assert_error(answers[2], 429, "throttled")


def test_actions_carry_the_rate_limit_headers_and_reads_do_not(auth_client, game):
    acted = auth_client.post(f"/api/v1/games/{game.pk}/actions", {"type": "draw"}, format="json")
    read = auth_client.get(f"/api/v1/games/{game.pk}")

    assert int(acted["RateLimit-Remaining"]) == int(acted["RateLimit-Limit"]) - 1
    assert "RateLimit-Limit" not in read


@override_settings(CORS_ALLOWED_ORIGINS=["https://client.example"])
def test_cors_clients_may_read_the_rate_limit_headers(auth_client, game):
    response = auth_client.post(
        f"/api/v1/games/{game.pk}/actions",
        {"type": "draw"},
        format="json",
        HTTP_ORIGIN="https://client.example",
    )

    exposed = {h.strip() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"} <= exposed


# ---- messages in the caller's language ---------------------------------------------------------

SAME_COLOUR = {
    "en": "The 2 of spades cannot go on the 3 of spades: they are the same colour.",
    "hu": "A pikk 2 és a pikk 3 azonos színű, nem rakhatod egymásra.",
    "pl": "2 pik nie może leżeć na tej karcie: 3 pik – mają ten sam kolor.",
    "de": "The 2 of spades cannot go on the 3 of spades: they are the same colour.",
}


@pytest.mark.parametrize("lang", SAME_COLOUR)
def test_an_illegal_move_is_worded_in_the_callers_language_with_params(auth_client, game, lang):
    response = auth_client.post(
        f"/api/v1/games/{game.pk}/actions",
        {"type": "move", "from": "tableau:1", "to": "tableau:2"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )

    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "illegal_move",
        "message": SAME_COLOUR[lang],
        "rule": "R12",
        "params": {"reason": "same_colour", "card": "2S", "onto": "3S"},
    }


@pytest.mark.parametrize(
    ("lang", "holds", "words"),
    [("en", 1, "Column 2 holds only 1 card."), ("en", 3, "Column 2 holds only 3 cards."),
     ("pl", 1, "Kolumna 2 ma tylko 1 kartę."), ("pl", 3, "Kolumna 2 ma tylko 3 karty."),
     ("pl", 5, "Kolumna 2 ma tylko 5 kart."), ("pl", 22, "Kolumna 2 ma tylko 22 karty."),
     ("hu", 3, "A 2. oszlop csak 3 lapot tartalmaz.")],
)  # fmt: skip
def test_counts_take_each_languages_plural_forms(lang, holds, words):
    params = {"pile": "tableau:2", "holds": holds, "count": holds + 1}

    with translation.override(lang):
        assert reason_message("column_too_short", params) == words


# ---- lists: filters and page sizes -------------------------------------------------------------


def test_games_filter_by_status_and_daily(auth_client, game):
    other = auth_client.post("/api/v1/games", {"deck": easy_deck()}, format="json").json()
    auth_client.post(f"/api/v1/games/{other['id']}/actions", {"type": "resign"}, format="json")

    def ids(query):
        return [g["id"] for g in auth_client.get(f"/api/v1/games?{query}").json()["results"]]

    assert ids("status=resigned") == [other["id"]]
    assert ids("status=playing") == [str(game.pk)]
    assert ids("status=won") == []
    assert ids("daily=true") == []
    assert ids("daily=false&status=playing") == [str(game.pk)]
    assert_error(auth_client.get("/api/v1/games?status=lost"), 400, "invalid_request")
    assert_error(auth_client.get("/api/v1/games?daily=yes"), 400, "invalid_request")


def test_page_size_sets_the_page_and_its_links(auth_client, game):
    auth_client.post("/api/v1/games", {"deck": easy_deck()}, format="json")

    first = auth_client.get("/api/v1/games?page_size=1").json()
    second = auth_client.get(first["next"]).json()

    assert first["count"] == 2 and len(first["results"]) == 1 and first["previous"] is None
    assert "page_size=1" in first["next"] and second["next"] is None
    assert second["results"][0]["id"] != first["results"][0]["id"]
