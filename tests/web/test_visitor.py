"""A visitor as issue 22 has them arrive (real browser, real server): one click on the home page
deals a table, the first-game tips show once, New game mid-game asks first, signing up from the
table keeps the game, and the player page shows the figures of games made through the API."""

import re

from tests.web.conftest import screenshot
from tests.web.helpers import PASSWORD, api, easy_deck, game_id_of, sign_up, unique_name
from tests.web.test_accessibility import AXE, violations

FIRST_CARDS = '[data-pile="tableau:1"] .card'


def warm_up(new_context) -> None:
    """A cold server's first deal (templates compiled, first database connection) is not the
    visitor's: another browser context makes one first, through the requests a page makes."""
    request = new_context().request
    home = request.get("/").text()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', home)[1]
    table = request.post("/play/now", form={"csrfmiddlewaretoken": token})
    assert table.ok and "/play/" in table.url
    for script in re.findall(r'src="(/static/[^"]+\.js)"', table.text()):
        assert request.get(script).ok


def focus_in(page, selector: str) -> bool:
    return page.evaluate(
        "s => document.querySelector(s).contains(document.activeElement)", selector
    )


def test_a_visitor_plays_at_once_is_asked_before_leaving_and_signs_up_keeping_the_game(
    new_context,
):
    warm_up(new_context)
    page = new_context(tips=True, bypass_csp=True).new_page()  # (axe is injected inline)
    page.goto("/")

    # when the visitor presses the home page's first button
    pages = []
    page.on("framenavigated", lambda frame: frame.parent_frame or pages.append(frame.url))
    page.locator("main button").first.click()

    # then the next page is a dealt table, no form on the way (how fast: bench/table.py)
    page.wait_for_selector(FIRST_CARDS)
    assert [re.sub(r"^https?://[^/]+", "", url).split("/")[1] for url in pages] == ["play"]
    first_game = game_id_of(page)

    # and the first-game tips show over it: focus kept inside, Escape closes them, no serious
    # accessibility finding
    tips = page.locator("#tips")
    tips.wait_for(state="visible")
    assert tips.locator("ol li").count() == 4
    assert focus_in(page, "#tips")
    for _ in range(3):
        page.keyboard.press("Tab")
        assert focus_in(page, "#tips")
    page.keyboard.press("Shift+Tab")
    assert focus_in(page, "#tips")
    if AXE.exists():
        assert violations(page) == []
    screenshot(page, "first-game-tips")
    page.keyboard.press("Escape")
    assert tips.count() == 0
    # ... and never again in this browser
    page.reload()
    page.wait_for_selector(FIRST_CARDS)
    assert page.locator("#tips").count() == 0

    # a guest's daily asks for an account: one click to the sign-up, which would come back here
    page.click("#next-daily")
    page.wait_for_url(re.compile(r"/accounts/signup/\?next="))
    assert page.url.endswith(f"/accounts/signup/?next=/play/{first_game}")
    assert page.locator("#guest-signup, form button[type=submit]").count() >= 1
    page.go_back()
    page.wait_for_selector(FIRST_CARDS)
    assert page.url.endswith(f"/play/{first_game}")

    # when the guest presses New game mid-game, it is asked first; keeping on changes nothing
    page.click('[data-pile="stock"]')
    page.wait_for_function("() => document.getElementById('moves').textContent === '1'")
    page.click("#new-game")
    leave = page.locator("#leave-game")
    leave.wait_for(state="visible")
    assert "Leave this game?" in leave.inner_text() and "7 days" in leave.inner_text()
    assert focus_in(page, "#leave-game")
    screenshot(page, "leave-game")
    page.click('#leave-game button[data-value="false"]')
    assert leave.count() == 0 and page.url.endswith(f"/play/{first_game}")
    page.click("#new-game")
    page.keyboard.press("Escape")
    assert page.locator("#leave-game").count() == 0 and page.url.endswith(f"/play/{first_game}")
    # ... and leaving deals a new game
    page.click("#new-game")
    page.click('#leave-game button[data-value="true"]')
    page.wait_for_url(re.compile(r"/play/(?!" + first_game + ")"))
    page.wait_for_selector(FIRST_CARDS)
    second_game = game_id_of(page)

    # when the guest signs up from the table's link
    page.click("#guest-signup")
    name = unique_name("guest")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")

    # then it is back at its game, signed in under its name, with both games kept
    page.wait_for_url(f"**/play/{second_game}")
    page.wait_for_selector(FIRST_CARDS)
    assert page.locator(".topbar .me").inner_text() == name
    mine = api(page, "GET", "games")["body"]["results"]
    assert {game["id"] for game in mine} == {first_game, second_game}

    # and a daily game, now allowed, says it stays open when New game is pressed
    daily = api(page, "POST", "games", {"daily": True, "draw": 1})["body"]["id"]
    page.goto(f"/play/{daily}")
    page.wait_for_selector(FIRST_CARDS)
    page.click('[data-pile="stock"]')
    page.wait_for_function("() => document.getElementById('moves').textContent === '1'")
    page.click("#new-game")
    assert "midnight" in page.locator("#leave-game").inner_text()
    page.click('#leave-game button[data-value="false"]')
    assert page.url.endswith(f"/play/{daily}")


def test_the_player_page_shows_the_figures_of_games_made_through_the_api(new_context):
    page = new_context().new_page()
    name = unique_name("figures")
    sign_up(page, name)

    def play(body, *actions):
        game = api(page, "POST", "games", body)["body"]["id"]
        for action in actions:
            assert api(page, "POST", f"games/{game}/actions", {"type": action})["status"] == 200
        return game

    # given: ended after a move, 3 cards twice and 1 card once (they count); in progress,
    # ended without a move, and a practice deal (they do not); and today's 3-card daily
    counted = [play({"draw": 3}, "draw", "resign"), play({"draw": 3}, "draw", "draw", "resign")]
    counted.append(play({"draw": 1}, "draw", "resign"))
    playing = play({"draw": 3}, "draw")
    play({"draw": 1}, "resign")
    play({"deck": easy_deck(), "draw": 1}, "draw", "resign")
    daily = play({"daily": True, "draw": 3}, "draw")
    today = api(page, "GET", "daily")["body"]["date"]

    # when the player opens their page
    page.goto(f"/players/{name}")

    # then the figures count the three games over with a move, by draw mode
    stat = page.locator("#stats [data-stat]")
    figures = dict(
        zip(
            stat.evaluate_all("n => n.map(e => e.dataset.stat)"),
            stat.all_inner_texts(),
            strict=True,
        )
    )
    assert (figures["games"], figures["wins"], figures["win_rate"]) == ("3", "0", "0 %")
    three = page.locator('#by-draw tr[data-draw="3"]')
    one = page.locator('#by-draw tr[data-draw="1"]')
    assert three.locator('[data-stat="games"]').inner_text() == "2"
    assert one.locator('[data-stat="games"]').inner_text() == "1"
    assert api(page, "GET", f"players/{name}")["body"]["games"] == 3
    # the calendar's today cell says, in words, that the 3-card daily is being played
    cell = page.locator(f'#calendar li[data-date="{today}"]')
    assert "today" in cell.get_attribute("class")
    assert "3 cards: playing" in cell.inner_text() and "1 card: –" in cell.inner_text()
    # the daily is listed, with the link back to it for its owner; the history has every game
    assert page.locator(f'#dailies tr[data-game="{daily}"] a[href="/play/{daily}"]').count() == 1
    assert page.locator("#history tr[data-game]").count() == 7
    assert page.locator(f'#history tr[data-game="{playing}"]').inner_text().count("In progress")
    screenshot(page, "player-page-figures")
