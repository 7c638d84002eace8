"""R28: the text description; seed 000's example character for character."""

from pathlib import Path

import pytest

from games.engine import Action, Game, describe
from tests.engine.helpers import arrange, seed_deck

SEED_000 = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_23959d38ce496429.txt"
BEFORE = (
    "Húzópakli: 34 lap; dobópakli üres; tartalék: 13 lap, felül: treff dáma. Alapok, kezdő rang "
    "7: kőr a kőr 7-ig (1), pikk üres, káró üres, treff üres. 1. oszlop: treff 6; 2. oszlop: kőr "
    "király; 3. oszlop: kőr dáma; 4. oszlop: pikk ász."
)
AFTER = (
    "Húzópakli: 34 lap; dobópakli üres; tartalék: 10 lap, felül: pikk bubi. Alapok, kezdő rang "
    "7: kőr a kőr 8-ig (2), pikk üres, káró üres, treff üres. 1. oszlop: treff 6; 2. oszlop: pikk "
    "dáma; 3. oszlop: kőr dáma; 4. oszlop: pikk ász, kőr király, treff dáma."
)


def seed_game() -> Game:
    """Seed 000's layout ("Az oszlopok") as a custom deal."""
    return Game.new(seed_deck(["JS", "QS", "8H", "QC"], "7H", ["6C", "KH", "QH", "AS"]))


def play_seed_moves(game: Game) -> list[dict]:
    moves = [
        {"type": "move", "from": "reserve", "to": "tableau:2"},
        {"type": "move", "from": "reserve", "to": "foundation"},
        {"type": "move", "from": "tableau:2", "to": "tableau:4", "count": 2},
    ]
    return [game.apply(Action.from_dict(move)).as_dict() for move in moves]


def test_expected_texts_are_the_seeds_lines():
    if not SEED_000.exists():
        pytest.skip("../shared is not beside this checkout")
    lines = SEED_000.read_text(encoding="utf-8").splitlines()
    assert BEFORE in lines and AFTER in lines


def test_seed_000_text_before_and_after_its_three_moves():
    game = seed_game()
    assert describe(game, "hu") == BEFORE
    results = play_seed_moves(game)
    assert describe(game, "hu") == AFTER
    assert [r["score_delta"] for r in results] == [0, 5, 0]
    assert results[1]["to"] == "foundation:H"
    assert results[2]["cards"] == ["KH", "QC"] and results[2]["auto_fill"] == "QS"
    assert game.score == 5 and game.moves == 3


def test_seed_000_matches_the_api_example():
    view = seed_game().public_view()
    assert view["starting_rank"] == "7"
    assert view["stock"] == {"count": 34}
    assert view["waste"] == {"count": 0, "fan": []}
    assert view["reserve"] == {"count": 13, "top": "QC"}
    assert view["foundations"] == [
        {"suit": "H", "count": 1, "top": "7H"},
        {"suit": "S", "count": 0, "top": None},
        {"suit": "D", "count": 0, "top": None},
        {"suit": "C", "count": 0, "top": None},
    ]
    assert view["tableau"] == [["6C"], ["KH"], ["QH"], ["AS"]]
    assert (view["score"], view["moves"], view["undo_available"]) == (0, 0, 0)


def test_english_and_polish_follow_the_same_structure():
    game = seed_game()
    play_seed_moves(game)
    assert describe(game, "en") == (
        "Stock: 34 cards; waste empty; reserve: 10 cards, top: jack of spades. Foundations, "
        "starting rank 7: hearts up to 8 of hearts (2), spades empty, diamonds empty, clubs "
        "empty. Column 1: 6 of clubs; column 2: queen of spades; column 3: queen of hearts; "
        "column 4: ace of spades, king of hearts, queen of clubs."
    )
    assert describe(game, "pl") == (
        "Zapas: 34 karty; odrzuty puste; rezerwa: 10 kart, na wierzchu: walet pik. Bazy, ranga "
        "początkowa 7: kier do 8 kier (2), pik pusta, karo pusta, trefl pusta. Kolumna 1: 6 "
        "trefl; kolumna 2: dama pik; kolumna 3: dama kier; kolumna 4: as pik, król kier, "
        "dama trefl."
    )


def test_forms_the_seed_does_not_show():
    game = arrange(
        base="QD",
        found={"D": 3, "S": 1},
        tableau=[["5C"], [], ["4H"], []],
        waste=["9S", "2D"],
        rest="waste",
    )
    text = describe(game, "hu")
    assert text.startswith("Húzópakli üres; dobópakli: 46 lap, felül: káró 2; tartalék üres.")
    # a rank in words takes the suffix as Hungarian does (R28): ászig, dámáig
    assert (
        "Alapok, kezdő rang dáma: káró a káró ászig (3), kőr üres, pikk a pikk dámáig (1)" in text
    )
    assert text.endswith("2. oszlop: üres; 3. oszlop: kőr 4; 4. oszlop: üres.")
    assert describe(game, "en").startswith("Stock empty; waste: 46 cards, top: 2 of diamonds;")
    polish = describe(game, "pl")
    assert "kolumna 2: pusta" in polish
    # Polish names the card after "do" in the genitive, and counts with the right plural
    assert "karo do asa karo (3), kier pusta, pik do damy pik (1)" in polish
    assert "46 kart" in polish


def test_hungarian_and_polish_up_to_a_king_and_a_jack():
    game = arrange(base="JH", found={"H": 3, "S": 2}, tableau=[["5C"], [], [], []], rest="waste")
    assert "kőr a kőr királyig (3), pikk a pikk dámáig (2)" in describe(game, "hu")
    assert "kier do króla kier (3), pik do damy pik (2)" in describe(game, "pl")
    game = arrange(base="10H", found={"H": 2}, tableau=[["5C"], [], [], []], rest="waste")
    assert "kőr a kőr bubiig (2)" in describe(game, "hu")
    assert "kier do waleta kier (2)" in describe(game, "pl")


def test_unknown_language_is_an_error():
    with pytest.raises(ValueError, match="hu, en, pl"):
        describe(seed_game(), "de")
