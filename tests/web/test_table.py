"""The game table in a real browser: drag, tap, draw, undo and a whole won game, mouse only."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, drag, easy_deck, sign_up, unique_name, wait_for_moves


def test_win_an_easy_custom_game_with_the_mouse_alone(new_context):
    # given a signed-up player on a custom deal that plays out card by card
    page = new_context().new_page()
    sign_up(page, unique_name("winner"))
    created = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})
    assert created["status"] == 201
    page.goto(f"/play/{created['body']['id']}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="AS"]')
    screenshot(page, "table-desktop")

    # when the first column's ace is dragged to its foundation and every other card is tapped
    drag(
        page,
        page.locator('[data-pile="tableau:1"] [data-card="AS"]'),
        page.locator('[data-pile="foundation:S"]'),
    )
    wait_for_moves(page, 1)
    moves = 1
    for card in ["AD", "AC", "2H"]:
        page.click(f'[data-pile^="tableau"] [data-card="{card}"]')
        moves += 1
        wait_for_moves(page, moves)
    # then the columns were refilled from the reserve (R14), and the reserve count says so
    assert page.locator('[data-pile="reserve"] .caption').inner_text().startswith("9")

    deck = easy_deck()
    stock = deck[18:]
    for card in stock:
        page.click('[data-pile="stock"]')
        moves += 1
        wait_for_moves(page, moves)
        page.click(f'[data-pile="waste"] [data-card="{card}"]')
        moves += 1
        wait_for_moves(page, moves)
    for card in ["10C", *[c for c in reversed(deck[:12])]]:
        page.click(f'[data-card="{card}"]')
        moves += 1
        if moves < 85:
            wait_for_moves(page, moves)

    # then the win screen shows the final figures
    dialog = page.locator("#win")
    dialog.wait_for(state="visible")
    assert dialog.locator("#win-title").inner_text() == "You won!"
    assert dialog.locator("#win-score").inner_text() == "255"
    assert dialog.locator("#win-moves").inner_text() == str(moves)
    screenshot(page, "win-screen")


def test_play_with_the_keyboard_alone(new_context):
    # given a custom game, and the keyboard focus on the first column
    page = new_context().new_page()
    sign_up(page, unique_name("keys"))
    created = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})
    page.goto(f"/play/{created['body']['id']}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="AS"]')
    page.focus('[data-pile="tableau:1"]')

    # when Enter picks up its ace, the arrows walk to the spade foundation and Enter puts it down
    page.keyboard.press("Enter")
    assert "Picked up: ace of spades." in page.locator("#message").inner_text()
    for _ in range(4):  # reserve, foundation C, foundation D, foundation S
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    wait_for_moves(page, 1)

    # then the ace is on its foundation and the emptied column took the reserve's top (R14)
    assert page.locator('[data-pile="foundation:S"] [data-card="AS"]').count() == 1
    assert page.locator('[data-pile="tableau:1"] [data-card="10C"]').count() == 1

    # when T taps the second column's card, Space draws and D draws again
    page.focus('[data-pile="tableau:2"]')
    page.keyboard.press("t")
    wait_for_moves(page, 2)
    page.keyboard.press(" ")
    wait_for_moves(page, 3)
    page.keyboard.press("d")
    wait_for_moves(page, 4)

    # then the server applied each of them
    assert page.locator('[data-pile="foundation:D"] [data-card="AD"]').count() == 1
    assert page.locator('[data-pile="stock"] .caption').inner_text() == "32"


def test_a_card_with_nowhere_to_go_shakes_and_says_why_over_the_felt_and_sound_is_off(new_context):
    # given a player on a laptop-sized screen (the felt fills it: no room below for messages)
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    sign_up(page, unique_name("shaker"))
    game_id = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="reserve"] [data-card="10C"]')

    # then sound is off until the player turns it on
    page.click("#settings-open")
    assert not page.locator("#sound").is_checked()
    page.keyboard.press("Escape")

    # when the reserve's 10C, which goes nowhere, is tapped
    page.click('[data-pile="reserve"] [data-card="10C"]')

    # then it shakes and the reason shows on the felt, by the reserve, within the first screen
    page.wait_for_selector('[data-pile="reserve"] [data-card="10C"].shake')
    toast = page.locator("#message")
    toast.filter(has_text="10 of clubs has nowhere to go.").wait_for()
    box = toast.bounding_box()
    felt = page.locator("#table").bounding_box()
    reserve = page.locator('[data-pile="reserve"]').bounding_box()
    assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
    assert box["y"] + box["height"] <= 768
    assert box["x"] < reserve["x"] + reserve["width"] and box["y"] >= reserve["y"]
    screenshot(page, "toast-by-the-cards")

    # and no sound was made; once turned on, a move plays one
    page.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(page, 1)
    assert page.evaluate("() => window.soundsPlayed || 0") == 0
    page.click("#settings-open")
    page.check("#sound")
    page.click("#settings button[type=submit]")
    assert page.evaluate("() => localStorage.getItem('sound')") == "on"
    page.click('[data-pile="tableau:2"] [data-card="AD"]')
    wait_for_moves(page, 2)
    assert page.evaluate("() => window.soundsPlayed") == 1
