"""The table fits the screen it is on: the card size setting keeps a card's shape (1.4 times
as tall as wide) on desktops and phones, and a long column squeezes to end above the bottom of
the screen (or of a phone's button bar) instead of running off it."""

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import RANKS, SUITS, api, sign_up, unique_name

# (width, height, is a phone: touch, a button bar at the bottom)
DESKTOP = (1366, 768, False)
SIDEWAYS = (844, 390, True)
UPRIGHT = (390, 844, True)

# Base AD; column 1 starts with KS and the reserve, top first, holds QH JS 10H ... 3S: ten moves
# from the reserve build an eleven-card column (R5: reserve bottom first, base, four columns,
# then the stock).
RESERVE_TOP_FIRST = ["QH", "JS", "10H", "9S", "8H", "7S", "6H", "5S", "4H", "3S", "2C", "3C", "4C"]
COLUMNS = ["KS", "2D", "5D", "9D"]


def long_column_deck() -> list[str]:
    used = {"AD", *RESERVE_TOP_FIRST, *COLUMNS}
    stock = [rank + suit for rank in RANKS for suit in SUITS if rank + suit not in used]
    deck = list(reversed(RESERVE_TOP_FIRST)) + ["AD"] + COLUMNS + stock
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def phone_context(new_context, size):
    width, height, phone = size
    return new_context(
        viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone
    )


def card_box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def open_game(page, deck=None) -> str:
    sign_up(page, unique_name("fit"))
    body = {"deck": deck or long_column_deck(), "draw": 1}
    game_id = api(page, "POST", "games", body)["body"]["id"]
    return game_id


def choose_size(page, size: str) -> None:
    page.evaluate("size => localStorage.setItem('size', size)", size)


@pytest.mark.parametrize(
    "screen", [DESKTOP, SIDEWAYS, UPRIGHT], ids=["1366x768", "844x390", "390x844"]
)
def test_the_card_size_setting_keeps_the_cards_shape_and_changes_their_size(new_context, screen):
    page = phone_context(new_context, screen).new_page()
    game_id = open_game(page)
    widths = {}
    for size in ("small", "medium", "large"):
        choose_size(page, size)
        page.goto(f"/play/{game_id}")
        page.wait_for_selector('[data-pile="tableau:1"] [data-card="KS"]')
        box = card_box(page, '[data-pile="tableau:1"] [data-card="KS"]')
        assert box["height"] / box["width"] == pytest.approx(1.4, abs=0.03), (size, box)
        widths[size] = box["width"]
        # Whatever the size, the table never makes the page scroll sideways.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), size
    assert widths["small"] < widths["medium"], widths
    if screen is UPRIGHT:
        # Upright, medium cards already take the phone's whole width: large cannot be wider.
        assert widths["large"] == pytest.approx(widths["medium"], abs=0.5), widths
    else:
        assert widths["large"] > widths["medium"], widths


def test_changing_the_card_size_in_settings_redraws_the_table(new_context):
    page = phone_context(new_context, DESKTOP).new_page()
    game_id = open_game(page)
    page.goto(f"/play/{game_id}")
    card = '[data-pile="tableau:1"] [data-card="KS"]'
    page.wait_for_selector(card)
    medium = card_box(page, card)
    page.click("#settings-open")
    page.select_option("#look-size", "large")
    page.wait_for_function(
        "([selector, width]) =>"
        " document.querySelector(selector).getBoundingClientRect().width > width",
        arg=[card, medium["width"]],
    )
    large = card_box(page, card)
    assert large["height"] / large["width"] == pytest.approx(1.4, abs=0.03)
    assert large["height"] > medium["height"]


def build_long_column(page, game_id: str) -> None:
    for _ in range(10):
        result = api(
            page,
            "POST",
            f"games/{game_id}/actions",
            {"type": "move", "from": "reserve", "to": "tableau:1"},
        )
        assert result["status"] == 200, result


@pytest.mark.parametrize(
    "screen", [DESKTOP, SIDEWAYS, UPRIGHT], ids=["1366x768", "844x390", "390x844"]
)
def test_a_long_column_ends_above_the_bottom_of_the_screen(new_context, screen):
    page = phone_context(new_context, screen).new_page()
    game_id = open_game(page)
    build_long_column(page, game_id)
    page.goto(f"/play/{game_id}")
    last = page.locator('[data-pile="tableau:1"] [data-card="3S"]')
    last.wait_for()
    column = page.locator('[data-pile="tableau:1"] .card')
    assert column.count() == 11
    bottom = page.evaluate(
        """() => {
            const bar = document.querySelector(".hud > .controls");
            const fixed = getComputedStyle(bar).position === "fixed";
            return fixed ? bar.getBoundingClientRect().top : window.innerHeight;
        }"""
    )
    if screen is SIDEWAYS:
        # Two rows of cards take most of a phone's height on its side: the column squeezes as
        # far as its cards stay readable, and the page scrolls the rest of it above the bar.
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        bottom_now = page.evaluate(
            "document.querySelector('[data-card=\"3S\"]').getBoundingClientRect().bottom"
        )
        assert bottom_now <= bottom, (bottom_now, bottom)
    else:
        assert page.evaluate("window.scrollY") == 0
        box = last.bounding_box()
        assert box["y"] + box["height"] <= bottom, (box, bottom)
    # The last card shows whole and every covered card shows its corner's strip.
    tops = [column.nth(i).bounding_box()["y"] for i in range(11)]
    steps = [b - a for a, b in zip(tops, tops[1:], strict=False)]
    assert min(steps) >= 10, steps
    screenshot(page, f"long-column-{screen[0]}x{screen[1]}")


@pytest.mark.parametrize("lang", ["pl", "hu"])
def test_how_a_game_ended_shows_whole_on_a_320px_phone(new_context, lang):
    context = new_context(
        viewport={"width": 320, "height": 568},
        has_touch=True,
        is_mobile=True,
        locale={"pl": "pl-PL", "hu": "hu-HU"}[lang],
    )
    page = context.new_page()
    game_id = open_game(page)
    api(page, "POST", f"games/{game_id}/actions", {"type": "draw"})
    api(page, "POST", f"games/{game_id}/actions", {"type": "resign"})
    page.goto(f"/play/{game_id}")
    status = page.locator("#status")
    status.wait_for()
    page.locator("#win-close").click()
    assert "52" in status.inner_text()
    box = status.bounding_box()
    figures = page.locator(".figures").bounding_box()
    # Not cut off: inside the header's figures and the screen, its words not clipped.
    assert (
        box["x"] >= 0 and box["x"] + box["width"] <= min(320, figures["x"] + figures["width"]) + 0.5
    )
    assert status.evaluate("node => node.scrollWidth <= node.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_settings_check_boxes_are_44px_touch_targets(new_context):
    page = phone_context(new_context, UPRIGHT).new_page()
    game_id = open_game(page)
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="KS"]')
    page.click("#menu-open")
    page.click("#settings-open")
    for box in ("#double-click", "#sound"):
        line = page.locator(f"label.check:has({box})")
        size = line.bounding_box()
        assert size["height"] >= 44 and size["width"] >= 44, (box, size)
        # The whole line is the target: a tap beside the box (on its words) toggles it.
        before = page.locator(box).is_checked()
        line.tap(position={"x": size["width"] - 4, "y": size["height"] - 4})
        assert page.locator(box).is_checked() != before, box
