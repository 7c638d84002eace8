"""Cards, deal codes, the portable shuffle and custom deals (RULES R1-R5)."""

import hashlib
import json
from pathlib import Path

import pytest

from games.engine import Action, DealCode, Game, InvalidCode, InvalidDeck, shuffled_deck
from games.engine.cards import NAMES, fits_on, is_red, parse_card
from games.engine.deal import _below, sha256_words

# Copies of ../shared/deal_vectors*.json, so the suite runs from a bare checkout too.
HERE = Path(__file__).parent
SHARED = Path(__file__).resolve().parents[3] / "shared"
VECTOR_FILES = ("deal_vectors.json", "deal_vectors_cf2.json")


def vectors(name: str = "deal_vectors.json") -> list[dict]:
    return json.loads((HERE / name).read_text())["vectors"]


def check_vector(vector: dict, version: int) -> None:
    code = DealCode.parse(vector["code"])
    assert (code.number, code.draw, code.version) == (
        int(vector["deal_number"]),
        vector["draw"],
        version,
    )
    assert str(code) == vector["code"]
    assert shuffled_deck(code.number, version) == vector["shuffled_deck"]
    game = Game.deal(code.number, draw=code.draw, version=version)
    view = game.public_view()
    assert view["reserve"] == {"count": 13, "top": vector["reserve_top"]}
    assert [NAMES[c] for c in game.reserve] == vector["reserve_bottom_to_top"]
    assert [f["suit"] for f in view["foundations"]] == vector["foundation_suits"]
    assert view["foundations"][0]["top"] == vector["base_card"]
    assert view["tableau"] == vector["tableau"]
    assert [NAMES[c] for c in reversed(game.stock)] == vector["stock_top_first"]
    assert view["draw"] == vector["draw"]


def test_r1_r2_ordered_deck_and_colours():
    assert NAMES[0] == "AH" and NAMES[12] == "KH" and NAMES[13] == "AS" and NAMES[51] == "KC"
    assert [is_red(parse_card(c)) for c in ("AH", "AS", "AD", "AC")] == [True, False, True, False]
    assert parse_card("10d") == parse_card("10D")


def test_r12_wraps_king_onto_ace_of_the_other_colour():
    assert fits_on(parse_card("KH"), parse_card("AS"))
    assert not fits_on(parse_card("KH"), parse_card("AD"))
    assert fits_on(parse_card("AH"), parse_card("2C"))
    assert not fits_on(parse_card("AH"), parse_card("KC"))


@pytest.mark.parametrize("vector", vectors(), ids=lambda v: v["code"])
def test_r4_r5_deal_vectors_reproduced_exactly(vector):
    check_vector(vector, 1)


@pytest.mark.parametrize("vector", vectors("deal_vectors_cf2.json"), ids=lambda v: v["code"])
def test_r4a_cf2_deal_vectors_reproduced_exactly(vector):
    check_vector(vector, 2)


def test_r4a_cf2_vectors_cover_both_draws_and_the_whole_range():
    cases = vectors("deal_vectors_cf2.json")
    numbers = {int(v["deal_number"]) for v in cases}
    assert {v["draw"] for v in cases} == {1, 3}
    assert {0, 2**128 - 1, 2**127} <= numbers


def test_r4a_word_stream_and_rejected_words_are_used_up():
    # Block i = SHA-256(N as 16 bytes, i as 8 bytes), four big-endian words each.
    blocks = [hashlib.sha256(bytes(16) + i.to_bytes(8, "big")).digest() for i in range(2)]
    expected = [int.from_bytes(b[k : k + 8], "big") for b in blocks for k in range(0, 32, 8)]
    stream = sha256_words(0)
    assert [next(stream) for _ in range(8)] == expected
    # A word at or above 2^64 - (2^64 mod n) is rejected and the next word is used (R4 step 3):
    # such words are too rare (~2^-58) for any vector to show one.
    words = iter([2**64 - 1, 2**64 - (2**64 % 52), 107])
    assert _below(words.__next__, 52) == 107 % 52
    assert next(words, None) is None


@pytest.mark.parametrize("name", VECTOR_FILES)
@pytest.mark.skipif(not SHARED.exists(), reason="../shared is not beside this checkout")
def test_vectors_copy_matches_shared_file(name):
    assert json.loads((HERE / name).read_text()) == json.loads((SHARED / name).read_text())


def test_vectors_cover_both_draw_modes_and_large_numbers():
    cases = vectors()
    assert {v["draw"] for v in cases} == {1, 3}
    assert max(v["deal_number"] for v in cases) > 2**32


def test_r3_same_number_same_cards_in_both_draw_modes():
    one, three = Game.deal(12345, draw=1), Game.deal(12345, draw=3)
    assert one.to_dict()["state"] == three.to_dict()["state"]


@pytest.mark.parametrize(
    ("text", "number", "draw"),
    [
        ("CF1-D3-AAAAAAA", 0, 3),
        ("cf1-d1-aaaaacl", 75, 1),
        ("CF1-D3-77777777"[:14], 2**35 - 1, 3),
        ("Cf1-D3-AAAAABA", 32, 3),
    ],
)
def test_r3_parse_and_format(text, number, draw):
    code = DealCode.parse(text)
    assert (code.number, code.draw, code.version) == (number, draw, 1)
    assert str(code) == text.upper()
    assert DealCode.parse(str(code)) == code


@pytest.mark.parametrize(
    "text",
    [
        "",
        "CF1-D2-AAAAAAA",  # no 2-card draw
        "CF3-D3-AAAAAAA",
        "CF1-D3-AAAAAA",  # 6 characters
        "CF1-D3-AAAAAAAA",  # 8
        "CF1-D3-AAAAAA1",  # 1 is not base-32
        "CF1-D3-AAAAAA8",
        " CF1-D3-AAAAAAA",
        "CF1-D3-AAAAAAA\n",
        "CF1D3AAAAAAA",
        "x" * 500,
        None,
        75,
        ["CF1-D3-AAAAAAA"],
    ],
)
def test_r3_bad_codes_are_clear_errors(text):
    with pytest.raises(InvalidCode) as err:
        DealCode.parse(text)
    assert err.value.code == "invalid_code"
    assert err.value.rule == "R3"
    assert "CF1-D3-AAAAACL" in err.value.message
    assert len(err.value.message) < 300


@pytest.mark.parametrize(
    ("text", "number", "draw"),
    [
        ("CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAAAA", 0, 3),
        ("cf2-d1-aaaaaaaaaaaaaaaaaaaaaaaaab", 1, 1),
        ("CF2-D3-H7777777777777777777777777", 2**128 - 1, 3),
        ("cF2-D3-EAAAAAAAAAAAAAAAAAAAAAAAAA", 2**127, 3),
    ],
)
def test_r4a_parse_and_format(text, number, draw):
    code = DealCode.parse(text)
    assert (code.number, code.draw, code.version) == (number, draw, 2)
    assert str(code) == text.upper()
    assert DealCode.parse(str(code)) == code


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("CF2-D3-IAAAAAAAAAAAAAAAAAAAAAAAAA", "starts with A-H"),  # 2^128 itself
        ("CF2-D3-77777777777777777777777777", "starts with A-H"),
        ("cf2-d1-zaaaaaaaaaaaaaaaaaaaaaaaaa", "starts with A-H"),
        ("CF2-D3-AAAAAAA", "26 characters after CF2-D3-, not 7"),
        ("CF2-D1-AAAAAAAAAAAAAAAAAAAAAAAAAAA", "26 characters after CF2-D1-, not 27"),
        ("CF2-D3-", "not 0"),
        ("CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAA1A", "'1' not in the code alphabet"),
        ("CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAA8=", "'8', '=' not in the code alphabet"),
        ("CF2-D3-AAAAAAAAAAAAAAAAAAAAAAAAA ", "' ' not in the code alphabet"),
    ],
)
def test_r4a_bad_cf2_codes_say_what_is_wrong(text, words):
    with pytest.raises(InvalidCode) as err:
        DealCode.parse(text)
    assert err.value.code == "invalid_code"
    assert err.value.rule == "R4a"
    assert words in err.value.message
    assert "CF2-D3-ABENCWPCNLZXXQCI2FM6E2XTPP" in err.value.message


@pytest.mark.parametrize(("number", "version"), [(2**128, 2), (-1, 2), (2**35, 1), (0, 3)])
def test_r4a_out_of_range_numbers_and_formats(number, version):
    with pytest.raises(InvalidCode):
        DealCode(number, 3, version)
    with pytest.raises(InvalidCode):
        Game.deal(number, version=version)


def test_r4a_same_number_deals_differently_in_cf1_and_cf2():
    assert shuffled_deck(5, 1) != shuffled_deck(5, 2)
    assert sorted(shuffled_deck(2**100, 2)) == sorted(NAMES)


@pytest.mark.parametrize(("number", "draw"), [(-1, 3), (2**35, 3), (0, 2)])
def test_r3_out_of_range_numbers(number, draw):
    with pytest.raises(InvalidCode):
        DealCode(number, draw)
    if draw == 3:
        with pytest.raises(InvalidCode):
            Game.deal(number, draw=draw)


def test_custom_deal_follows_r5():
    deck = shuffled_deck(99)[::-1]
    game = Game.new(deck)
    view = game.public_view()
    assert view["reserve"] == {"count": 13, "top": deck[12]}
    assert view["foundations"][0] == {"suit": deck[13][-1], "count": 1, "top": deck[13]}
    assert view["tableau"] == [[c] for c in deck[14:18]]
    assert view["stock"] == {"count": 34}
    assert game.apply(Action("draw")).cards == deck[18:21]


def test_custom_deal_accepts_lowercase_names():
    deck = [name.lower() for name in shuffled_deck(5)]
    assert Game.new(deck).public_view() == Game.deal(5).public_view()


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (NAMES[:51], "52 cards"),
        ([*NAMES, "AH"], "52 cards"),
        ([*NAMES[:51], "AH"], "repeated: AH"),
        ([*NAMES[:51], "1H"], "deck[51] is not a card"),
        ([*NAMES[:51], None], "deck[51] is not a card"),
        ([*NAMES[:51], 7], "deck[51] is not a card"),
        ("".join(NAMES), "52 cards"),
        (None, "52 cards"),
    ],
)
def test_custom_deal_bad_lists_are_clear_errors(deck, words):
    with pytest.raises(InvalidDeck) as err:
        Game.new(deck)
    assert err.value.code == "invalid_deck"
    assert words in err.value.message
