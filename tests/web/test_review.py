"""The review page (R37): the replay of a finished game with its winnability strip (one mark a
step, a table as its text alternative), the jump to the step that lost the win, the solver's
winning line as a ghost replay, the spoiler-free result to share and the result card (the Open
Graph image); none of it for a daily before its day is over (R19), on a phone and a desktop."""

import re

import pytest

from tests.web.conftest import SCREENSHOTS, screenshot
from tests.web.helpers import api, sign_up, unique_name
from tests.web.test_accessibility import AXE, violations
from web.review import emoji_strip

# A daily challenge of a past date whose day is still running (ends in an hour), par 120 (exact),
# of deal 0: its player follows the solver's winning line for 40 actions, then moves the waste
# onto column 2, which loses the deal (tests/games/test_analysis.py proves both), draws and
# ends the game.
DAILY_GAME = """
import datetime as dt
from django.contrib.auth import get_user_model
from django.utils import timezone
from games import services
from games.engine import DealCode
from games.models import DailyChallenge
from tests.games.test_analysis import BAD, DEAL, TURN, solver_line
code = DealCode(DEAL, 3, 1)
challenge = DailyChallenge.objects.create(
    date=dt.date.fromisoformat("{day}"), draw=3, deal_code=str(code),
    ends_at=timezone.now() + dt.timedelta(hours=1), par=120, par_exact=True)
owner = get_user_model().objects.get(username="{name}")
game = services.game_create(owner=owner, draw=3, code=code, challenge=challenge)
for action in [*solver_line()[:TURN], BAD, {{"type": "draw"}}, {{"type": "resign"}}]:
    game = services.game_act(game=game, user=owner, action=action, expect=None)[1]
print("game:", game.pk)
print("home:", game.cards_home)
"""
DAY_OVER = """
import datetime as dt
from django.utils import timezone
from games.models import DailyChallenge
DailyChallenge.objects.filter(date="{day}", draw=3).update(
    ends_at=timezone.now() - dt.timedelta(seconds=1))
"""
ANALYSE = "from django.core.management import call_command; call_command('analyse_games')"
# Kept: the 40 actions of the line, the losing move and the draw (the resignation is no move):
# 43 positions, the first 41 winnable.
ACTIONS = 43
LOST_AT = 41
WINNABLE = [True] * 41 + [False] * 2


def printed(output: str, key: str) -> str:
    return next(line for line in output.splitlines() if line.startswith(f"{key}: "))[len(key) + 2 :]


def og(page, name: str) -> str | None:
    meta = page.locator(f'meta[property="og:{name}"]')
    return meta.get_attribute("content") if meta.count() else None


@pytest.mark.parametrize(
    "viewport",
    [{"width": 320, "height": 568}, {"width": 390, "height": 844}, {"width": 1366, "height": 768}],
    ids=["small-phone", "phone", "desktop"],
)
def test_review_of_a_daily_after_its_day(new_context, run_on_server, base_url, viewport):
    # given a player's finished daily game whose day is still running
    phone = viewport["width"] < 500
    context = new_context(
        viewport=viewport,
        has_touch=phone,
        is_mobile=phone,
        permissions=["clipboard-read", "clipboard-write"],
        bypass_csp=True,  # axe, injected as an inline script
    )
    page = context.new_page()
    name = unique_name("review")
    sign_up(page, name)
    day = f"2003-{int(viewport['width']) % 12 + 1:02d}-{len(name) % 28 + 1:02d}"
    made = run_on_server(DAILY_GAME.format(day=day, name=name))
    game_id, home = printed(made, "game"), printed(made, "home")

    # when its player opens the replay before the day is over
    page.goto(f"/replay/{game_id}")

    # then the review says it opens after the day, and nothing of the analysis or the card is
    # there: no strip, no share, no Open Graph image (and the image itself is not drawn)
    assert "once its day is over" in page.locator("#review-closed").inner_text()
    assert page.locator("#strip, #share, #review-data").count() == 0
    assert og(page, "image") is None
    assert page.request.get(f"/replay/{game_id}/card.png").status == 404
    assert api(page, "GET", f"games/{game_id}/analysis")["status"] == 409

    # when the day is over and the player looks again
    run_on_server(DAY_OVER.format(day=day))
    page.reload()

    # then the page says the analysis is being computed, and the link's card is there
    page.locator("#review-wait").wait_for()
    assert og(page, "title") == f"Canfield Club · Daily {day}"
    assert og(page, "description") == f"{home} of 52 cards home · par 120"
    image = og(page, "image")
    assert image == f"{base_url}/replay/{game_id}/card.png"
    card = page.request.get(image)
    assert card.status == 200
    assert card.headers["content-type"] == "image/png"
    assert card.body()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "max-age=" in card.headers["cache-control"] and "public" in card.headers["cache-control"]

    # when the scheduler's process computes the analysis, the page shows it by itself
    run_on_server(ANALYSE)
    page.locator("#strip").wait_for(timeout=30_000)

    # then the strip has one mark per step of the game, winnable up to the losing step
    marks = page.locator("#strip .mark")
    assert marks.count() == ACTIONS
    classes = marks.evaluate_all("marks => marks.map((mark) => mark.className)")
    assert classes == ["mark win"] * (LOST_AT - 1) + ["mark lost"] * (ACTIONS - LOST_AT + 1)
    # and its text alternative says the same in a table
    page.click(".strip-text summary")
    rows = page.locator("#strip-table tbody tr")
    assert rows.all_inner_texts() == [
        f"1–{LOST_AT - 1}\twinnable",
        f"{LOST_AT}–{ACTIONS}\tlost",
    ]
    assert "step 41" in page.locator("#review-summary").inner_text()
    # and axe finds nothing serious in the review (its table open)
    if AXE.exists():
        assert violations(page) == []

    # when the player jumps to the turn
    page.click("#jump-turn")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#review").screenshot(path=SCREENSHOTS / f"review-strip-{viewport['width']}.png")

    # then the replay shows the step that lost the win, marked on the strip and the slider
    assert page.locator("#step").inner_text() == f"{LOST_AT} / {ACTIONS}"
    assert page.locator("#step-caption").inner_text().endswith("· lost")
    assert page.locator("#strip .mark.current").get_attribute("data-step") == str(LOST_AT)
    assert page.locator("#strip-range").get_attribute("aria-valuetext") == (
        f"{LOST_AT} / {ACTIONS}: lost"
    )

    # when they show the winning line from the step before, and step through it with the
    # button and the keyboard
    page.click("#ghost-start")
    ghost = page.locator("#ghost-step")
    total = int(re.fullmatch(r"Winning line: 0 / (\d+)", ghost.inner_text())[1])
    assert page.locator("#replay.solver-line").count() == 1
    assert page.evaluate("document.activeElement.id") == "ghost-next"
    page.keyboard.press("Enter")
    assert ghost.inner_text() == f"Winning line: 1 / {total}"
    page.keyboard.press("ArrowRight")
    assert ghost.inner_text() == f"Winning line: 2 / {total}"
    assert page.locator("#ghost-caption").inner_text() != ""
    shot = f"{viewport['width']}x{viewport['height']}"
    screenshot(page, f"review-ghost-{shot}")

    # and leaving it brings the game back where it was
    page.click("#ghost-leave")
    assert page.locator("#replay.solver-line").count() == 0
    assert page.locator("#step").inner_text() == f"{LOST_AT} / {ACTIONS}"

    # when they share the result
    page.click("#share")

    # then the spoiler-free text is on the clipboard, and the page says so
    page.locator("#share-done").filter(has_text="Copied!").wait_for()
    text = page.evaluate("() => navigator.clipboard.readText()")
    assert text == "\n".join(
        [
            f"Canfield Club {day} · {home} of 52 cards home · par 120",
            emoji_strip(WINNABLE),
            f"{base_url}/replay/{game_id}",
        ]
    )
    assert len(emoji_strip(WINNABLE)) == 16


def test_the_player_page_and_the_end_dialog_lead_to_the_review(new_context, run_on_server):
    # given a player with a finished daily game whose day is over
    page = new_context().new_page()
    name = unique_name("reviewlink")
    sign_up(page, name)
    day = f"2004-{len(name) % 12 + 1:02d}-{len(name) % 28 + 1:02d}"
    game_id = printed(run_on_server(DAILY_GAME.format(day=day, name=name)), "game")
    run_on_server(DAY_OVER.format(day=day))

    # when they open their game at the table, its end dialog links to the review
    page.goto(f"/play/{game_id}")
    page.locator("#win").wait_for(state="visible")
    assert page.locator("#win-review").get_attribute("href") == f"/replay/{game_id}"

    # and their player page has a review link for it
    page.goto(f"/players/{name}")
    assert page.locator(f'a[href="/replay/{game_id}"]').first.inner_text() == "Review"
