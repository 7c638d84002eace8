"""Bots on the pages (R34): the daily board's People / Bots tabs, worked from the keyboard and
kept live, and the BOT mark on a bot's player page."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, sign_up, unique_name


def rows(page) -> list[list]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#board-rows tr')].map(
            (row) => [Number(row.cells[0].innerText), row.dataset.player,
                      Number(row.querySelector('.moves').innerText)])"""
    )


def test_bots_have_their_own_tab_and_a_mark(new_context):
    # given: a person and a bot (signed up in turn in one browser) with today's 3-card daily
    page = new_context().new_page()
    person, bot = unique_name("human"), unique_name("robot")
    sign_up(page, person)
    assert api(page, "POST", "games", {"daily": True})["status"] == 201
    sign_up(page, bot)
    assert api(page, "POST", "account/bot")["body"]["bot"] is True
    game = api(page, "POST", "games", {"daily": True})["body"]
    today = game["daily"]["date"]

    # when: the board opens, the people's tab first
    page.goto(f"/daily/{today}/3/")
    people_tab = page.get_by_role("tab", name="People")
    bots_tab = page.get_by_role("tab", name="Bots")
    page.wait_for_selector(f'#board-rows tr[data-player="{person}"]')

    # then: the person is there and the bot is not
    assert people_tab.get_attribute("aria-selected") == "true"
    assert page.locator(f'#board-rows tr[data-player="{bot}"]').count() == 0

    # when: the bots' tab is chosen from the keyboard (the selected tab, then the right arrow)
    people_tab.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'#board-rows tr[data-player="{bot}"]')

    # then: the bots' board is shown, ranked among bots, and the address says so
    assert bots_tab.get_attribute("aria-selected") == "true"
    assert bots_tab.evaluate("tab => tab === document.activeElement")
    assert people_tab.get_attribute("tabindex") == "-1"
    assert page.get_by_role("tabpanel").get_attribute("aria-labelledby") == "tab-bots"
    assert page.url.endswith("?players=bots")
    board = api(page, "GET", f"daily/{today}/leaderboard?players=bots")["body"]
    assert rows(page) == [[e["rank"], e["player"], e["moves"]] for e in board["results"]]
    assert person not in {entry["player"] for entry in board["results"]}
    screenshot(page, "board-bots-tab")

    # when: the bot draws, its row follows live (the bots' socket)
    assert api(page, "POST", f"games/{game['id']}/actions", {"type": "draw"})["status"] == 200
    page.wait_for_function(
        """name => [...document.querySelectorAll('#board-rows tr')].some((row) =>
            row.dataset.player === name && row.querySelector('.moves').innerText === '1')""",
        arg=bot,
    )

    # then: the bot's page has the BOT mark, the person's has none
    page.goto(f"/players/{bot}")
    page.wait_for_selector("#bot-mark", state="visible")
    assert page.locator("#bot-mark").inner_text() == "BOT"
    screenshot(page, "player-bot-mark")
    page.goto(f"/players/{person}")
    page.wait_for_function("() => document.querySelector('[data-stat=games]').innerText !== '–'")
    assert page.locator("#bot-mark").is_hidden()
