"""Drawing a game and a board with Rich."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from canfield_client.models import Card, Entry, Game, Match, Seat

SUITS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
RED = {"H", "D"}


def card(name: Card | None, *, placeholder: str = "··") -> Text:
    """A card as people read it: "10♥" in red, "Q♠" in the terminal's colour."""
    if name is None:
        return Text(placeholder, style="dim")
    rank, suit = name[:-1], name[-1]
    style = "bold red" if suit in RED else "bold"
    return Text(f"{rank}{SUITS.get(suit, suit)}", style=style)


def _cards(names: list[Card]) -> Text:
    return Text(" ").join(card(name) for name in names) if names else card(None)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def game_title(game: Game) -> str:
    if game.daily:
        kind = f"Daily {game.daily.isoformat()}"
    elif game.match:
        kind = "Match game"
    elif game.practice:  # a deal the player chose: never counts
        kind = f"Practice game {game.code or '(custom deck)'}"
    else:  # a random deal counts in the player's figures; its code shows once it is over
        kind = f"Random game {game.code}" if game.code else "Random game"
    return f"{kind} · draw {game.draw} · {game.ruleset} rules · starting rank {game.starting_rank}"


def game_status(game: Game) -> Text:
    status = {"playing": "", "won": "  WON", "resigned": "  resigned"}[game.status]
    return Text.assemble(
        f"score {game.score}   moves {game.moves}   time {_clock(game.seconds)}   ",
        f"undo {game.undo_available}   hints {game.hints}",
        (status, "bold green" if game.status == "won" else "bold yellow"),
    )


def game_table(game: Game) -> RenderableType:
    """The table: stock, waste, reserve and foundations on top, the four columns below. Each
    pile is headed by the name a command uses (s, w, r, f♥.., 1..4)."""
    top = Table(box=None, padding=(0, 2), show_edge=False)
    top.add_column(Text("stock [s]"), justify="center")
    top.add_column(Text("waste [w]"), justify="left", min_width=12)
    top.add_column(Text("reserve [r]"), justify="center")
    for foundation in game.foundations:
        name = f"{SUITS[foundation.suit]} [f{foundation.suit.lower()}]"
        top.add_column(Text(name), justify="center")
    top.add_row(
        Text(f"[{game.stock_count}]" if game.stock_count else "empty", style="cyan"),
        _cards(game.waste_fan),
        Text.assemble(card(game.reserve_top, placeholder="empty"), f" ({game.reserve_count})"),
        *(
            Text.assemble(card(f.top, placeholder="  "), (f" {f.count}/13", "dim"))
            for f in game.foundations
        ),
    )
    columns = Table(box=None, padding=(0, 3), show_edge=False)
    for number in range(1, len(game.tableau) + 1):
        columns.add_column(Text(f"[{number}]"), justify="left", min_width=4)
    depth = max((len(column) for column in game.tableau), default=0)
    for row in range(max(depth, 1)):
        columns.add_row(
            *(card(column[row]) if row < len(column) else Text("") for column in game.tableau)
        )
    return Group(
        Text(game_title(game), style="bold"), game_status(game), Text(), top, Text(), columns
    )


def board_table(entries: list[Entry], *, title: str) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("moves", justify="right")
    table.add_column("time", justify="right")
    table.add_column("status")
    for position, entry in enumerate(entries, start=1):
        status_style = {"won": "green", "resigned": "yellow"}.get(entry.status, "")
        table.add_row(
            str(position),
            entry.player,
            str(entry.score),
            str(entry.moves),
            _clock(entry.seconds),
            Text(entry.status, style=status_style),
        )
    return table


def _mode(match: Match) -> str:
    return f"{'1 v 1' if match.size == 2 else 'table of 4'} · draw {match.draw}"


def cards_home(seat: Seat) -> int:
    """R22 scores each card the first time it reaches a foundation (+5), the base card never."""
    return seat.score // 5 + 1


def seat_line(seat: Seat) -> str:
    """ "anna: 23 cards home, 140 moves, 3:20 (won)" """
    status = "" if seat.status == "playing" else f" ({seat.end_reason or seat.status})"
    cards, moves = cards_home(seat), seat.moves
    return (
        f"{seat.player}: {cards} card{'s' * (cards != 1)} home, {moves} move{'s' * (moves != 1)}, "
        f"{_clock(seat.seconds)}{status}"
    )


def match_table(match: Match, *, me: str, waiting: bool = False) -> RenderableType:
    """The other players of a match, their figures as they are now."""
    lines: list[RenderableType] = [
        Text(f"Match · {_mode(match)} · {len(match.players)}/{match.size} seats", style="bold")
    ]
    others = [seat for seat in match.players if seat.player != me]
    for seat in others:
        lines.append(Text("  " + seat_line(seat)))
    if not others:
        lines.append(Text("  nobody else has sat down yet", style="dim"))
    if waiting:
        lines.append(Text("Waiting for the others to finish… (Ctrl-C to leave)", style="dim"))
    return Group(*lines)


def _change(seat: Seat) -> Text:
    change = seat.rating_change
    if change is None:
        return Text("")
    style = "green" if change > 0 else "red" if change < 0 else ""
    return Text(f"{change:+.0f}", style=style)


def match_result(match: Match, *, me: str) -> RenderableType:
    """The end screen: places, figures and rating changes."""
    if match.cancelled:
        return Text("The match was cancelled: nobody else played it. Ratings did not change.")
    table = Table(title=f"Match over · {_mode(match)}", title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("moves", justify="right")
    table.add_column("time", justify="right")
    table.add_column("rating", justify="right")
    table.add_column("change", justify="right")
    for seat in sorted(match.players, key=lambda seat: seat.place or 99):
        rating = "" if seat.rating_after is None else f"{seat.rating_after:.0f}"
        table.add_row(
            "aborted" if seat.aborted else str(seat.place or ""),
            Text(seat.player, style="bold" if seat.player == me else ""),
            str(seat.score),
            str(seat.moves),
            _clock(seat.seconds),
            rating,
            _change(seat),
        )
    parts: list[RenderableType] = [table]
    if not match.rated:
        parts.append(Text("Ratings change once the fair-play review of the match's games is done."))
    if match.code:
        parts.append(Text(f"The deal: {match.code}"))
    return Group(*parts)
