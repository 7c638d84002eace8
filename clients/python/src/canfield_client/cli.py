"""`canfield`: play Canfield Club from a terminal, and follow a daily board live.

    canfield login                 log in (or create an account) and remember the token
    canfield play                  play today's daily (draw 3; --draw 1, --code, --random, --game)
    canfield board [DATE]          follow a daily board live (--draw 3|1)
    canfield match                 play a rated match (--size 2|4, --draw 3|1)
    canfield analyse GAME          where a finished game's win was lost (R37)

The server and token come from --server/--token, else CANFIELD_SERVER/CANFIELD_TOKEN, else the
config file ($CANFIELD_CONFIG, default ~/.config/canfield/config.json) that `login` writes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import getpass
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast, get_args

import httpx
from rich.console import Console, RenderableType
from rich.live import Live
from rich.text import Text

from canfield_client import errors
from canfield_client._core import DEFAULT_SERVER, Call
from canfield_client.board import Standings
from canfield_client.client import AsyncClient, Client
from canfield_client.match import MatchView, settled
from canfield_client.models import (
    Acted,
    ActionType,
    Analysis,
    ConcretePile,
    Game,
    Language,
    Match,
    Move,
    Pile,
    Snapshot,
)
from canfield_client.table import board_table, game_table, match_result, match_table

HELP = """\
Commands (Enter after each):
  d              draw from the stock (recycle the waste when the stock is empty)
  recycle        turn the waste over into the stock
  PILE           tap: move that pile's top card where it fits (e.g. w, r, 3)
  PILE PILE [N]  move N cards (default 1) from one pile to another (e.g. w 2, 3 f, 1 4 3)
  u              undo          h  hint          l  legal moves      t  the table in words
  resign         give up       q  quit (the game waits for you)    ?  this help
  finish         every card left home at once, when none is hidden (R20b)
Piles: s stock, w waste, r reserve, 1-4 the columns, f the foundation of the card's suit,
       fh fs fd fc one foundation (as a source: a card back to the columns)."""

PILES = {
    "s": "stock",
    "w": "waste",
    "r": "reserve",
    "f": "foundation",
    **{str(n): f"tableau:{n}" for n in range(1, 5)},
    **{f"t{n}": f"tableau:{n}" for n in range(1, 5)},
    **{f"f{suit.lower()}": f"foundation:{suit}" for suit in "HSDC"},
}


ACTIONS: dict[str, ActionType] = {
    "recycle": "recycle",
    "u": "undo",
    "undo": "undo",
    "resign": "resign",
    "finish": "finish",
}


def config_path() -> Path:
    if "CANFIELD_CONFIG" in os.environ:
        return Path(os.environ["CANFIELD_CONFIG"])
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "canfield" / "config.json"


def load_config() -> dict[str, Any]:
    try:
        data = json.loads(config_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_config(data: dict[str, Any]) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)  # it holds a token
    path.write_text(json.dumps(data, indent=2) + "\n")


def parse_pile(word: str) -> Pile:
    """A pile as typed: a short name (`w`, `3`, `fh`) or the API's (`tableau:3`)."""
    word = word.lower()
    if word in PILES:
        word = PILES[word]
    elif re.fullmatch(r"foundation:[hsdc]", word):
        word = "foundation:" + word[-1].upper()
    if word in get_args(ConcretePile) or word == "foundation":
        return cast(Pile, word)
    raise ValueError(f"unknown pile {word!r}: type ? for the pile names")


def parse_source(word: str) -> ConcretePile:
    """A pile cards are taken from: any but plain `foundation` (which names no one pile)."""
    pile = parse_pile(word)
    if pile == "foundation":
        raise ValueError("take from one foundation: fh, fs, fd or fc")
    return pile


def parse_command(line: str, game: Game) -> Move | str:
    """A typed command: the Move to send, or the name of a command the terminal answers
    itself ("help", "hint", "legal", "text", "quit")."""
    words = line.split()
    if not words:
        return "help"
    word = words[0].lower()
    local = {"?": "help", "help": "help", "h": "hint", "hint": "hint", "l": "legal"}
    local |= {"legal": "legal", "t": "text", "text": "text", "q": "quit", "quit": "quit"}
    if word in local and len(words) == 1:
        return local[word]
    if word in {"d", "draw"} and len(words) == 1:
        return Move("draw" if game.stock_count or not game.waste_count else "recycle")
    if word in ACTIONS and len(words) == 1:
        return Move(ACTIONS[word])
    if len(words) == 1:
        return Move("tap", parse_source(word))
    if len(words) in (2, 3):
        count = 1
        if len(words) == 3:
            if not words[2].isdigit() or not 1 <= int(words[2]) <= 13:
                raise ValueError("the number of cards must be 1 to 13")
            count = int(words[2])
        return Move("move", parse_source(words[0]), parse_pile(words[1]), count)
    raise ValueError("too many words: type ? for help")


def describe(acted: Acted) -> str:
    action = acted.action
    cards = " ".join(action.cards or [])
    points = f" ({action.score_delta:+d})" if action.score_delta else ""
    if action.type == "move":
        text = f"{cards} from {action.from_pile} to {action.to}{points}"
        if action.auto_fill:
            text += f"; {action.auto_fill} from the reserve fills the column"
        return text
    if action.type == "draw":
        return f"drew {cards}"
    if action.type == "undo":
        return f"undid action {action.undoes}{points}"
    if action.type == "finish":
        return f"sent {cards} home{points}"
    return {"recycle": "turned the waste over", "resign": "resigned"}.get(action.type, action.type)


class Session:
    """What the commands share: the console, the resolved server and token."""

    def __init__(self, args: argparse.Namespace, console: Console) -> None:
        self.console = console
        self.config = load_config()
        self.server: str = (
            args.server
            or os.environ.get("CANFIELD_SERVER")
            or self.config.get("server")
            or DEFAULT_SERVER
        )
        saved = self.config.get("token") if self.config.get("server") == self.server else None
        self.token: str | None = (
            args.token or os.environ.get("CANFIELD_TOKEN") or (saved if saved else None)
        )
        self.language: str | None = args.lang or os.environ.get("CANFIELD_LANG")

    def client(self) -> Client:
        return Client(self.server, token=self.token, language=self.language)

    def login(self, client: Client, *, register: bool = False) -> None:
        """Prompt for a name and password; log in, or create the account if asked or if the
        name is not known with that password. Saves the token to the config file."""
        self.console.print(f"Log in to {self.server}")
        while True:
            username = self.console.input("username: ").strip()
            # (getpass hides the typing before it shows its prompt: Rich's input shows the
            # prompt first, and keys typed in between were echoed, then dropped)
            password = getpass.getpass("password: ")
            try:
                if register:
                    client.register(username, password)
                else:
                    client.login(username, password)
                break
            except errors.InvalidRequest as error:
                self.console.print(Text(error.message, style="red"))
                if not register:
                    answer = self.console.input(f"Create the account {username!r}? [y/N] ")
                    register = answer.strip().lower() in {"y", "yes"}
                    if register:
                        with contextlib.suppress(errors.InvalidRequest):
                            client.register(username, password)
                            break
                        register = False
        self.token = client.token
        save_config({"server": self.server, "token": self.token, "username": username})
        self.console.print(f"Logged in as {username} (token saved in {config_path()})")


def command_login(session: Session, args: argparse.Namespace) -> int:
    with session.client() as client:
        session.login(client, register=args.register)
    return 0


def _start(client: Client, args: argparse.Namespace) -> Game:
    if args.game:
        return client.game(args.game)
    if args.code:
        return client.new_game_from_code(args.code)
    if args.random:
        return client.new_game(draw=args.draw)
    return client.daily_game(draw=args.draw)


def command_play(session: Session, args: argparse.Namespace) -> int:
    console = session.console
    with session.client() as client:
        if client.token is None:
            session.login(client)
        try:
            game = _start(client, args)
        except errors.NotAuthenticated:  # a token the server no longer knows
            console.print(Text("The saved token was refused.", style="yellow"))
            session.login(client)
            game = _start(client, args)
        _play(console, client, game)
        return 0


def _play(
    console: Console,
    client: Client,
    game: Game,
    panel: Callable[[Game], RenderableType | None] = lambda game: None,
) -> Game | None:
    """Play `game` by typed commands until it is over (returns it) or the player quits (None).
    `panel`: what to show under the table after each command (a match's opponents)."""
    message = Text("Type ? for help.", style="dim")
    while True:
        console.clear()
        console.print(game_table(game))
        extra = panel(game)
        if extra is not None:
            console.print()
            console.print(extra)
        console.print()
        console.print(message)
        if game.over:
            return game
        try:
            line = console.input("> ")
        except (EOFError, KeyboardInterrupt):
            return None
        try:
            turn = _turn(client, game, line)
        except errors.Stale as stale:
            game = stale.game or client.game(game.id)
            message = Text("The game moved on elsewhere: here it is now.", style="yellow")
        except errors.CanfieldError as error:
            message = Text(str(error), style="red")
        except ValueError as error:
            message = Text(str(error), style="red")
        else:
            if turn is None:
                return None
            game, message = turn


def _turn(client: Client, game: Game, line: str) -> tuple[Game, Text] | None:
    """Run one typed command: the game after it and what to say; None to quit."""
    command = parse_command(line, game)
    if command == "quit":
        return None
    if command == "help":
        return game, Text(HELP)
    if command == "legal":
        legal = client.legal_actions(game)
        return game, Text("Legal now: " + ", ".join(str(move) for move in legal))
    if command == "text":
        asked = (client.language or "en")[:2]
        lang: Language = "hu" if asked == "hu" else "pl" if asked == "pl" else "en"
        return game, Text(client.text(game, lang=lang))
    if command == "hint":
        hint = client.hint(game)
        game = client.game(game.id)  # a hint counts in the game's `hints`
        if hint.action is not None:
            return game, Text(f"Hint: {hint.action}", style="cyan")
        if hint.winnable is False:
            return game, Text("No winning line from here: undo, or resign.", style="yellow")
        return game, Text("The solver could not decide in time.", style="yellow")
    assert isinstance(command, Move)
    acted = client.act(game, command)
    game = acted.game
    if game.status == "won":
        return game, Text(f"You won! {game.score} points in {game.moves} moves.", "bold green")
    return game, Text(describe(acted))


def command_board(session: Session, args: argparse.Namespace) -> int:
    try:
        asyncio.run(_follow_board(session, args))
    except KeyboardInterrupt:
        pass
    except errors.CanfieldError as error:
        session.console.print(Text(str(error), style="red"))
        return 1
    return 0


async def _follow_board(session: Session, args: argparse.Namespace) -> None:
    date = dt.date.fromisoformat(args.date) if args.date else None
    async with AsyncClient(session.server, language=session.language) as client:
        board = await client.board(date, draw=args.draw)
        standings = Standings(size=args.top)
        title = f"Daily {board.date.isoformat()} · draw {board.draw}"
        with Live(console=session.console, auto_refresh=False) as live:
            async with board:
                async for event in board:
                    standings.apply(event)
                    if standings.incomplete:  # an entry left the rows kept: read them again
                        page = await client.leaderboard(board.date, draw=board.draw)
                        standings.apply(Snapshot(page.count, page.results))
                    heading = f"{title} · {standings.count} players · live"
                    live.update(board_table(standings.top(), title=heading), refresh=True)


def _whoami(session: Session, client: Client) -> str:
    """The account's name: saved by `login`, else asked of the server."""
    saved = session.config
    same = saved.get("server") == session.server and saved.get("token") == session.token
    if same and saved.get("username"):
        return str(saved["username"])
    data = client._run(client._core.fetch(Call("GET", "account")))
    return str(data["username"])


def command_match(session: Session, args: argparse.Namespace) -> int:
    """Join a match, play its game here, then follow it live until it is finished and show
    the places and rating changes."""
    console = session.console
    with session.client() as client:
        if client.token is None:
            session.login(client)
        try:
            match = client.join_match(size=args.size, draw=args.draw)
        except errors.NotAuthenticated:
            console.print(Text("The saved token was refused.", style="yellow"))
            session.login(client)
            match = client.join_match(size=args.size, draw=args.draw)
        me = _whoami(session, client)
        assert match.game is not None
        game = client.game(match.game)
        if not game.over:

            def opponents(game: Game) -> RenderableType:
                return match_table(client.match(match.id), me=me)

            if _play(console, client, game, opponents) is None:
                console.print(f"The match waits for you: canfield match --size {args.size}")
                return 0
    try:
        final = asyncio.run(_follow_match(session, match, me))
    except KeyboardInterrupt:
        return 0
    if final is not None:
        console.print(match_result(final, me=me))
    return 0


async def _follow_match(session: Session, match: Match, me: str) -> Match | None:
    """The match live (the other players' figures as they change) until it is finished, then
    its result until it is rated (the fair-play review of its games, R35): Ctrl-C leaves."""
    async with AsyncClient(session.server, language=session.language) as client:
        view = MatchView(match)
        with Live(console=session.console, auto_refresh=False) as live:
            live.update(match_table(match, me=me, waiting=True), refresh=True)
            async with client.live_match(match) as stream:
                async for event in stream:
                    current = view.apply(event)
                    if current is None:
                        continue
                    if settled(current):
                        live.update(Text(""), refresh=True)
                        return current
                    if current.over:
                        live.update(match_result(current, me=me), refresh=True)
                    else:
                        live.update(match_table(current, me=me, waiting=True), refresh=True)
    return view.match


# One mark per position of an analysis: winnable, lost, undecided.
MARKS = {True: ("o", "green"), False: ("x", "red"), None: ("?", "yellow")}


def analysis_text(found: Analysis) -> Text:
    """An analysis in a few lines: the strip of positions (the deal first), where the win was
    lost and the line that would have won from there, and the moves against par."""
    text = Text("Positions (o winnable, x lost, ? undecided):\n")
    for verdict in found.winnable:
        mark, style = MARKS[verdict]
        text.append(mark, style=style)
    text.append("\n")
    if found.lost_at is not None:
        text.append(f"The win was lost at action {found.lost_at}.\n", style="bold")
    elif found.winnable and found.winnable[0] is False:
        text.append("The deal was never winnable.\n")
    elif found.winnable and all(found.winnable):
        text.append("Winnable throughout: the win was never lost.\n")
    else:
        text.append("Where the win was lost is undecided.\n")
    if found.line:
        where = "the deal" if not found.line_after else f"action {found.line_after}"
        moves = ", ".join(str(move) for move in found.line)
        text.append(f"A winning line from after {where} ({len(found.line)} actions): {moves}\n")
    text.append(f"Moves: {found.moves} ({found.kept_moves} in the line kept)")
    if found.par is not None:
        par = f"{'' if found.par_exact else '<= '}{found.par}"
        over = "" if found.over_par is None else f", {found.over_par:+d} against par"
        text.append(f"; par {par}{over}")
    return text


def command_analyse(session: Session, args: argparse.Namespace) -> int:
    """Show where a finished game's win was lost, waiting while the server computes it."""
    with session.client() as client:
        found = client.analysis(args.game, wait=args.wait)
    if not found.done:
        session.console.print(
            f"Still being computed ({found.progress:.0%} decided): ask again in a moment."
        )
        return 2
    session.console.print(analysis_text(found))
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="canfield", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    root.add_argument("--server", help="the server's URL (env CANFIELD_SERVER)")
    root.add_argument("--token", help="an API token (env CANFIELD_TOKEN)")
    root.add_argument("--lang", help="the server's messages in en, hu or pl (env CANFIELD_LANG)")
    commands = root.add_subparsers(dest="command", required=True)
    login = commands.add_parser("login", help="log in and remember the token")
    login.add_argument("--register", action="store_true", help="create a new account")
    login.set_defaults(run=command_login)
    play = commands.add_parser("play", help="play a game (today's daily by default)")
    play.add_argument("--draw", type=int, choices=(3, 1), default=3)
    which = play.add_mutually_exclusive_group()
    which.add_argument("--code", help="a deal code (CF1-/CF2-...): a practice game")
    which.add_argument("--random", action="store_true", help="a random practice deal")
    which.add_argument("--game", help="resume a game by its id")
    play.set_defaults(run=command_play)
    board = commands.add_parser("board", help="follow a daily board live (Ctrl-C to stop)")
    board.add_argument("date", nargs="?", help="YYYY-MM-DD (default: the server's today)")
    board.add_argument("--draw", type=int, choices=(3, 1), default=3)
    board.add_argument("--top", type=int, default=20, help="how many lines to show")
    board.set_defaults(run=command_board)
    match = commands.add_parser("match", help="play a rated match against players of your level")
    match.add_argument("--size", type=int, choices=(2, 4), default=2, help="2 (1 v 1) or 4 players")
    match.add_argument("--draw", type=int, choices=(3, 1), default=3)
    match.set_defaults(run=command_match)
    analyse = commands.add_parser("analyse", help="where a finished game's win was lost (R37)")
    analyse.add_argument("game", help="the game's id")
    analyse.add_argument(
        "--wait", type=float, default=60.0, help="seconds to wait while it is computed"
    )
    analyse.set_defaults(run=command_analyse)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    console = Console()
    session = Session(args, console)
    try:
        result: int = args.run(session, args)
    except errors.CanfieldError as error:
        console.print(Text(str(error), style="red"))
        return 1
    except (httpx.TransportError, OSError) as error:
        console.print(Text(f"cannot reach {session.server}: {error}", style="red"))
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
