"""Today's daily challenge in a real browser, and its leaderboard kept live over the WebSocket."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, drag, game_id_of, sign_up, unique_name, wait_for_moves

PHONE = {"width": 390, "height": 844}


def open_daily(page) -> str:
    page.goto("/")
    page.click('.play-daily[data-draw="3"]')
    page.wait_for_url("**/play/**")
    page.wait_for_selector('[data-pile="stock"] .card')
    return game_id_of(page)


def test_daily_draw_illegal_drop_tap_undo_and_hungarian(new_context):
    # given a new player on today's 3-card daily
    context = new_context()
    page = context.new_page()
    sign_up(page, unique_name("daily"))
    game_id = open_daily(page)
    assert page.locator("#deal").is_hidden()  # the code of a running daily stays secret
    assert page.locator("#undo").is_disabled()

    # when they draw by clicking the stock
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)

    # then three cards are fanned on the waste and the stock shrank
    assert page.locator('[data-pile="waste"] .card.face').count() == 3
    assert page.locator('[data-pile="stock"] .caption').inner_text() == "31"
    assert page.locator("#undo").is_enabled()

    # when the waste's top card is dropped on a foundation of another suit
    top = page.locator('[data-pile="waste"] .card.top')
    card = top.get_attribute("data-card")
    other_suit = next(suit for suit in "HSDC" if suit != card[-1])
    drag(page, top, page.locator(f'[data-pile="foundation:{other_suit}"]'))

    # then it snaps back and the server's reason is shown; nothing was counted
    message = page.locator("#message")
    message.wait_for(state="visible")
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    page.wait_for_selector(".ghost", state="detached")
    assert page.locator('[data-pile="waste"] .card.top').get_attribute("data-card") == card
    assert page.locator('[data-pile="waste"] .card.lifted').count() == 0
    assert page.locator("#moves").inner_text() == "1"
    legal = api(page, "GET", f"games/{game_id}/legal-actions")["body"]

    # when the waste's top card is tapped
    refusal = message.inner_text()
    page.click('[data-pile="waste"] .card.top')

    # then it moved where the server chose if the server lists a move for it, else it says why
    if any(action.get("from") == "waste" for action in legal):
        wait_for_moves(page, 2)
        assert page.locator(f'[data-pile="waste"] [data-card="{card}"]').count() == 0
    else:
        page.wait_for_function(
            "old => document.getElementById('message').textContent !== old", arg=refusal
        )
        assert page.locator("#moves").inner_text() == "1"
    moves = int(page.locator("#moves").inner_text())
    screenshot(page, "daily-table-desktop")

    # when the player undoes until nothing is left to undo (Z from the keyboard, then the button)
    page.keyboard.press("z")
    wait_for_moves(page, moves + 1)
    while page.locator("#undo").is_enabled():
        moves = int(page.locator("#moves").inner_text())
        page.click("#undo")
        wait_for_moves(page, moves + 1)

    # then the table is back at the deal
    assert page.locator('[data-pile="stock"] .caption').inner_text() == "34"
    assert page.locator('[data-pile="waste"] .card.face').count() == 0

    # when the page is switched to Hungarian with the language switcher
    page.select_option("#lang-select", "hu")
    page.wait_for_selector("html[lang=hu]")
    page.wait_for_function("() => document.getElementById('description').textContent.length > 0")

    # then the labels and the live description are Hungarian, the server's own text
    expected = api(page, "GET", f"games/{game_id}/text?lang=hu")["body"]["text"]
    assert page.locator("#description").inner_text() == expected
    assert expected.startswith("Húzópakli: 34 lap")
    assert page.locator("#settings-open").inner_text().endswith("Beállítások")
    page.click("#settings-open")
    assert "Dupla kattintás" in page.locator("#settings").inner_text()
    page.click("#settings button[type=submit]")

    # and the same table fits a phone held upright
    phone = new_context(
        storage_state=context.storage_state(), viewport=PHONE, has_touch=True, is_mobile=True
    ).new_page()
    phone.goto(f"/play/{game_id}")
    phone.wait_for_selector('[data-pile="tableau:4"] .card')
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    # the description arrives after the table is drawn: the screenshot waits for it
    phone.locator("#description").filter(has_text=expected).wait_for()
    screenshot(phone, "daily-table-phone")


def test_leaderboard_shows_another_players_row_change_live(new_context):
    # given a spectator watching today's 3-card board, and a player on the daily
    player_page = new_context().new_page()
    name = unique_name("live")
    sign_up(player_page, name)
    game_id = open_daily(player_page)
    watcher = new_context().new_page()
    heard = socket_log(watcher)
    # The game's own day: a run that crosses midnight watches the board the game is on.
    day = api(player_page, "GET", f"games/{game_id}")["body"]["daily"]["date"]
    watcher.goto(f"/daily/{day}/3/")
    watcher.wait_for_selector("#live-status .live-dot.on")

    # when the player draws twice
    row = watcher.locator(f'#board-rows tr[data-player="{name}"]')
    for moves in (1, 2):
        player_page.click('[data-pile="stock"]')
        wait_for_moves(player_page, moves)

        # then the spectator's row follows without a reload
        try:
            row.locator(".moves").filter(has_text=str(moves)).wait_for()
        except Exception as error:
            raise AssertionError(f"{name}'s row never showed {moves} moves; {heard}") from error
    screenshot(watcher, "leaderboard")


def socket_log(page) -> list[str]:
    """What the page's WebSockets received and how they closed, and its script errors, in
    order: a failing live test says what the page was told."""
    log: list[str] = []

    def follow(socket) -> None:
        log.append(f"open {socket.url}")
        socket.on("framereceived", lambda payload: log.append(f"frame {str(payload)[:600]}"))
        socket.on("close", lambda _: log.append("closed"))

    page.on("websocket", follow)
    page.on("pageerror", lambda error: log.append(f"page error {error}"))
    return log
