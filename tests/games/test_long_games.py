"""A game's log is capped (GAME_MAX_ACTIONS: 409 `game_too_long`, nothing stored, a resign still
taken), and a long log's reads and replays are served from the cache, not rebuilt each time."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.engine import Action as EngineAction
from games.engine import Game as EngineGame
from games.models import Action, Game
from tests.web.test_pages import replay_frames


def long_game(owner, actions: int) -> Game:
    """A random game whose log is `actions` draws and undos, written as game_act writes them
    (but in one bulk insert: thousands of requests would only make the test slow)."""
    game = services.game_create(owner=owner)
    engine = EngineGame.from_dict(game.state)
    rows, now = [], timezone.now()
    for i in range(actions):
        result = engine.apply(EngineAction.from_dict({"type": ("draw", "undo")[i % 2]})).as_dict()
        rows.append(
            Action(
                game=game, n=result["n"], type=result["type"], from_pile=result["from"],
                to_pile=result["to"], count=result["count"], cards=result["cards"],
                score_delta=result["score_delta"], auto_fill=result["auto_fill"],
                undoes=result["undoes"], auto_finish=result["auto_finish"] or None, at=now,
            )
        )  # fmt: skip
    Action.objects.bulk_create(rows, batch_size=1000)
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_dict(), score=engine.score, moves=engine.moves, actions_count=engine.n
    )
    game.refresh_from_db()
    assert services.game_verify(game) == []
    return game


def act(client, game, body):
    return client.post(f"/api/v1/games/{game.pk}/actions", body, format="json")


def test_an_action_past_the_cap_answers_game_too_long_and_stores_nothing(
    user, auth_client, settings
):
    # given: a game whose log is at the cap (3,000 by default)
    assert settings.GAME_MAX_ACTIONS == 3000
    game = long_game(user, settings.GAME_MAX_ACTIONS)

    # when: any action but a resign
    refused = [act(auth_client, game, {"type": kind}) for kind in ("draw", "undo", "finish")]

    # then: 409 game_too_long, and nothing changed
    for response in refused:
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game_too_long"
    assert Action.objects.filter(game=game).count() == settings.GAME_MAX_ACTIONS
    stored = Game.objects.get(pk=game.pk)
    assert (stored.actions_count, stored.state) == (game.actions_count, game.state)

    # when / then: a resign still ends it, as action cap + 1
    resigned = act(auth_client, game, {"type": "resign"})
    assert resigned.status_code == 200
    assert resigned.json()["action"]["n"] == settings.GAME_MAX_ACTIONS + 1
    assert resigned.json()["game"]["status"] == "resigned"


def test_the_last_action_below_the_cap_is_taken(user, auth_client, settings):
    settings.GAME_MAX_ACTIONS = 10
    game = long_game(user, 9)

    taken = act(auth_client, game, {"type": "draw"})
    refused = act(auth_client, game, {"type": "undo"})

    assert taken.status_code == 200 and taken.json()["action"]["n"] == 10
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_too_long"


def _log_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if Action._meta.db_table in q["sql"]]


def test_a_long_games_reads_and_replay_come_from_the_cache(user, auth_client, client, settings):
    # given: a finished game at the cap, read once by anyone (the log is read and cached)
    game = long_game(user, settings.GAME_MAX_ACTIONS - 1)
    assert act(auth_client, game, {"type": "resign"}).status_code == 200
    anonymous = APIClient()
    first = anonymous.get(f"/api/v1/games/{game.pk}")
    first_log = anonymous.get(f"/api/v1/games/{game.pk}/actions")
    first_replay = client.get(f"/replay/{game.pk}")
    assert first.status_code == first_log.status_code == first_replay.status_code == 200
    assert len(first.json()["actions"]) == settings.GAME_MAX_ACTIONS

    # when: read again
    with CaptureQueriesContext(connection) as queries:
        again = anonymous.get(f"/api/v1/games/{game.pk}")
        again_log = anonymous.get(f"/api/v1/games/{game.pk}/actions")
        again_replay = client.get(f"/replay/{game.pk}")

    # then: the same answers, without a query of the log
    assert _log_queries(queries) == []
    assert again.json() == first.json()
    assert again_log.json() == first_log.json() == first.json()["actions"]
    assert len(replay_frames(again_replay)) == settings.GAME_MAX_ACTIONS + 1
    assert replay_frames(again_replay) == replay_frames(first_replay)


def test_a_new_action_is_read_at_once(user, auth_client):
    # given: a game in progress whose log was read (and cached)
    game = long_game(user, 4)
    assert len(auth_client.get(f"/api/v1/games/{game.pk}/actions").json()) == 4

    # when
    assert act(auth_client, game, {"type": "draw"}).status_code == 200

    # then: the next read has it (the cache is keyed by the action count)
    log = auth_client.get(f"/api/v1/games/{game.pk}/actions").json()
    assert [action["n"] for action in log] == [1, 2, 3, 4, 5]
