"""The archive page (/daily/, a month of dailies) and the player page's streaks and history,
rendered by the server: these tests read the HTML (tests/web/test_archive.py drives them in
Chromium)."""

import datetime as dt
import re

import pytest
import time_machine

from games.days import day_deal
from tests.leaderboard.dailies import challenge_on, daily_finished

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 11, 29)


@pytest.fixture
def clock(db):
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


def test_archive_shows_past_deals_and_never_todays(clock, client, user):
    # given: the 27th and today with both boards, the signed-in player's daily on the 27th
    mine = daily_finished(user, dt.date(2026, 11, 27))
    challenge_on(dt.date(2026, 11, 27), draw=1)
    for draw in (3, 1):
        challenge_on(TODAY, draw)
    client.force_login(user)

    # when
    html = client.get("/daily/").content.decode()

    # then: the month's table, the 27th linked to its entry, today to its board
    assert '<caption id="month-caption">November 2026</caption>' in html
    assert re.search(
        r'<td data-date="2026-11-27" class="past mine"><a href="#day-2026-11-27">', html
    )
    assert '<td data-date="2026-11-29" class="today"><a href="/daily/2026-11-29/3/">' in html
    # the 27th's two deals to practise, the player's own game, and its boards
    assert f'data-code="{day_deal(dt.date(2026, 11, 27), 3)}"' in html
    assert f'data-code="{day_deal(dt.date(2026, 11, 27), 1)}"' in html
    assert f'href="/replay/{mine.game_id}"' in html
    assert 'href="/daily/2026-11-27/1/"' in html
    # today's deals never
    for draw in (3, 1):
        assert str(day_deal(TODAY, draw)) not in html
    assert 'id="day-2026-11-29"' not in html


def test_archive_months_go_back_to_the_first_daily_and_not_past_today(clock, client, db):
    challenge_on(dt.date(2026, 9, 30))

    november = client.get("/daily/").content.decode()
    september = client.get("/daily/", {"month": "2026-09"}).content.decode()

    assert 'href="?month=2026-10" rel="prev"' in november and 'rel="next"' not in november
    assert 'rel="prev"' not in september and 'href="?month=2026-10" rel="next"' in september
    assert (
        "No past daily challenge this month."
        in client.get("/daily/?month=2026-10").content.decode()
    )
    for month in ("2026-12", "2026-13", "nope"):
        assert client.get("/daily/", {"month": month}).status_code == 404


def test_archive_asks_a_visitor_to_log_in_to_practise(clock, client, db):
    challenge_on(dt.date(2026, 11, 28))

    html = client.get("/daily/?month=2026-11").content.decode()

    assert "Log in to practise this deal" in html and 'class="practice"' not in html


def test_player_page_draws_the_streak_heat_map_and_charts_with_tables(clock, client, user):
    # given three days running up to yesterday, won against a par
    for day in (26, 27, 28):
        daily_finished(user, dt.date(2026, 11, day), moves=100 + day, par=100)

    # when
    html = client.get(f"/players/{user.username}").content.decode()

    # then: the streak's numbers, and each chart an image with a title, a description and
    # the same figures as a table
    assert re.search(r'data-stat="current" data-value="3">3 days<', html)
    assert re.search(r'data-stat="best" data-value="3">3 days<', html)
    for chart in ("heat", "win", "par"):
        assert f'aria-labelledby="{chart}-title {chart}-desc"' in html
    assert html.count('class="heat-3"') == 0 and html.count('class="heat-2"') == 3
    assert '<tr data-date="2026-11-28"><td>2026-11-28</td><td>3 cards (Hard)</td>' in html
    assert html.count('class="dot"') == 3 and "+28" in html


def test_a_board_links_to_its_month_in_the_archive(clock, client, db):
    challenge_on(dt.date(2026, 11, 20))

    html = client.get("/daily/2026-11-20/3/").content.decode()

    assert 'href="/daily/?month=2026-11" id="archive-link"' in html
