import threading

from django.db import connection

from games.models import Action, Game
from tests.conftest import requires_postgres
from tests.games.helpers import easy_deck


@requires_postgres
def test_concurrent_same_action_applies_once(transactional_db, user, client_for):
    # given: a game one move in, and 20 clients that all saw moves == 1
    client = client_for(user)
    game_id = client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json").json()[
        "id"
    ]
    client.post(f"/api/v1/games/{game_id}/actions", {"type": "draw"}, format="json")
    barrier = threading.Barrier(20)
    statuses: list[tuple[int, str | None]] = []

    def player() -> None:
        try:
            own = client_for(user)
            barrier.wait()
            response = own.post(
                f"/api/v1/games/{game_id}/actions",
                {"type": "move", "from": "reserve", "to": "foundation", "expect": 1},
                format="json",
            )
            code = response.json().get("error", {}).get("code")
            statuses.append((response.status_code, code))
        finally:
            connection.close()

    # when
    run_threads(player, 20)

    # then
    assert sorted(statuses, key=str) == [(200, None)] + [(409, "stale")] * 19
    game = Game.objects.get(pk=game_id)
    assert game.moves == 2 and game.actions_count == 2
    assert list(Action.objects.filter(game_id=game_id).values_list("n", flat=True)) == [1, 2]


@requires_postgres
def test_concurrent_actions_without_expect_leave_no_gap(transactional_db, user, client_for):
    # given: 10 clients drawing at once without `expect`
    client = client_for(user)
    game_id = client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json").json()[
        "id"
    ]
    barrier = threading.Barrier(10)
    statuses: list[int] = []

    def player() -> None:
        try:
            own = client_for(user)
            barrier.wait()
            response = own.post(f"/api/v1/games/{game_id}/actions", {"type": "draw"}, "json")
            statuses.append(response.status_code)
        finally:
            connection.close()

    run_threads(player, 10)

    # then: every accepted draw is logged once, in order, and the state agrees
    accepted = statuses.count(200)
    assert set(statuses) <= {200, 409} and accepted >= 1
    game = Game.objects.get(pk=game_id)
    assert game.moves == accepted
    ns = list(Action.objects.filter(game_id=game_id).values_list("n", flat=True))
    assert ns == list(range(1, accepted + 1))
    assert game.state["moves"] == accepted


def run_threads(target, count: int) -> None:
    """Run `target` in `count` threads at once and wait for all of them."""
    threads = [threading.Thread(target=target) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
