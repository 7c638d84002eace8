"""A board longer than one page: ranks continue on page 2 with the player's own row marked,
and a daily game's end screen gives the player's rank on the whole board."""

import re

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import api, sign_up, unique_name, wait_for_moves

PAGE_SIZE = 50

# 52 players open today's 1-card daily and leave it untouched (0 moves). The 3-card board is
# left to the other tests.
BULK = """
from django.contrib.auth import get_user_model
from leaderboard.services import daily_game_get_or_create
for i in range(52):
    user = get_user_model().objects.create_user("{prefix}%02d" % i)
    daily_game_get_or_create(player=user, draw=1)
"""


def board_rank(page, date: str, name: str) -> tuple[int, int]:
    number = 1
    while True:
        board = api(page, "GET", f"daily/{date}/leaderboard?draw=1&page={number}")["body"]
        for entry in board["results"]:
            if entry["player"] == name:
                return entry["rank"], board["count"]
        assert board["next"], f"{name} is not on the board"
        number += 1


@pytest.mark.skip(
    reason="open defect (issue 11): a live batch can leave stale ranks on board pages 1 and 2"
)
def test_board_page_two_and_the_daily_end_screens_rank(new_context, run_on_server):
    # given more players on today's 1-card board than one page holds, and a player behind them
    run_on_server(BULK.format(prefix=unique_name("bulk")))
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
    # The bulk players were written by another process: a live board already open in the
    # embedded mode's server learns of them from the next batch, which this move's tick brings
    # (at most a second later) with a fresh snapshot.
    page.wait_for_timeout(2500)
    page.goto(f"/daily/{today}/1/")
    first_ranks = page.wait_for_function(
        """() => {
            const cells = document.querySelectorAll('#board-rows tr td:first-child');
            const live = document.querySelector('#live-status .live-dot.on');
            return live && cells.length === 50 ? [...cells].map((cell) => cell.innerText) : null;
        }"""
    ).json_value()
    page.click("#next-page")
    page.locator(f'#board-rows tr[data-player="{name}"]').wait_for()

    # then ranks run on from the first page, and the player's own row is the highlighted one
    assert first_ranks == [str(n) for n in range(1, PAGE_SIZE + 1)]
    ranks = page.locator("#board-rows tr td:first-child").all_inner_texts()
    assert ranks == [str(n) for n in range(PAGE_SIZE + 1, count + 1)]
    assert page.locator("#page-number").inner_text() == "2"
    assert page.locator("#board-rows tr.mine").count() == 1
    assert page.locator("#board-rows tr.mine").get_attribute("data-player") == name
    mine = page.locator("#board-rows tr.mine td:first-child").inner_text()
    assert mine == str(rank)
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
