"""R36 on the board page: a provisional entry (an account not in good standing) is shown in a
"Provisional" section apart from the ranks, on the board of its population only."""

from tests.web.conftest import screenshot
from tests.web.helpers import api, unique_name

# Today's 3-card daily for a ranked account and for one made while R36's minimum games apply
# (the test server runs with them off: tests/settings.py).
PLAYERS = """
from django.contrib.auth import get_user_model
from django.test import override_settings
from leaderboard.services import daily_game_get_or_create
users = get_user_model().objects
daily_game_get_or_create(player=users.create_user("{ranked}"), draw=3)
with override_settings(RANKED_MIN_GAMES=3):
    daily_game_get_or_create(player=users.create_user("{provisional}"), draw=3)
"""


def rows(page, selector: str) -> list[str]:
    return page.evaluate(
        f"() => [...document.querySelectorAll('{selector} tr')].map((row) => row.dataset.player)"
    )


def test_the_board_page_shows_provisional_entries_apart(new_context, run_on_server):
    # given: a ranked and a provisional entry on today's 3-card board
    ranked, provisional = unique_name("ranked"), unique_name("newbie")
    run_on_server(PLAYERS.format(ranked=ranked, provisional=provisional))
    page = new_context().new_page()
    page.goto("/")
    today = api(page, "GET", "daily")["body"]["date"]

    # when: a visitor opens the board
    page.goto(f"/daily/{today}/3/")
    page.locator("#live-status .live-dot.on").wait_for()

    # then: the provisional entry is in its own section, without a rank; the ranked one is not
    section = page.locator("#provisional")
    assert section.is_visible()
    assert section.locator("h2").inner_text() == "Provisional"
    page.locator(f'#provisional-rows tr[data-player="{provisional}"]').wait_for()
    assert ranked not in rows(page, "#provisional-rows")
    assert provisional not in rows(page, "#board-rows")
    page.locator(f'#board-rows tr[data-player="{ranked}"]').wait_for()
    row = page.locator(f'#provisional-rows tr[data-player="{provisional}"]')
    assert row.locator("td").first.inner_text() == provisional  # no rank column
    screenshot(page, "leaderboard-provisional")

    # when: the visitor turns to the bots' board, which has no provisional entry
    page.click("#tab-bots")

    # then: the section goes, and comes back with the people's board
    section.wait_for(state="hidden")
    page.click("#tab-people")
    section.wait_for(state="visible")
    page.locator(f'#provisional-rows tr[data-player="{provisional}"]').wait_for()


def test_the_provisional_section_speaks_the_pages_language(new_context, run_on_server):
    # given: a provisional entry on today's board
    ranked, provisional = unique_name("ranked"), unique_name("newbie")
    run_on_server(PLAYERS.format(ranked=ranked, provisional=provisional))

    # when: Hungarian and Polish visitors open the board
    for lang, word in (("hu", "Ideiglenes"), ("pl", "Tymczasowe")):
        page = new_context(locale=lang, extra_http_headers={"Accept-Language": lang}).new_page()
        page.goto("/")
        today = api(page, "GET", "daily")["body"]["date"]
        page.goto(f"/daily/{today}/3/")

        # then: the section's title is in their language
        assert page.locator("#provisional h2").inner_text() == word
