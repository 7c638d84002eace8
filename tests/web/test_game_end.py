"""Resigning (with its confirmation), the deal code shown once the game has ended and its copy
button, and the finished game seen afterwards from the player page and its replay."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, sign_up, unique_name, wait_for_moves


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
    page.click("#win-close")
    assert page.locator("#status").inner_text() == "Resigned"
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
