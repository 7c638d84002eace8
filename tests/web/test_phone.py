"""A narrow phone in Hungarian: covered cards keep their whole index (rank and suit) readable,
the page does not overflow sideways, and the spoken description follows every action."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, easy_deck, sign_up, unique_name, wait_for_moves

SMALL_PHONE = {"width": 360, "height": 740}


def fan_deck() -> list[str]:
    """The easy deck with column 1 = 9S and the first 3-card draw 10H, 10C, 8H (8H on top),
    so that two tens lie covered in the fan and 8H can go onto the 9S."""
    deck = easy_deck()
    for position, card in {14: "9S", 18: "10H", 19: "10C", 20: "8H"}.items():
        other = deck.index(card)
        deck[position], deck[other] = deck[other], deck[position]
    return deck


def covered_index_overlaps(page, pile: str, axis: str) -> list[str]:
    """Covered cards of a pile whose corner rank or suit reaches under the next card."""
    return page.evaluate(
        """([pile, axis]) => {
            const cards = [...document.querySelectorAll(`[data-pile="${pile}"] .card.face`)];
            const bad = [];
            cards.slice(0, -1).forEach((card, i) => {
                const next = cards[i + 1].getBoundingClientRect();
                const parts = card.querySelectorAll(".corner.tl .rank, .corner.tl .suit");
                if (parts.length !== 2) bad.push(card.dataset.card + " has no rank and suit");
                for (const part of parts) {
                    const box = part.getBoundingClientRect();
                    const over = axis === "x" ? box.right > next.left : box.bottom > next.top;
                    if (over || box.width === 0) bad.push(card.dataset.card + " " + part.className);
                }
            });
            return bad;
        }""",
        [pile, axis],
    )


def description_is_current(page, game_id: str) -> None:
    """The aria-live region holds the server's Hungarian text for the state now shown."""
    page.wait_for_function(
        "() => { const d = document.getElementById('description');"
        " return d.dataset.moves === document.getElementById('moves').textContent; }"
    )
    expected = api(page, "GET", f"games/{game_id}/text?lang=hu")["body"]["text"]
    assert page.locator("#description").inner_text() == expected


def test_small_phone_in_hungarian(new_context):
    # given a Hungarian player on a 360 px wide phone, on a 3-card custom deal
    page = new_context(
        viewport=SMALL_PHONE, locale="hu-HU", has_touch=True, is_mobile=True
    ).new_page()
    sign_up(page, unique_name("phone"))
    screenshot(page, "home-phone")
    game_id = api(page, "POST", "games", {"deck": fan_deck(), "draw": 3})["body"]["id"]

    # when the table is opened, then the description is there, in Hungarian
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="9S"]')
    assert page.locator("html").get_attribute("lang") == "hu"
    description_is_current(page, game_id)
    assert page.locator("#description").inner_text().startswith("Húzópakli: 34 lap")

    # when the player draws three
    page.tap('[data-pile="stock"]')
    wait_for_moves(page, 1)

    # then the two covered tens show rank and suit clear of the card above them
    fan = page.locator('[data-pile="waste"] .card.face')
    assert fan.evaluate_all("cards => cards.map(c => c.dataset.card)") == ["10H", "10C", "8H"]
    assert covered_index_overlaps(page, "waste", "x") == []
    description_is_current(page, game_id)

    # when 8H is tapped onto the 9S
    page.tap('[data-pile="waste"] [data-card="8H"]')
    wait_for_moves(page, 2)

    # then the covered 9S in the column shows its whole index too, and the text followed
    assert page.locator('[data-pile="tableau:1"] [data-card="8H"]').count() == 1
    assert covered_index_overlaps(page, "tableau:1", "y") == []
    description_is_current(page, game_id)

    # and nothing sticks out sideways on this narrow screen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    screenshot(page, "table-phone-360")

    # when the player undoes, then the description is back to that state's text
    page.click("#undo")
    wait_for_moves(page, 3)
    assert page.locator('[data-pile="tableau:1"] [data-card="8H"]').count() == 0
    description_is_current(page, game_id)
