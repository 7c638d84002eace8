"""Phones held upright, 320 to 430 px: no page scrolls sideways, every control and card is a
44 px touch target at least, and the table uses the width of a large screen; with the pages
in Polish and Hungarian, whose words are the longest."""

import pytest

from tests.web.conftest import TIPS_SEEN, screenshot
from tests.web.helpers import api, easy_deck, sign_up, unique_name

WIDTHS = (320, 360, 390, 430)
TOUCH = 44

# Every control a finger uses, and the table's cards and piles.
TARGETS = "button:not([hidden]), a.button, select, .topbar nav a, #table .card, #table .pile"


def sideways(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def small_targets(page) -> list[str]:
    """Visible touch targets narrower or lower than 44 px (a covered card counts its full size:
    cards may overlap, the hit area may not shrink)."""
    return page.evaluate(
        """([selector, size]) => [...document.querySelectorAll(selector)]
            .filter(node => node.offsetParent !== null && !node.closest("dialog:not([open])"))
            .map(node => [node, node.getBoundingClientRect()])
            .filter(([, box]) => box.width < size - 0.5 || box.height < size - 0.5)
            .map(([node, box]) => `${node.tagName}#${node.id}.${node.className}`
                                  + ` ${Math.round(box.width)}x${Math.round(box.height)}`)""",
        [TARGETS, TOUCH],
    )


@pytest.fixture(scope="module")
def pages_to_visit(browser, base_url):
    """A player with a game in progress and a finished one: the paths of every page."""
    context = browser.new_context(base_url=base_url, reduced_motion="reduce")
    context.add_init_script(TIPS_SEEN)  # the first-game tips would cover the table
    page = context.new_page()
    name = unique_name("phones")
    sign_up(page, name)
    playing = api(page, "POST", "games", {"deck": easy_deck(), "draw": 3})["body"]["id"]
    finished = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})["body"]["id"]
    api(page, "POST", f"games/{finished}/actions", {"type": "draw"})
    api(page, "POST", f"games/{finished}/actions", {"type": "resign"})
    state = context.storage_state()
    context.close()
    today = api_today(browser, base_url)
    return state, [
        "/",
        f"/play/{playing}",
        f"/replay/{finished}",
        f"/daily/{today}/3/",
        "/daily/",
        f"/players/{name}",
        "/rules/app/",
        "/accounts/login/",
        "/accounts/signup/",
    ]


def api_today(browser, base_url) -> str:
    context = browser.new_context(base_url=base_url)
    context.add_init_script(TIPS_SEEN)  # the first-game tips would cover the table
    page = context.new_page()
    page.goto("/accounts/login/")
    today = api(page, "GET", "daily", None)["body"]["date"]
    context.close()
    return today


@pytest.mark.parametrize("lang", ["pl", "hu"])
def test_no_page_scrolls_sideways_and_targets_are_44px(browser, base_url, pages_to_visit, lang):
    state, paths = pages_to_visit
    problems = {}
    context = browser.new_context(
        base_url=base_url,
        storage_state=state,
        viewport={"width": WIDTHS[0], "height": 760},
        locale={"pl": "pl-PL", "hu": "hu-HU"}[lang],
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    context.add_init_script(TIPS_SEEN)  # the first-game tips would cover the table
    context.set_default_timeout(10_000)
    page = context.new_page()
    # Each page is loaded once and looked at in every width: the layout is CSS alone (no script
    # measures the window), so a phone that narrows the window reflows it as a narrower phone
    # loads it.
    for path in paths:
        page.set_viewport_size({"width": WIDTHS[0], "height": 760})
        page.goto(path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/play/"):
            page.wait_for_selector('[data-pile="tableau:1"] .card')
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 760})
            if width == 360 and path.startswith("/play/"):
                screenshot(page, f"table-phone-{lang}")
            if width == 360 and path.startswith("/daily/") and path != "/daily/":
                screenshot(page, f"board-phone-{lang}")
            overflow = sideways(page)
            small = small_targets(page)
            if overflow > 0 or small:
                problems[f"{width} {path}"] = {"sideways": overflow, "small": small[:6]}
    context.close()
    assert problems == {}


def test_the_table_uses_a_large_screens_width(new_context):
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    sign_up(page, unique_name("wide"))
    game_id = api(page, "POST", "games", {"deck": easy_deck(), "draw": 3})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] .card')
    table = page.locator("#table").bounding_box()
    card = page.locator('[data-pile="tableau:1"] .card').first.bounding_box()
    assert table["width"] >= 1000
    assert card["width"] >= 120
    screenshot(page, "table-1920")


# The table on a phone, game first (issue 22): the first screen shows the second row of cards
# above the bottom bar, upright (320x568) and on its side (844x390), for a random, a code and a
# daily game; the header is one line; every control is 44 px; the felt does not trap scrolling.
PHONE_SIZES = ({"width": 320, "height": 568}, {"width": 844, "height": 390})

FIRST_SCREEN = """() => {
    const bar = document.getElementById("controls").getBoundingClientRect();
    const figures = document.querySelector(".hud .figures").getBoundingClientRect();
    const card = document.querySelector('[data-pile="tableau:1"] .card').getBoundingClientRect();
    const reserve = document.querySelector('[data-pile="reserve"] .card').getBoundingClientRect();
    const visible = [...document.querySelectorAll("#controls button, #table .pile")]
        .filter(node => node.getClientRects().length)
        .map(node => [node.id || node.dataset.pile, node.getBoundingClientRect()]);
    return {
        barTop: bar.top, barBottom: bar.bottom, height: innerHeight,
        headerHeight: figures.height, cardBottom: card.bottom, reserveBottom: reserve.bottom,
        topbarShown: document.querySelector(".topbar").getClientRects().length > 0,
        small: visible.filter(([, box]) => box.width < 43.5 || box.height < 43.5)
            .map(([name, box]) => `${name} ${Math.round(box.width)}x${Math.round(box.height)}`),
        sideways: document.documentElement.scrollWidth - innerWidth,
    };
}"""


def phone_games(page) -> dict[str, str]:
    """A random, a code and a daily game of the signed-in player: their table paths."""
    made = {
        "random": {"draw": 3},
        "code": {"code": "CF1-D3-AAAAACL"},
        "daily": {"daily": True, "draw": 3},
    }
    return {
        kind: f"/play/{api(page, 'POST', 'games', body)['body']['id']}"
        for kind, body in made.items()
    }


@pytest.mark.parametrize("lang", ["hu", "pl", "en"])
def test_the_table_on_a_phone_is_game_first(browser, base_url, lang):
    # given a touch phone (scale 2) in the player's language, with three games of three kinds
    context = browser.new_context(
        base_url=base_url,
        viewport=PHONE_SIZES[0],
        locale={"pl": "pl-PL", "hu": "hu-HU", "en": "en-US"}[lang],
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        reduced_motion="reduce",
    )
    context.add_init_script(TIPS_SEEN)  # the first-game tips would cover the table
    context.set_default_timeout(10_000)
    page = context.new_page()
    sign_up(page, unique_name("game1st"))
    problems = {}
    for kind, path in phone_games(page).items():
        page.set_viewport_size(PHONE_SIZES[0])
        page.goto(path)
        page.wait_for_selector('[data-pile="tableau:1"] .card')
        for size in PHONE_SIZES:
            # when the table is seen upright, then on its side (the layout is CSS alone)
            page.set_viewport_size(size)
            seen = page.evaluate(FIRST_SCREEN)
            # then both rows of cards are above the bottom bar, the bar at the bottom of the
            # screen, the header one line, no site header, every control 44 px, nothing sideways
            ok = (
                seen["cardBottom"] <= seen["barTop"]
                and seen["reserveBottom"] <= seen["barTop"]
                and abs(seen["barBottom"] - seen["height"]) < 1
                and seen["headerHeight"] < 30
                and not seen["topbarShown"]
                and not seen["small"]
                and seen["sideways"] <= 0
            )
            if not ok:
                problems[f"{kind} {size['width']}x{size['height']}"] = seen
            if kind == "random" and lang == "hu":
                screenshot(page, f"table-game-first-{size['width']}x{size['height']}-hu")
    assert problems == {}

    # when the menu opens (on the daily's table, on its side), then its controls are 44 px too
    page.click("#menu-open")
    assert page.locator("#resign").is_visible() and page.locator("#settings-open").is_visible()
    menu_small = page.evaluate(
        """() => [...document.querySelectorAll("#more button, #more a")]
            .filter(node => node.getClientRects().length)
            .map(node => [node.id || node.textContent, node.getBoundingClientRect()])
            .filter(([, box]) => box.width < 43.5 || box.height < 43.5)
            .map(([name, box]) => `${name} ${Math.round(box.width)}x${Math.round(box.height)}`)"""
    )
    assert menu_small == []
    page.click("#menu-open")
    assert page.locator("#resign").is_hidden()
    # (and a touch elsewhere closes it too)
    page.click("#menu-open")
    page.locator("#resign").wait_for()
    page.mouse.click(5, 60)
    page.locator("#resign").wait_for(state="hidden")

    # and the felt lets a finger scroll the page (only a card keeps the finger, to drag it)
    touch = page.evaluate(
        """() => [document.getElementById("table"),
                  document.querySelector('[data-pile="tableau:1"] .card')]
            .map(node => getComputedStyle(node).touchAction)"""
    )
    assert touch == ["pan-x pan-y", "none"]
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    scrolled = page.evaluate("() => window.scrollY")
    assert scrolled > 0
    felt = page.locator("#table").bounding_box()
    x, y = felt["x"] + felt["width"] - 20, max(felt["y"], 0) + 40
    # A finger's swipe down on bare felt, as the browser's touch input gets it (CDP).
    session = context.new_cdp_session(page)
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    for step in range(1, 11):
        point = {"x": x, "y": y + 20 * step}
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("y => window.scrollY < y", arg=scrolled)
    context.close()
