"""A board longer than one page: ranks continue on page 2 with the player's own row marked, a
daily game's end screen gives the player's rank on the whole board, and both pages keep
showing exactly the board's rows while entries move between them."""

import json
import re
import time
import urllib.request

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import api, sign_up, unique_name, wait_for_moves

PAGE_SIZE = 50

# 52 players open today's 1-card daily and leave it untouched (0 moves); their API tokens let
# a test act for them. The 3-card board is left to the other tests.
CROWD = """
from django.contrib.auth import get_user_model
from accounts.services import key_create
from leaderboard.services import daily_game_get_or_create
for i in range(52):
    user = get_user_model().objects.create_user("{prefix}%02d" % i)
    daily_game_get_or_create(player=user, draw=1)
    print("crowd:", user.username, key_create(user=user, name="crowd")[1])
"""
LINE = """
import json
from games.days import day_today
from games.models import DailyChallenge
print("line:", json.dumps(DailyChallenge.objects.get(date=day_today(), draw=1).line))
"""


@pytest.fixture(scope="module")
def crowd(run_on_server) -> dict[str, str]:
    """The players of today's 1-card board set up for this module: name -> API token. The
    board is this module's alone: every other test on the worker's server (tests/conftest.py)
    plays its daily games at draw 3."""
    output = run_on_server(CROWD.format(prefix=unique_name("crowd")))
    return dict(line.split()[1:] for line in output.splitlines() if line.startswith("crowd: "))


def board(page, date: str, number: int) -> dict:
    return api(page, "GET", f"daily/{date}/leaderboard?draw=1&page={number}")["body"]


def board_rank(page, date: str, name: str) -> tuple[int, int]:
    number = 1
    while True:
        found = board(page, date, number)
        for entry in found["results"]:
            if entry["player"] == name:
                return entry["rank"], found["count"]
        assert found["next"], f"{name} is not on the board"
        number += 1


def shown(page) -> list[tuple[int, str]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#board-rows tr')].map(
            (row) => [Number(row.cells[0].innerText), row.dataset.player])"""
    )


def wait_for_board(page, date: str, number: int, timeout: float = 10.0) -> list[tuple[int, str]]:
    """Waits until the live page shows exactly the board's page `number` as the API has it now
    (ranks and players, in order); returns those rows."""
    deadline = time.monotonic() + timeout
    while True:
        expected = [[e["rank"], e["player"]] for e in board(page, date, number)["results"]]
        rows = shown(page)
        live = page.locator("#live-status .live-dot.on").count() == 1
        if live and rows == expected and page.locator("#page-number").inner_text() == str(number):
            return [tuple(row) for row in rows]
        assert time.monotonic() < deadline, f"page {number} shows {rows}, the API {expected}"
        page.wait_for_timeout(100)


def act(base_url: str, token: str, game: str, action: dict) -> dict:
    request = urllib.request.Request(
        f"{base_url}/api/v1/games/{game}/actions",
        data=json.dumps(action).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["game"]


def test_board_page_two_and_the_daily_end_screens_rank(new_context, crowd):
    # given more players on today's 1-card board than one page holds, and a player behind them
    page = new_context().new_page()
    name = unique_name("pager")
    sign_up(page, name)
    page.click('.play-daily[data-draw="1"]')
    page.wait_for_url("**/play/**")
    page.wait_for_selector('[data-pile="stock"] .card')
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)
    today = api(page, "GET", "daily")["body"]["date"]
    rank, count = board_rank(page, today, name)
    assert PAGE_SIZE < rank <= count <= 2 * PAGE_SIZE  # one move behind the 0-move players

    # when the player opens the board and goes to its second page
    game_url = page.url
    page.goto(f"/daily/{today}/1/")
    first = wait_for_board(page, today, 1)
    page.click("#next-page")
    second = wait_for_board(page, today, 2)

    # then ranks run on from the first page, and the player's own row is the highlighted one
    assert [rank for rank, _ in first] == list(range(1, PAGE_SIZE + 1))
    assert [rank for rank, _ in second] == list(range(PAGE_SIZE + 1, count + 1))
    assert page.locator("#board-rows tr.mine").count() == 1
    assert page.locator("#board-rows tr.mine").get_attribute("data-player") == name
    assert page.locator("#board-rows tr.mine td:first-child").inner_text() == str(rank)
    assert "page=2" in page.url
    screenshot(page, "leaderboard-page-2")

    # when the player goes back to the daily game and resigns it
    page.goto(game_url)
    page.wait_for_selector('[data-pile="stock"] .card')
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")

    # then the end screen gives the figures and the rank on the whole board, as the board has it
    rank_line = page.locator("#win-rank")
    rank_line.filter(has_text=re.compile(r"\d")).wait_for()
    rank, count = board_rank(page, today, name)
    assert rank_line.inner_text() == f"Your rank on today's board: {rank} of {count}"
    assert page.locator("#win-board").get_attribute("href") == f"/daily/{today}/1/"
    screenshot(page, "daily-end-screen")

    # and the board says how far the ended game got, never "Resigned"
    home = page.locator("#win-home").inner_text()
    assert home.endswith(" of 52 cards home")
    page.goto(f"/daily/{today}/1/?page={1 if rank <= PAGE_SIZE else 2}")
    row = page.locator(f'#board-rows tr[data-player="{name}"]')
    row.wait_for()
    assert home in row.inner_text() and "Resigned" not in row.inner_text()


def test_entries_moving_between_pages_while_both_are_watched(
    new_context, crowd, run_on_server, base_url
):
    # given the first and the second page of today's 1-card board open in two browsers
    first = new_context().new_page()
    first.goto("/")
    today = api(first, "GET", "daily")["body"]["date"]
    first.goto(f"/daily/{today}/1/")
    second = new_context().new_page()
    second.goto(f"/daily/{today}/1/?page=2")
    wait_for_board(first, today, 1)
    wait_for_board(second, today, 2)

    # when the leader, one of the crowd, draws a card: one move behind every 0-move player
    leader = board(first, today, 1)["results"][0]
    assert leader["player"] in crowd and leader["moves"] == 0
    act(base_url, crowd[leader["player"]], leader["game"], {"type": "draw", "expect": 0})

    # then the first page loses it and takes the next row up from the second page, which
    # shows it with its new rank
    now_first = wait_for_board(first, today, 1)
    now_second = wait_for_board(second, today, 2)
    assert leader["player"] not in {player for _, player in now_first}
    assert leader["player"] in {player for _, player in now_second}
    assert len(now_first) == PAGE_SIZE

    # when a player of the second page plays the daily's winning line up to its first card on a
    # foundation (the only score on the board)
    climber = board(second, today, 2)["results"][0]
    assert climber["player"] in crowd and climber["score"] == 0
    token = crowd[climber["player"]]
    moves = climber["moves"]
    line = next(text for text in run_on_server(LINE).splitlines() if text.startswith("line: "))
    for action in json.loads(line.removeprefix("line: ")):
        game = act(base_url, token, climber["game"], {**action, "expect": moves})
        moves = game["moves"]
        if game["score"] > 0:
            break
    assert game["score"] > 0

    # then it leads the first page, which pushes its last row down to the second page, and the
    # second page no longer shows it
    now_first = wait_for_board(first, today, 1)
    now_second = wait_for_board(second, today, 2)
    assert now_first[0] == (1, climber["player"])
    assert climber["player"] not in {player for _, player in now_second}
    assert now_second[0][0] == PAGE_SIZE + 1
