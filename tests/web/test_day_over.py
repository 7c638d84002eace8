"""R26a at the table: a daily game still open when its day ends shows as over, with a line that
says why, without the player having to move; and R35: a daily game held for review says so."""

import datetime as dt
import secrets

from tests.web.helpers import api, sign_up, unique_name

DAY_OVER = "The day is over: this game ended at midnight."
HELD = "Held for a fair-play review: off the public boards until staff have looked at it."
PROVISIONAL = "Provisional: listed apart from the ranks until this account is in good standing."


def test_a_daily_game_open_at_the_end_of_its_day_shows_as_over(new_context, run_on_server):
    # given a player on a daily game whose day ends in a few seconds (a day of its own, so that
    # no other test's daily moves)
    page = new_context().new_page()
    name = unique_name("midnight")
    sign_up(page, name)
    date = dt.date(2000, 1, 1) + dt.timedelta(days=secrets.randbelow(9000))
    game_id = run_on_server(
        "import datetime as dt\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from games.engine import DealCode\n"
        "from games.services import game_create\n"
        "from games.days import day_deal\n"
        "from games.models import DailyChallenge\n"
        f"date = dt.date.fromisoformat('{date}')\n"
        "challenge = DailyChallenge.objects.create(date=date, draw=3, attempt=0,\n"
        "    deal_code=str(day_deal(date, 3)), ends_at=timezone.now() + dt.timedelta(seconds=3))\n"
        f"owner = get_user_model().objects.get(username='{name}')\n"
        "code = DealCode.parse(challenge.deal_code)\n"
        "print(game_create(owner=owner, code=code, challenge=challenge).pk)\n"
    ).split()[-1]

    # when the table is open at the end of the day
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="stock"] .card')

    # then it shows the game over, and why, once the day is over (at load, or when it ends)
    page.locator("#win").wait_for(state="visible", timeout=30_000)
    assert page.locator("#win-title").inner_text() == "Game over"
    assert page.locator("#win-reason").inner_text() == DAY_OVER
    page.click("#win-close")
    assert page.locator("#status").inner_text() == "Day over · 1 of 52 cards home"
    assert page.locator("#message").inner_text() == DAY_OVER
    assert page.locator("#resign").is_disabled() and page.locator("#undo").is_disabled()
    ended = api(page, "GET", f"games/{game_id}")["body"]
    assert (ended["status"], ended["end_reason"], ended["moves"]) == ("resigned", "day_over", 0)
    # and the stock no longer draws
    page.click('[data-pile="stock"]')
    page.wait_for_timeout(300)  # a wrongly sent draw would have come back by now
    assert page.locator("#moves").inner_text() == "0"

    # and the player page lists it as ended by its day
    page.goto(f"/players/{name}")
    row = page.locator("tr", has=page.locator(f'a[href="/replay/{game_id}"]'))
    row.wait_for()
    assert "Day over" in row.inner_text()


def test_a_daily_game_held_for_review_tells_its_owner_at_the_table(new_context, run_on_server):
    # given a player's finished daily game that the fair-play review held (R35)
    page = new_context().new_page()
    sign_up(page, unique_name("held"))
    game = api(page, "POST", "games", {"daily": True})["body"]
    assert api(page, "POST", f"games/{game['id']}/actions", {"type": "resign"})["status"] == 200
    run_on_server(
        "from games.models import Game\n"
        "from leaderboard.services import entry_hold\n"
        f"assert entry_hold(game=Game.objects.get(pk='{game['id']}'))\n"
    )

    # when the player opens it
    page.goto(f"/play/{game['id']}")

    # then the end dialog says it is held, instead of a rank
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-rank").inner_text() == HELD
    assert api(page, "GET", f"games/{game['id']}")["body"]["daily"]["review"] == "held"


def test_a_provisional_daily_game_says_so_at_the_table(new_context, run_on_server):
    # given a new account whose daily game was dealt while R36's minimum games applied (the
    # test server runs with them off: tests/settings.py), resigned
    page = new_context().new_page()
    name = unique_name("newbie")
    sign_up(page, name)
    run_on_server(
        "from django.contrib.auth import get_user_model\n"
        "from django.test import override_settings\n"
        "from leaderboard.services import daily_game_get_or_create\n"
        f"player = get_user_model().objects.get(username='{name}')\n"
        "with override_settings(RANKED_MIN_GAMES=3):\n"
        "    daily_game_get_or_create(player=player, draw=3)\n"
    )
    game = api(page, "POST", "games", {"daily": True, "draw": 3})["body"]
    assert api(page, "POST", f"games/{game['id']}/actions", {"type": "resign"})["status"] == 200

    # when the player opens it
    page.goto(f"/play/{game['id']}")

    # then the end dialog says it is provisional, instead of a rank
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-rank").inner_text() == PROVISIONAL
