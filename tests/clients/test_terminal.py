"""The `canfield` command in a real terminal (tmux) against a real server: log in by its
prompts, play a whole daily by typed commands, follow the board live in a second window."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from canfield_client import Client, Move
from rich.console import Console
from rich.text import Text

from tests.clients.play import foundation_first
from tests.web.conftest import SCREENSHOTS
from tests.web.helpers import PASSWORD, easy_deck, unique_name

TMUX = shutil.which("tmux")
CANFIELD = Path(sys.executable).with_name("canfield")
WIDTH, HEIGHT = 100, 32

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


class Terminal:
    """A tmux server of the test's own, one window per command."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        self.socket = socket
        self.env = env

    def tmux(self, *args: str, check: bool = True) -> str:
        command = [str(TMUX), "-S", str(self.socket), *args]
        return subprocess.run(command, check=check, capture_output=True, text=True).stdout

    def start(self) -> None:
        """The session, with a window that keeps it open while commands come and go."""
        size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
        self.tmux("new-session", "-d", "-s", "t", "-n", "idle", *size, "cat")

    def open(self, window: str, command: str) -> None:
        """Run `command` in a new window; its screen stays for a minute after it exits."""
        environment = [arg for key, value in self.env.items() for arg in ("-e", f"{key}={value}")]
        self.tmux("new-window", "-d", "-n", window, *environment, f"{command}; sleep 60")

    def type(self, window: str, line: str) -> None:
        self.tmux("send-keys", "-t", f"t:{window}", "-l", line)
        self.tmux("send-keys", "-t", f"t:{window}", "Enter")

    def screen(self, window: str, *, ansi: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if ansi else []), "-t", f"t:{window}")

    def wait_for(self, window: str, seen: Callable[[str], bool], timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(window)
            if seen(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the {window} window never showed it:\n{screen}")
            time.sleep(0.05)


@pytest.fixture
def terminal(tmp_path, base_url) -> Iterator[Terminal]:
    env = {
        "CANFIELD_SERVER": base_url,
        "CANFIELD_CONFIG": str(tmp_path / "config.json"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "COLUMNS": str(WIDTH),  # Rich prefers these to the terminal's size: the run's may leak
        "LINES": str(HEIGHT),
    }
    term = Terminal(tmp_path / "tmux.sock", env)
    term.start()
    yield term
    term.tmux("kill-server", check=False)


def command_for(move: Move) -> str:
    """What a person types for `move` (see `canfield play`'s help)."""
    short = {"waste": "w", "reserve": "r", "stock": "s"}

    def pile(name: str | None) -> str:
        assert name is not None
        if name.startswith("foundation"):
            return "f"
        return short.get(name, name.removeprefix("tableau:"))

    if move.type == "draw":
        return "d"
    if move.type == "move":
        count = f" {move.count}" if move.count and move.count > 1 else ""
        return f"{pile(move.from_pile)} {pile(move.to)}{count}"
    return move.type


def make_the_daily_winnable(run_on_server, game_id: str) -> None:
    """Today's deal is a solver-proved but long win; the test deals the player's daily game
    again from a deck it wins by playing to the foundations (tests.web.helpers.easy_deck)."""
    run_on_server(
        "from games.engine import Game as Engine\n"
        "from games.models import Game\n"
        f"game = Game.objects.get(pk={game_id!r})\n"
        f"game.deck = {easy_deck()!r}\n"
        "game.state = Engine.new(game.deck, ruleset=game.ruleset, draw=game.draw).to_dict()\n"
        "game.save(update_fields=['deck', 'state'])\n"
    )


def test_canfield_play_wins_a_daily_while_canfield_board_follows_it(
    terminal, tmp_path, base_url, run_on_server, browser
):
    name = unique_name("term")
    terminal.open("login", f"{CANFIELD} login")
    terminal.wait_for("login", lambda s: "username:" in s)
    terminal.type("login", name)
    terminal.wait_for("login", lambda s: "password:" in s)
    terminal.type("login", PASSWORD)
    terminal.wait_for("login", lambda s: "Create the account" in s)  # a new name
    terminal.type("login", "y")
    terminal.wait_for("login", lambda s: f"Logged in as {name}" in s)
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["server"] == base_url and config["username"] == name
    assert (tmp_path / "config.json").stat().st_mode & 0o777 == 0o600

    with Client(base_url, token=config["token"]) as api:
        game = api.daily_game(draw=3)
        make_the_daily_winnable(run_on_server, game.id)
        terminal.open("board", f"{CANFIELD} board --draw 3")
        terminal.wait_for("board", lambda s: "live" in s)
        terminal.open("play", f"{CANFIELD} play")  # the daily, draw 3: the default
        terminal.wait_for("play", lambda s: "moves 0" in s and "Daily" in s)
        terminal.type("play", "h")  # no hints in a ranked daily game while its day lasts
        terminal.wait_for("play", lambda s: "forbidden" in s and "R30" in s)
        terminal.type("play", "r 1")  # the reserve's 10C cannot go on the ace in column 1
        terminal.wait_for("play", lambda s: "illegal_move" in s and "moves 0 " in s)
        terminal.type("play", "?")
        terminal.wait_for("play", lambda s: "Commands" in s)
        moves = 0
        while True:
            move = foundation_first(api.legal_actions(game.id))
            terminal.type("play", command_for(move))
            moves += 1
            screen = terminal.wait_for("play", lambda s, n=moves: drawn(s) and f"moves {n} " in s)
            if moves == 12:
                render_screenshot(terminal.screen("play", ansi=True), browser)
            if "You won!" in screen:
                break
            assert moves < 200, screen
        game = api.game(game.id)
    assert (game.status, game.moves, game.score) == ("won", moves, 255)
    assert game.daily is not None
    board = terminal.wait_for("board", lambda s: "won" in row_of(name, s))
    assert "255" in row_of(name, board)


def drawn(screen: str) -> bool:
    """`canfield play` has drawn its whole screen: the game, the last command's message, then
    the prompt, or the message that the game is over (which ends the command). Its table, the
    message and the prompt are separate writes: a screen read between the first and the
    others shows the new move count without "You won!", and a loop that took that for a game
    still going asked for the legal actions of a won game (none)."""
    lines = screen.rstrip().splitlines()
    return bool(lines) and (lines[-1] == ">" or "You won!" in lines[-1])


def row_of(name: str, screen: str) -> str:
    """The board's line of player `name` ("" before it shows): other tests' players on the
    same daily may have won, so "won" elsewhere on the screen says nothing of this one."""
    return next((line for line in screen.splitlines() if name in line), "")


def render_screenshot(screen: str, browser) -> Path:
    """The terminal's screen (with its colours) as an SVG by Rich, then a PNG by Chromium."""
    console = Console(record=True, width=WIDTH, file=io.StringIO(), force_terminal=True)
    console.print(Text.from_ansi(screen.rstrip("\n")))
    svg = console.export_svg(title="canfield play")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / "terminal-play.png"
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.set_content(f"<body style='margin:0'>{svg}</body>")
        page.locator("svg").screenshot(path=str(path))
    finally:
        page.close()
    assert path.stat().st_size > 10_000
    return path


def test_canfield_play_asks_to_log_in_again_when_the_token_is_refused(terminal, base_url):
    name = unique_name("again")
    with Client(base_url) as api:
        api.register(name, PASSWORD)
    terminal.env["CANFIELD_TOKEN"] = "0" * 40
    terminal.open("play", f"{CANFIELD} play --random --draw 1")
    terminal.wait_for("play", lambda s: "token was refused" in s and "username:" in s)
    terminal.type("play", name)
    terminal.wait_for("play", lambda s: "password:" in s)
    terminal.type("play", PASSWORD)
    terminal.wait_for("play", lambda s: "Practice game" in s and "moves 0 " in s)
    terminal.type("play", "d")
    terminal.wait_for("play", lambda s: "moves 1 " in s and "drew" in s)
    terminal.type("play", "q")
    terminal.wait_for("play", lambda s: "> q" in s and "moves 1 " in s)
    with Client(base_url) as api:
        api.login(name, PASSWORD)
        [game] = api.games().results
    assert (game.moves, game.status, game.draw, game.daily) == (1, "playing", 1, None)
