"""Motion, observed through the Web Animations API (document.getAnimations()): the deal, a move
travelling between piles (FLIP), a draw, the win's cascade, drop targets lit while dragging;
none of it under prefers-reduced-motion. That frames come while a card moves is checked here;
how long they take is measured by bench/table.py."""

import json
import sys
from collections.abc import Sequence

from tests.web.conftest import ROOT, screenshot
from tests.web.helpers import api, easy_deck, sign_up, unique_name, wait_for_moves

# What a running animation is and how its frames are recorded: bench/table.py's, which times
# them.
sys.path.append(str(ROOT / "bench"))  # (last: bench/matches.py must not shadow the app)
from table import RECORD, RUNNING  # noqa: E402

# Every Web Animation the page starts: the card it moves, whether it is a card flying to a
# foundation (auto-finish) and its delay (kept in window.animatedCards).
WATCH = """(() => {
    window.animatedCards = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
        const timing = args[1] || {};
        window.animatedCards.push({card: this.dataset ? this.dataset.card : null,
                                   flying: this.classList.contains("flying"),
                                   delay: timing.delay || 0});
        return animate.apply(this, args);
    };
})()"""


def open_table(new_context, motion: str, viewport=None):
    options = {"reduced_motion": motion}
    if viewport:
        options.update(viewport=viewport, is_mobile=True, has_touch=True)
    context = new_context(**options)
    context.add_init_script(WATCH)
    page = context.new_page()
    sign_up(page, unique_name("motion"))
    game_id = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="AS"]')
    return page, game_id


def test_cards_travel_and_frames_stay_smooth(new_context):
    # given a new table on a phone-sized screen, motion allowed
    page, _game_id = open_table(new_context, "no-preference", {"width": 390, "height": 844})

    # then the deal played: every face-up card came out of the stock
    dealt = page.evaluate("() => window.animatedCards.map(a => a.card)")
    assert set(dealt) == {"AH", "AS", "AD", "AC", "2H", "10C"}
    page.wait_for_function(f"() => ({RUNNING})() === 0")

    # when the ace is tapped, it travels to its foundation and the reserve's card to column 1
    page.evaluate(RECORD)
    page.tap('[data-pile="tableau:1"] [data-card="AS"]')
    page.wait_for_function(f"() => ({RUNNING})() >= 2")
    moving = page.evaluate(
        "() => document.getAnimations().map(a => a.effect.target.dataset.card).sort()"
    )
    assert "AS" in moving and "10C" in moving
    # only transforms move: no layout property is animated
    props = page.evaluate(
        "() => [...new Set(document.getAnimations().flatMap(a =>"
        " a.effect.getKeyframes().flatMap(k => Object.keys(k))))]"
    )
    assert set(props) <= {"transform", "zIndex", "offset", "easing", "composite", "computedOffset"}
    screenshot(page, "table-mid-animation")
    frames = page.evaluate("() => window.frameTimes")
    wait_for_moves(page, 1)

    # then the animation ran over several frames (their times: bench/table.py)
    assert len(frames) >= 5

    # when a card is drawn, it comes from the stock
    page.wait_for_function(f"() => ({RUNNING})() === 0")
    page.tap('[data-pile="stock"]')
    page.wait_for_function(f"() => ({RUNNING})() >= 1")
    piles = page.evaluate(
        "() => document.getAnimations()"
        ".map(a => a.effect.target.closest('[data-pile]').dataset.pile)"
    )
    assert piles == ["waste"]


# Plays a game of the suite server's through the services, as its owner's requests would (the
# browser's ~100-200 API calls through the page cost ~10-20 CPU-seconds a test): `actions` in
# order, or else a foundation move whenever there is one, else a draw or recycle, until the
# game holds `home` cards on its foundations or an action has finished it by itself (R20c);
# prints the actions sent.
PLAY = """
import json
from games.engine import Game as EngineGame
from games.models import Game
from games.services import game_act
game = Game.objects.get(pk={game_id!r})
replay, sent = list({actions!r}), []
chooses = not replay  # (else it plays `actions` and stops)
while game.cards_home < {home!r} and (chooses or replay):
    if replay:
        action = replay.pop(0)
    else:
        legal = EngineGame.from_dict(game.state).legal_actions()
        up = [a for a in legal if a["type"] == "move" and a["to"].startswith("foundation")]
        action = up[0] if up else next(a for a in legal if a["type"] in ("draw", "recycle"))
    row, game, _engine = game_act(game=game, user=game.owner, action=action, expect=None)
    sent.append(action)
    if row.auto_finish:
        break
print("sent:", json.dumps(sent))
"""


def play(run_on_server, game_id: str, actions: Sequence[dict] = (), home: int = 52) -> list[dict]:
    code = PLAY.format(game_id=game_id, actions=list(actions), home=home)
    printed = run_on_server(code)  # (the app's log lines too)
    return json.loads(printed.split("sent: ")[-1])


def play_to_one_card_from_the_win(run_on_server, game_id: str) -> None:
    """Plays the easy deck, a foundation move whenever there is one, until one card is left to
    place."""
    play(run_on_server, game_id, home=51)


def test_the_win_cards_bounce_then_the_end_shows(new_context, run_on_server):
    # given a game one card from the win, motion allowed
    page, game_id = open_table(new_context, "no-preference")
    play_to_one_card_from_the_win(run_on_server, game_id)
    page.reload()
    page.wait_for_selector("#table .card.face")
    legal = api(page, "GET", f"games/{game_id}/legal-actions")["body"]
    last = next(a for a in legal if a["type"] == "move" and a["to"].startswith("foundation"))

    # when the last card is tapped
    page.click(f'[data-pile="{last["from"]}"] .card.face >> nth=-1')

    # then the foundations' cards bounce across the window, leaving their trail on a canvas
    # over the page, frame after frame
    page.wait_for_selector("canvas.celebration")
    page.wait_for_function("() => window.celebrationFrames > 40")
    painted = page.evaluate(
        """() => { const c = document.querySelector("canvas.celebration");
            const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < data.length; i += 4 * 97) if (data[i]) n += 1;
            return n; }"""
    )
    assert painted > 100
    screenshot(page, "win-cascade")

    # and a tap ends it at once: the end dialog shows, the canvas is gone
    page.mouse.click(5, 5)
    page.locator("#win").wait_for(state="visible", timeout=5_000)
    assert page.locator("#win-title").inner_text() == "You won!"
    assert page.locator("canvas.celebration").count() == 0
    screenshot(page, "win-dialog")


def test_the_waste_can_be_taken_while_the_drawn_card_is_still_flying(new_context):
    # given a table with motion, the columns' aces and 2H played up so that each drawn card goes
    # home (the easy deck: 2S, 2D, 2C, 3H... come from the stock in turn)
    page, _game_id = open_table(new_context, "no-preference")
    for card in ("AS", "AD", "AC", "2H"):
        moves = int(page.locator("#moves").inner_text())
        page.click(f'[data-card="{card}"]')
        wait_for_moves(page, moves + 1)
    waste = page.locator('[data-pile="waste"]').bounding_box()
    height = page.locator('[data-pile="stock"]').bounding_box()["height"]

    # when, four times, a card is drawn and the waste tapped while the card is still on its way
    for turn in range(4):
        moves = int(page.locator("#moves").inner_text())
        page.click('[data-pile="stock"]')
        wait_for_moves(page, moves + 1)
        flying = page.evaluate(f"({RUNNING})()")
        page.mouse.click(waste["x"] + 20, waste["y"] + height / 2)

        # then the tap takes the card home every time (it was in flight for at least one try)
        wait_for_moves(page, moves + 2)
        assert page.locator('[data-pile="waste"] .card.face').count() == 0, turn
        if turn == 0:
            assert flying >= 1


def test_drop_targets_light_up_while_dragging(new_context):
    page, _game_id = open_table(new_context, "reduce")
    card = page.locator('[data-pile="tableau:1"] [data-card="AS"]').bounding_box()
    target = page.locator('[data-pile="foundation:S"]').bounding_box()

    # when the ace is dragged and held over the spade foundation
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + 10)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(
            card["x"] + (target["x"] - card["x"]) * step / 8 + card["width"] / 2,
            card["y"] + (target["y"] - card["y"]) * step / 8 + 10,
        )
    # then the foundation that takes it is lit, and more so under the pointer
    page.wait_for_selector('[data-pile="foundation:S"].drop-ok.drop-hover')
    page.mouse.up()
    wait_for_moves(page, 1)
    assert page.locator(".drop-ok, .drop-hover").count() == 0


def test_reduced_motion_plays_nothing(new_context):
    # given a player who asked for reduced motion
    page, _game_id = open_table(new_context, "reduce")
    assert page.evaluate("() => window.animatedCards") == []

    # when a card moves and a card is drawn, nothing animates
    page.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(page, 1)
    assert page.evaluate("() => document.getAnimations().length") == 0
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 2)
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.evaluate("() => window.animatedCards") == []


def test_auto_finish_plays_the_cards_up_one_after_another(new_context, run_on_server):
    # given two games of the same deal under the cardgames rules (which finish themselves), the
    # first played through to learn which action auto-finishes, the second up to that action
    context = new_context(reduced_motion="no-preference")
    context.add_init_script(WATCH)
    page = context.new_page()
    sign_up(page, unique_name("finish"))
    body = {"deck": easy_deck(), "draw": 1, "ruleset": "cardgames"}
    rehearsal = api(page, "POST", "games", body)["body"]["id"]
    actions = play(run_on_server, rehearsal)  # (the last one auto-finished)
    assert len(actions) > 1
    game_id = api(page, "POST", "games", body)["body"]["id"]
    assert play(run_on_server, game_id, actions[:-1]) == actions[:-1]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector("#table .card.face")
    page.evaluate("() => { window.animatedCards = []; }")

    # when the player makes that last move
    last = actions[-1]
    page.click(f'[data-pile="{last["from"]}"] .card.face >> nth=-1')

    # then the cards the server played up fly to the foundations, one after another
    page.wait_for_selector(".card.flying")
    flights = page.evaluate("() => window.animatedCards.filter(a => a.flying)")
    delays = [flight["delay"] for flight in flights]
    assert len(delays) >= 2 and delays == sorted(delays) and len(set(delays)) == len(delays)
    assert all(flight["card"] for flight in flights)
    assert "played up to the foundations" in page.locator("#announce").inner_text()
    page.locator("#win").wait_for(state="visible", timeout=15_000)
