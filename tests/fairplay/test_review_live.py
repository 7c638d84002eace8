"""A held game leaves a live board and comes back when cleared, over real connections: the
production WebSocket servers (scripts/serve-ws.sh) on PostgreSQL and the Redis channel layer,
the game played through the API as a client would, `review_games` run as the scheduler runs it."""

import datetime as dt
import json
import time
import uuid

from fairplay import services
from fairplay.models import Review
from games.days import day_today
from games.models import Action, Game
from tests.conftest import requires_postgres, requires_redis
from tests.fairplay.test_review import review_games
from tests.leaderboard.test_live_servers import listen, register, servers  # noqa: F401


def next_of(ws, kind: str, deadline: float) -> dict:
    """The next message of that type (batches of the game's own actions may come first)."""
    while True:
        message = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if message["type"] == kind:
            return message


@requires_postgres
@requires_redis
def test_a_machine_speed_game_leaves_the_live_board_when_held_and_returns_when_cleared(
    servers,  # noqa: F811
    admin_user,
):
    a, b = servers
    today = day_today().isoformat()
    name = f"speedy-{uuid.uuid4().hex[:8]}"
    bot = register(a, name)
    game = bot.post("/games", json={"daily": True}).json()

    with listen(b, f"/ws/daily/{today}/3/") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        stock = game["stock"]["count"]
        for _ in range(70):  # draws, recycling when the stock is out
            kind = "draw" if stock else "recycle"
            acted = bot.post(f"/games/{game['id']}/actions", json={"type": kind})
            stock = acted.json()["game"]["stock"]["count"]
        assert bot.post(f"/games/{game['id']}/actions", json={"type": "resign"}).is_success
        # at machine speed: 10 ms apart, whatever this machine's load made of the requests
        played = Game.objects.get(pk=game["id"])
        for row in Action.objects.filter(game=played):
            row.at = played.created_at + dt.timedelta(seconds=row.n / 100)
            row.save(update_fields=["at"])

        review_games()
        removed = next_of(ws, "removed", time.monotonic() + 5)
        board = bot.get(f"/daily/{today}/leaderboard?draw=3").json()
        held = bot.get(f"/games/{game['id']}").json()["daily"]

        services.reviews_clear(reviews=Review.objects.filter(game_id=game["id"]), by=admin_user)
        back = next_of(ws, "entries", time.monotonic() + 5)

    assert removed == {"type": "removed", "player": name}
    assert (board["count"], board["results"]) == (0, [])
    assert held == {"date": today, "review": "held"}
    assert back["count"] == 1
    assert [(e["player"], e["rank"], e["status"]) for e in back["entries"]] == [
        (name, 1, "resigned")
    ]
