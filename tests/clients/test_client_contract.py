"""The Python client follows the API (issue 24): a game's stream, a player's games page after
page, the account, the new game fields, jittered back-off, and types strict enough that
`mypy --strict` refuses a misspelt pile."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import canfield_client
from canfield_client import Client, GameDaily, GameEvent
from canfield_client._core import MAX_BACKOFF, backoff_delay

from tests.clients.play import foundation_first
from tests.web.helpers import PASSWORD, easy_deck, unique_name

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_refuses_misspelt_piles_and_takes_the_right_ones(tmp_path):
    (tmp_path / "wrong.py").write_text(
        "from canfield_client import Client, Game\n"
        "def play(client: Client, g: Game) -> None:\n"
        '    client.move(g, "tablaeu:1", "wsate")\n'
        '    client.new_game(draw=2, ruleset="vegas")\n'
    )
    (tmp_path / "right.py").write_text(
        "from canfield_client import Client, Game\n"
        "def play(client: Client, g: Game) -> None:\n"
        '    client.move(g, "tableau:1", "foundation")\n'
        '    client.tap(g, "waste")\n'
        '    client.new_game(draw=1, ruleset="classic")\n'
    )
    mypy = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache")]

    wrong = subprocess.run([*mypy, "wrong.py"], cwd=tmp_path, capture_output=True, text=True)
    right = subprocess.run([*mypy, "right.py"], cwd=tmp_path, capture_output=True, text=True)

    assert wrong.returncode == 1, wrong.stdout
    for bad in ("'tablaeu:1'", "'wsate'", '"draw"', "'vegas'"):
        assert bad in wrong.stdout, (bad, wrong.stdout)
    assert "Found 4 errors" in wrong.stdout
    assert right.returncode == 0, right.stdout


def test_back_off_grows_jittered_and_capped():
    delays = [[backoff_delay(0.5, attempt) for _ in range(200)] for attempt in range(8)]

    for attempt, seen in enumerate(delays):
        ceiling = min(MAX_BACKOFF, 0.5 * 2**attempt)
        assert all(ceiling / 2 <= d <= ceiling for d in seen), attempt
        assert len(set(seen)) > 150  # jittered: clients dropped together spread out
    assert max(delays[-1]) <= MAX_BACKOFF


def test_the_version_is_the_schemas(base_url):
    with Client(base_url) as client:
        schema = client._http.get("schema/", params={"format": "json"}).json()

    assert schema["info"]["version"] == canfield_client.__version__


def test_a_stream_follows_a_game_played_elsewhere_to_its_end(base_url):
    name = unique_name("strm")
    with Client(base_url) as player, Client(base_url) as watcher:
        player.register(name, PASSWORD)
        watcher.token = player.token
        game = player.new_game_from_deck(easy_deck(), draw=1)
        events: list[GameEvent] = []
        opened = threading.Event()

        def watch() -> None:
            for event in watcher.game_stream(game):
                events.append(event)
                opened.set()

        thread = threading.Thread(target=watch)
        thread.start()
        assert opened.wait(10)
        while not game.over:
            game = player.act(game, foundation_first(player.legal_actions(game))).game
        thread.join(20)

        assert not thread.is_alive()
        assert events[0].type == "game" and events[0].game.moves == 0
        assert [e.action.n for e in events[1:-1] if e.action] == list(range(1, game.moves + 1))
        assert events[-1].type == "end" and events[-1].game.status == "won"
        assert events[-1].game.practice and events[-1].game.match is None

        # the finished game in the player's public games, found through the page iterator
        player.new_game(draw=1)  # in progress: not public
        listed = list(watcher.iter_player_games(name.upper(), page_size=1))
        assert [g.id for g in listed] == [game.id]
        assert player.account().username == name


def test_a_daily_game_is_still_its_date_with_its_standing(base_url):
    with Client(base_url) as player:
        player.register(unique_name("dly"), PASSWORD)
        game = player.daily_game(draw=3)
        player.resign(game)
        over = player.game(game.id)

    assert isinstance(over.daily, GameDaily) and over.daily == player_today(base_url)
    assert over.daily.date == over.daily  # other tests' players share the server's day
    assert over.daily.players and 1 <= over.daily.rank <= over.daily.players
    assert over.daily.review is None and not over.practice


def player_today(base_url):
    with Client(base_url) as anonymous:
        return anonymous.daily().date
