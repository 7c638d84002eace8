"""What `canfield play` makes of a typed line (the terminal test types a whole game; these are
the forms it does not need)."""

from __future__ import annotations

import pytest
from canfield_client import Game, Move
from canfield_client.cli import parse_command


def game(stock: int, waste: int) -> Game:
    return Game.from_json({
        "id": "g", "ruleset": "app", "draw": 3, "status": "playing", "score": 0, "moves": 0,
        "stock": {"count": stock}, "waste": {"count": waste, "fan": []},
        "reserve": {"count": 13, "top": "QC"}, "foundations": [], "tableau": [[], [], [], []],
    })  # fmt: skip


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("w", Move("tap", "waste")),
        ("3", Move("tap", "tableau:3")),
        ("tableau:2 Foundation", Move("move", "tableau:2", "foundation", 1)),
        ("1 4 3", Move("move", "tableau:1", "tableau:4", 3)),
        ("fh 2", Move("move", "foundation:H", "tableau:2", 1)),
        ("U", Move("undo")),
        ("resign", Move("resign")),
        ("finish", Move("finish")),
        ("h", "hint"),
        ("", "help"),
    ],
)
def test_typed_commands(line, expected):
    assert parse_command(line, game(stock=10, waste=3)) == expected


def test_d_draws_or_turns_the_waste_over():
    assert parse_command("d", game(stock=10, waste=3)) == Move("draw")
    assert parse_command("d", game(stock=0, waste=3)) == Move("recycle")


@pytest.mark.parametrize("line", ["x", "w 9", "1 2 0", "1 2 14", "1 2 3 4", "tableau:5"])
def test_what_it_cannot_read_is_explained(line):
    with pytest.raises(ValueError, match="pile|number|too many"):
        parse_command(line, game(stock=10, waste=3))
