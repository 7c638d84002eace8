"""The archive (/daily/) and the streak on the player page in Chromium, on a phone (390x844)
and a desktop (1366x768), against a server whose clock is set (tests/web/clocked.py): its
today is 2031-03-12, and the dailies are written in its database on fixed dates before it."""

import json

import pytest

from tests.web.conftest import TIPS_SEEN, asgi_server, screenshot
from tests.web.helpers import api, sign_up, unique_name

NOW = "2031-03-12T12:00:00+00:00"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}


@pytest.fixture(scope="module")
def clocked_url(base_url, server_env, tmp_path_factory):
    """The project served with its clock at NOW, on the browser tests' database (migrated for
    `base_url`'s server)."""
    log = tmp_path_factory.mktemp("clocked-log") / "server.log"
    with asgi_server(server_env, log, clock=NOW) as url:
        yield url


@pytest.fixture
def clocked_page(browser, clocked_url):
    """A page of a new browser context on the clocked server, in that viewport."""
    contexts = []

    def make(viewport):
        context = browser.new_context(
            base_url=clocked_url, viewport=viewport, locale="en-US", reduced_motion="reduce"
        )
        context.add_init_script(TIPS_SEEN)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def write(run_on_server, name: str, lines: str) -> dict:
    """Runs `lines` on the server's database with `player` (the account `name`), `day` (a date
    from text) and the helpers of tests/leaderboard/dailies.py; returns what they put in
    `out`, as JSON."""
    return json.loads(
        run_on_server(
            "import datetime as dt, json\n"
            "from django.contrib.auth import get_user_model\n"
            "from tests.leaderboard.dailies import challenge_on, daily_finished\n"
            f"player = get_user_model().objects.get(username={name!r})\n"
            "day = dt.date.fromisoformat\n"
            "out = {}\n"
            f"{lines}\n"
            "print(json.dumps(out))\n"
        )
        .strip()
        .splitlines()[-1]
    )


@pytest.mark.parametrize("device", VIEWPORTS)
def test_archive_goes_through_months_and_deals_a_past_day_for_practice(
    clocked_page, run_on_server, device
):
    # given: a player who played the 10th; boards on the 10th, on today (the 12th) and in
    # February
    page = clocked_page(VIEWPORTS[device])
    name = unique_name("archive")
    sign_up(page, name)
    written = write(
        run_on_server,
        name,
        "mine = daily_finished(player, day('2031-03-10'), par=90)\n"
        "challenge_on(day('2031-03-10'), draw=1)\n"
        "challenge_on(day('2031-02-14'))\n"
        "out['past'] = mine.challenge.deal_code\n"
        "out['game'] = str(mine.game_id)\n"
        "out['today'] = [challenge_on(day('2031-03-12'), draw).deal_code for draw in (3, 1)]\n",
    )

    # when the archive opens on this month
    page.goto("/daily/")

    # then: the month as a table, today linked to its live board, today's deals nowhere
    assert page.locator("#month caption").inner_text() == "March 2031"
    today = page.locator('td[data-date="2031-03-12"] a')
    assert today.get_attribute("href") == "/daily/2031-03-12/3/"
    assert all(code not in page.content() for code in written["today"])
    assert page.locator("#day-2031-03-12").count() == 0
    # the page fits the screen (no sideways scrolling), the smallest phone's too
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"archive-{device}")
    if device == "phone":
        page.set_viewport_size({"width": 320, "height": 568})
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, "archive-320")

    # when going back a month and forth again
    page.click("#month-prev")
    page.wait_for_url("**/daily/?month=2031-02")
    assert page.locator("#month caption").inner_text() == "February 2031"
    assert page.locator('td[data-date="2031-02-14"].past a').count() == 1
    page.click("#month-next")
    page.wait_for_url("**/daily/?month=2031-03")

    # then the 10th, marked as played, leads to its boards, the player's game and a practice
    page.click('td[data-date="2031-03-10"].mine a')
    day = page.locator("#day-2031-03-10")
    assert day.locator(".my-game").get_attribute("href") == f"/replay/{written['game']}"
    assert day.locator('a[href="/daily/2031-03-10/1/"]').count() == 1
    practice = day.locator('[data-draw="3"] button.practice')
    practice.scroll_into_view_if_needed()
    assert practice.is_visible()

    # when the player practises that day's 3-card deal
    practice.click()
    page.wait_for_url("**/play/*")
    page.wait_for_selector('[data-pile="tableau:1"] .card')

    # then it is that deal, dealt as an unranked practice game
    game = api(page, "GET", f"games/{page.url.rsplit('/', 1)[1]}")["body"]
    assert game["code"] == written["past"] and game["daily"] is None


@pytest.mark.parametrize("device", VIEWPORTS)
def test_three_days_of_dailies_make_a_streak_of_three(clocked_page, run_on_server, device):
    # given a player who finished a daily on the 10th, the 11th and today, the 12th (won)
    page = clocked_page(VIEWPORTS[device])
    name = unique_name("streak")
    sign_up(page, name)
    write(
        run_on_server,
        name,
        "daily_finished(player, day('2031-03-10'), par=90, moves=96)\n"
        "daily_finished(player, day('2031-03-11'), par=90, moves=91)\n"
        "noon = dt.datetime(2031, 3, 12, 11, tzinfo=dt.UTC)\n"
        "daily_finished(player, day('2031-03-12'), par=90, moves=99, finished_at=noon)\n",
    )

    # when their page is opened
    page.goto(f"/players/{name}")

    # then: a streak of three, the best too, in words and in the heat map
    streak = page.locator("#streak")
    assert streak.locator('[data-stat="current"]').inner_text() == "3 days"
    assert streak.locator('[data-stat="best"]').inner_text() == "3 days"
    assert page.locator("#heat-map rect.heat-2").count() == 3
    # the moves against par of the days over (the 10th and 11th: today's par is not shown)
    assert page.locator("#par-chart circle.dot").count() == 2
    # each chart's figures as a table too
    page.click("#player-history details:first-of-type summary")
    rows = page.locator("#heat-table tbody tr")
    assert [rows.nth(i).get_attribute("data-date") for i in range(3)] == [
        "2031-03-10",
        "2031-03-11",
        "2031-03-12",
    ]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"streak-{device}")
    # and the API says the same
    stats = api(page, "GET", f"players/{name}/stats")["body"]
    assert stats["streak"] == {"current": 3, "best": 3}
