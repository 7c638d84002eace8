"""Ending a game (with its confirmation), the deal code shown once the game has ended and its
copy button, and the finished game seen afterwards from the player page and its replay; a stuck
game saying "No more moves" (R20a) and ending there; one making no progress (R20c); Finish
sending every card home in one action (R20b)."""

from games.engine.cards import NAMES
from tests.games.helpers import easy_deck as straight_deck
from tests.web.conftest import screenshot
from tests.web.helpers import api, game_id_of, sign_up, unique_name, wait_for_moves


def test_copy_the_code_resign_then_find_the_game_on_the_player_page_and_replay_it(new_context):
    # given a player on a random deal, in a browser that lets pages use the clipboard
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    name = unique_name("resigner")
    sign_up(page, name)
    created = api(page, "POST", "games", {"draw": 3})["body"]
    page.goto(f"/play/{created['id']}")
    page.wait_for_selector('[data-pile="stock"] .card')

    # then the random deal's code stays hidden while the game lasts (R19)
    assert created["code"] is None and page.locator("#deal").is_hidden()

    # when the player draws, then presses resign but cancels the confirmation
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#resign")

    # then the game goes on
    assert api(page, "GET", f"games/{created['id']}")["body"]["status"] == "playing"
    assert page.locator("#status").is_hidden() and page.locator("#resign").is_enabled()

    # when they resign and confirm
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")

    # then the end screen shows the figures, the table shows the game as resigned ...
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-title").inner_text() == "Game over"
    assert page.locator("#win-rank").inner_text() == ""  # not a daily game: no board
    assert page.locator("#win-home").inner_text() == "1 of 52 cards home"
    page.click("#win-close")
    assert page.locator("#status").inner_text() == "1 of 52 cards home"
    ended = api(page, "GET", f"games/{created['id']}")["body"]
    assert ended["status"] == "resigned" and ended["code"].startswith("CF2-D3-")

    # ... its code shows, and its copy button puts it on the clipboard
    assert page.locator("#deal-code").inner_text() == ended["code"]
    page.click("#copy-code")
    page.locator("#message").filter(has_text="Copied!").wait_for()
    assert page.evaluate("() => navigator.clipboard.readText()") == ended["code"]

    # ... and nothing can be played any more: buttons off, the stock does not draw
    assert page.locator("#undo").is_disabled() and page.locator("#resign").is_disabled()
    stock = page.locator('[data-pile="stock"] .caption').inner_text()
    page.click('[data-pile="stock"]')
    page.keyboard.press("d")
    page.wait_for_timeout(300)  # a wrongly sent draw would have come back by now
    assert page.locator('[data-pile="stock"] .caption').inner_text() == stock
    assert api(page, "GET", f"games/{created['id']}")["body"]["moves"] == 1  # resigning is no move

    # when the player opens their page
    page.goto(f"/players/{name}")
    row = page.locator(f'a[href="/replay/{created["id"]}"]')
    row.wait_for()
    screenshot(page, "player-page")

    # then the resigned game is listed with a replay that steps through it in words
    row.click()
    page.wait_for_selector('[data-pile="tableau:4"] .card')
    assert page.locator("#step").inner_text() == "0 / 2"
    page.click("#next")
    assert page.locator("#step").inner_text() == "1 / 2"
    assert page.locator("#step-caption").inner_text().startswith("draw: ")
    assert page.locator('[data-pile="waste"] .card.face').count() == 3
    screenshot(page, "replay")


# Columns 5H 5D 10H 10D take only black 4s and 9s; the foundations want 8H (base 7H), 7S, 7D
# and 7C. Those eight cards lie in the reserve below its top, KH, so nothing in the talon fits
# (as tests/games/test_api_stuck.py).
HIDDEN = ["4S", "4C", "9S", "9C", "8H", "7S", "7D", "7C"]
LAYOUT = ["KH", "7H", "5H", "5D", "10H", "10D"]


def stuck_deck() -> list[str]:
    rest = [name for name in NAMES if name not in HIDDEN and name not in LAYOUT]
    return [*HIDDEN, *rest[:4], *LAYOUT, *rest[4:]]


def test_a_stuck_game_says_no_more_moves_and_ends_with_how_far_it_got(new_context):
    # given a 1-card game whose talon has been drawn through with nothing to play but the last
    # draw, on the table
    page = new_context().new_page()
    sign_up(page, unique_name("stuck"))
    game_id = api(page, "POST", "games", {"deck": stuck_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    play_through(page, game_id, [{"type": "draw"}] * 33)
    page.reload()
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="5H"]')
    assert page.locator("#stuck").is_hidden()

    # when the player draws the last card
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 34)

    # then the table says there are no more moves, over the felt, with End game and Undo
    note = page.locator("#stuck")
    note.wait_for()
    assert note.inner_text().startswith("No more moves")
    felt, box = page.locator("#table").bounding_box(), note.bounding_box()
    assert felt["y"] < box["y"] and box["y"] + box["height"] < felt["y"] + felt["height"]
    screenshot(page, "stuck")

    # when they undo from there, the note goes; drawing again brings it back
    page.click("#stuck-undo")
    wait_for_moves(page, 35)
    assert note.is_hidden()
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 36)
    note.wait_for()

    # when they end the game from the note (no second question: the note asked)
    page.click("#stuck-end")

    # then the end screen and the share text say how far the game got, never "Resigned"
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-home").inner_text() == "1 of 52 cards home"
    page.click("#win-share")
    text = page.locator("#share-text").input_value()
    assert text.splitlines() == [
        "Canfield Club · 1 card (Easy)",
        f"1 of 52 cards home · Score 0 · 36 moves · {page.locator('#win-time').inner_text()}",
    ]
    assert "esign" not in page.locator("#game").inner_text()
    game = api(page, "GET", f"games/{game_id}")["body"]
    assert game["status"] == "resigned" and game["end_reason"] == "resigned"


def play_through(page, game_id: str, actions: list[dict]) -> dict:
    """Sends the actions one after another from the page (one round trip to the browser);
    the game as the last answer has it."""
    return page.evaluate(
        """async ([id, actions]) => {
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            let answer = null;
            for (const action of actions) {
                const response = await fetch(`/api/v1/games/${id}/actions`, {method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                    body: JSON.stringify(action)});
                answer = await response.json();
                if (!response.ok) throw new Error(JSON.stringify([action, answer]));
            }
            return answer.game;
        }""",
        [game_id, actions],
    )


def test_finish_sends_every_card_home_in_one_action_counted_as_its_moves(new_context):
    # given a game where every card is in sight: the straight deck played up through the API,
    # its last two clubs laid on the empty columns instead, the stock drawn out
    page = new_context().new_page()
    sign_up(page, unique_name("finisher"))
    game_id = api(page, "POST", "games", {"deck": straight_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="stock"] .card')
    assert page.locator("#finish").is_hidden()  # cards are hidden in the stock and reserve
    up = {"type": "move", "from": "waste", "to": "foundation"}
    actions = [{"type": "move", "from": "reserve", "to": "foundation"}] * 13
    actions += [{"type": "move", "from": f"tableau:{i}", "to": "foundation"} for i in range(1, 5)]
    actions += [{"type": "draw"}, up] * 32  # 6S..KS, AD..KD, AC..JC
    actions += [{"type": "draw"}, {"type": "move", "from": "waste", "to": "tableau:1"}]  # QC
    actions += [{"type": "draw"}, {"type": "move", "from": "waste", "to": "tableau:2"}]  # KC
    game = play_through(page, game_id, actions)
    assert game["stock"]["count"] == 0 and game["waste"]["count"] == 0
    moves = game["moves"]
    assert sum(f["count"] for f in game["foundations"]) == 50
    page.reload()
    page.wait_for_selector('[data-card="KC"]')

    # when the player presses Finish (offered now that every card is in sight)
    finish = page.locator("#finish")
    assert finish.is_visible()
    finish.click()

    # then the two clubs go home in one finish action, counted as two moves, and the game is won
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-title").inner_text() == "You won!"
    won = api(page, "GET", f"games/{game_id}")["body"]
    assert won["status"] == "won" and won["moves"] == moves + 2
    log = api(page, "GET", f"games/{game_id}/actions")["body"]
    assert len(log) == len(actions) + 1
    assert [action["type"] for action in log].count("finish") == 1
    assert log[-1]["type"] == "finish" and log[-1]["cards"] == ["QC", "KC"]
    assert "2 cards sent home" in page.locator("#announce").inner_text()
    assert finish.is_hidden()


# Columns 5H 10D QH JC: the JC may go onto the QH, nothing else fits; the foundations want 8H
# (base 7H), 7S, 7D and 7C. Those cards, the black 4s and 9s, the JS and the 10H lie in the
# reserve below its top, KH, so no card of the talon ever goes anywhere.
STILL_HIDDEN = ["4S", "4C", "9S", "9C", "JS", "10H", "8H", "7S", "7D", "7C"]
STILL_LAYOUT = ["KH", "7H", "5H", "10D", "QH", "JC"]


def no_progress_deck() -> list[str]:
    rest = [name for name in NAMES if name not in STILL_HIDDEN and name not in STILL_LAYOUT]
    return [*STILL_HIDDEN, *rest[:2], *STILL_LAYOUT, *rest[2:]]


def test_a_game_making_no_progress_says_so_and_offers_to_end_it_or_play_on(new_context):
    # given a 1-card game whose talon was drawn through once, then again but for its last card
    page = new_context().new_page()
    sign_up(page, unique_name("still"))
    game_id = api(page, "POST", "games", {"deck": no_progress_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    game = play_through(page, game_id, [{"type": "draw"}] * 34 + [{"type": "recycle"}]
                        + [{"type": "draw"}] * 33)  # fmt: skip
    assert not game["no_progress"] and not game["stuck"]
    page.reload()
    page.wait_for_selector('[data-pile="tableau:4"] [data-card="JC"]')
    note = page.locator("#stuck")
    assert note.is_hidden()

    # when the player draws the last card of the second pass
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 69)

    # then the note says the game makes no progress (a move is left: not "No more moves") and
    # offers End game or Play on
    note.wait_for()
    assert note.inner_text().startswith("This game makes no progress")
    assert page.locator("#stuck-title").is_hidden() and page.locator("#stuck-undo").is_hidden()
    assert page.locator("#play-on").is_visible()

    # when they play on, the note goes and stays away while the game goes on the same way
    page.click("#play-on")
    assert note.is_hidden()
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 70)
    assert note.is_hidden()

    # when they come back to the table later, it asks again, and they end the game there
    page.reload()
    note.wait_for()
    page.click("#stuck-end")
    page.locator("#win").wait_for(state="visible")
    game = api(page, "GET", f"games/{game_id}")["body"]
    assert game["status"] == "resigned" and game["moves"] == 70


def test_restart_is_reachable_during_a_random_game(new_context):
    # given a player on a random deal in progress (its code hidden, R19)
    page = new_context().new_page()
    sign_up(page, unique_name("restarter"))
    created = api(page, "POST", "games", {"draw": 3})["body"]
    page.goto(f"/play/{created['id']}")
    page.wait_for_selector('[data-pile="stock"] .card')
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)

    # when they press Restart this deal and confirm that this game ends
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#restart")

    # then the game ended and its deal is dealt again, from its start, as a practice game
    page.wait_for_url(lambda url: created["id"] not in url and "/play/" in url)
    page.wait_for_selector('[data-pile="stock"] .card')
    ended = api(page, "GET", f"games/{created['id']}")["body"]
    again = api(page, "GET", f"games/{game_id_of(page)}")["body"]
    assert ended["status"] == "resigned" and ended["code"]
    assert again["code"] == ended["code"] and again["practice"] and again["moves"] == 0
