"""Hypothesis properties over random legal play on random deals, all rule sets, both draws."""

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import RULESETS, Action, EngineError, Game
from games.engine.actions import PILE_NAMES
from games.engine.cards import NAMES
from tests.engine.helpers import all_cards, core

settings.register_profile("engine", max_examples=150, deadline=None)
settings.load_profile("engine")

GAMES = st.tuples(
    st.integers(0, 2**35 - 1),
    st.sampled_from([(name, draw) for name, rules in RULESETS.items() for draw in rules.draws]),
)
CHOICES = st.lists(st.integers(0, 2**16), min_size=40, max_size=200)


def new_game(spec: tuple[int, tuple[str, int]]) -> Game:
    number, (ruleset, draw) = spec
    return Game.deal(number, ruleset=ruleset, draw=draw)


def pick(game: Game, choice: int) -> dict:
    """A legal action, mostly a greedy one so play reaches deep positions (empty reserve,
    empty columns, wins); sometimes any legal action, an undo or a tap (may be rejected)."""
    legal = game.legal_actions()
    if choice % 7 == 0:
        sources = ["waste", "reserve", "tableau:1", "tableau:2", "tableau:3", "tableau:4"]
        return {"type": "tap", "from": sources[choice // 7 % 6], "columns": choice % 2 == 0}
    if choice % 11 == 1 and {"type": "undo"} in legal:
        return {"type": "undo"}
    if choice % 5:
        for wanted in (_up, _from_reserve, _empties_a_column, _from_waste, _stock):
            good = [a for a in legal if wanted(game, a)]
            if good:
                return good[choice // 5 % len(good)]
    return legal[choice % len(legal)]


def _up(game: Game, a: dict) -> bool:
    return a["type"] == "move" and a["to"].startswith("foundation")


def _from_reserve(game: Game, a: dict) -> bool:
    return a["type"] == "move" and a["from"] == "reserve"


def _empties_a_column(game: Game, a: dict) -> bool:
    if a["type"] != "move" or not (
        a["from"].startswith("tableau") and a["to"].startswith("tableau")
    ):
        return False
    source, target = (game.tableau[int(a[k][-1]) - 1] for k in ("from", "to"))
    return a["count"] == len(source) and bool(target)


def _from_waste(game: Game, a: dict) -> bool:
    return a["type"] == "move" and a["from"] == "waste"


def _stock(game: Game, a: dict) -> bool:
    return a["type"] in ("draw", "recycle")


def reload(game: Game) -> Game:
    return Game.from_dict(json.loads(json.dumps(game.to_dict())))


def as_action(logged: dict) -> dict:
    """The log entry replayed as an action (a tap is logged as the move it became)."""
    if logged["type"] == "move":
        return {
            "type": "move",
            "from": logged["from"],
            "to": logged["to"],
            "count": logged["count"],
        }
    return {"type": logged["type"]}


@given(GAMES, CHOICES)
def test_random_play_keeps_every_invariant(spec, choices):
    game = new_game(spec)
    base = game.base
    placed: list[frozenset[int]] = [frozenset()]  # cards ever placed, per undo step (R22/R24)
    log: list[dict] = []
    for choice in choices:
        if game.is_over:
            break
        before, before_dict = core(game), game.to_dict()
        action = pick(game, choice)
        try:
            result = game.apply(Action.from_dict(action)).as_dict()
        except EngineError as err:
            refused: EngineError | None = err
        else:
            refused = None
        if refused is not None:
            assert action["type"] == "tap" and refused.rule == "R27"  # legal actions never fail
            assert core(game) == before and game.to_dict() == before_dict
            continue
        log.append(result)
        if result["type"] == "undo":
            placed.pop()
        elif result["type"] != "resign":
            home = result["type"] == "finish" or (result["to"] or "").startswith("foundation")
            up = result["cards"] if home else []
            placed.append(placed[-1] | {NAMES.index(c) for c in up + result["auto_finish"]})
            if action["type"] == "tap":
                concrete = {k: result[k] for k in ("from", "to", "count")}
                assert {"type": "move", **concrete} in Game.from_dict(before_dict).legal_actions()
            # undo restores the exact previous state, score and scored cards included
            if not game.is_over:
                copy = reload(game)
                copy.apply(Action("undo"))
                assert core(copy) == before
        cards = all_cards(game)
        assert len(cards) == 52 and set(cards) == set(range(52))
        assert game.score >= 0
        assert game.score == 5 * len(placed[-1] - {base})
        # R25: a finish counts as the moves it makes, one per card it sends home (R20b)
        assert game.moves == sum(
            len(r["cards"]) if r["type"] == "finish" else 1 for r in log if r["type"] != "resign"
        )
        again = reload(game)
        assert again.to_dict() == game.to_dict() and again.public_view() == game.public_view()
        assert again.legal_actions() == game.legal_actions()
    replay = new_game(spec)
    for logged in log:
        replay.apply(Action.from_dict(as_action(logged)))
    assert replay.to_dict() == game.to_dict()


CANDIDATE_SOURCES = [name for name in PILE_NAMES if name != "foundation"]


def accepted_moves(game: Game) -> set[tuple[str, str, int]]:
    """Every (from, to, count) that `apply` accepts, tried one by one on copies."""
    stored = game.to_dict()
    accepted = set()
    for src in CANDIDATE_SOURCES:
        for count in range(1, 15):
            for dst in PILE_NAMES:
                copy = Game.from_dict(stored)
                data = {"type": "move", "from": src, "to": dst, "count": count}
                try:
                    result = copy.apply(Action.from_dict(data))
                except EngineError:
                    assert copy.to_dict() == stored
                    continue
                assert result.dst == (dst if dst != "foundation" else result.dst)
                accepted.add((src, result.dst, count))
    return accepted


@settings(max_examples=60)
@given(GAMES, st.lists(st.integers(0, 2**16), min_size=20, max_size=150))
def test_legal_actions_equals_what_apply_accepts(spec, choices):
    game = new_game(spec)
    for choice in choices:
        if game.is_over:
            break
        with contextlib.suppress(EngineError):  # a tap with nowhere to go
            game.apply(Action.from_dict(pick(game, choice)))
    legal = game.legal_actions()
    listed = {(a["from"], a["to"], a["count"]) for a in legal if a["type"] == "move"}
    assert len(listed) == len([a for a in legal if a["type"] == "move"])
    assert listed == (accepted_moves(game) if not game.is_over else set())
    others = [a["type"] for a in legal if a["type"] != "move"]
    expected = []
    for kind in ("finish", "draw", "recycle", "undo"):
        try:
            Game.from_dict(game.to_dict()).apply(Action(kind))
            expected.append(kind)
        except EngineError:
            pass
    assert others == expected
