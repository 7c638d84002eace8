"""Matches in the browser (issue 23): two players in two browser contexts (two addresses, one
page in English, one in Hungarian) play a duel; each page shows the other's figures live from
the match's socket, then the end screen with both places and rating changes; the Matches page
lists the match and charts the rating, the ratings board and the player page show it."""

from __future__ import annotations

import os
import re

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import api, open_duels_filled, sign_up, unique_name, wait_for_moves
from tests.web.test_accessibility import AXE, violations


def fill_match_deals(run_on_server, draw: int, size: int) -> None:
    run_on_server(
        f"from matches.deals import match_deals_fill\nmatch_deals_fill(draw={draw}, size={size})\n"
    )


def player_page(new_context, address: str, lang: str, name: str):
    locale = {"en": "en-US", "hu": "hu-HU", "pl": "pl-PL"}[lang]
    # The Hungarian page lets the injected axe past the CSP; the English one runs under it.
    context = new_context(
        locale=locale, extra_http_headers={"X-Forwarded-For": address}, bypass_csp=lang == "hu"
    )
    page = context.new_page()
    sign_up(page, name)
    return page


def act(page, game_id: str, body: dict) -> dict:
    answer = api(page, "POST", f"games/{game_id}/actions", body)
    assert answer["status"] == 200, answer
    return answer["body"]["game"]


def opponent_line(page, name: str):
    return page.locator(f'#match-players li[data-player="{name}"]')


def test_two_players_play_a_duel_and_see_each_other_live(new_context, run_on_server, base_url):
    fill_match_deals(run_on_server, draw=3, size=2)
    open_duels_filled(base_url)
    anna, bela = unique_name("anna"), unique_name("bela")
    first = player_page(new_context, "10.24.0.1", "en", anna)
    second = player_page(new_context, "10.24.0.2", "hu", bela)

    # given anna's duel, started from the Matches page (1 v 1 and draw 3 are the defaults)
    first.click(".topbar a[href='/matches/']")
    first.wait_for_selector("#match-form")
    first.click("#match-play")
    first.wait_for_url(re.compile(r"/play/"))
    first.wait_for_selector('[data-pile="tableau:1"] .card')
    panel = first.locator("#match-panel")
    panel.wait_for(state="visible")
    assert "1 v 1" in first.locator("#match-mode").inner_text()
    assert "Nobody else" in panel.inner_text()

    # when bela (in Hungarian) joins the same mode: each page shows the other
    second.goto("/matches/")
    second.locator("input[name=size][value='2']").check()
    second.locator("input[name=draw][value='3']").check()
    second.click("#match-play")
    second.wait_for_url(re.compile(r"/play/"))
    bela_game = second.locator("#game").get_attribute("data-game-id")
    opponent_line(second, anna).wait_for()
    opponent_line(first, bela).wait_for()
    line = opponent_line(first, bela).inner_text()  # the seconds are the server's, at sending
    assert re.fullmatch(rf"{bela}: 1 card home, 0 moves, \d+:\d\d", line), line
    assert first.locator("#match-announce").inner_text() == f"{bela} joined the match."

    # and each plays: bela through the API, anna on the table; the other page follows live
    act(second, bela_game, {"type": "draw", "expect": 0})
    act(second, bela_game, {"type": "draw", "expect": 1})
    first.locator(f'#match-players li[data-player="{bela}"][data-moves="2"]').wait_for()
    first.click('[data-pile="stock"]')
    wait_for_moves(first, 1)
    second.locator(f'#match-players li[data-player="{anna}"][data-moves="1"]').wait_for()
    assert "1 lépés" in opponent_line(second, anna).inner_text()  # in Hungarian
    screenshot(first, "match-panel")
    assert opponent_line(first, bela).inner_text().startswith(f"{bela}: 1 card home, 2 moves")

    # and each draws on to 9 moves (with the resignation, 10 actions: a seat played, R33a)
    anna_game = first.locator("#game").get_attribute("data-game-id")
    for moves in range(2, 9):
        act(second, bela_game, {"type": "draw", "expect": moves})
    for moves in range(1, 9):
        act(first, anna_game, {"type": "draw", "expect": moves})

    # then both games end: both pages show the end screen with both places, ratings to come
    act(first, anna_game, {"type": "resign"})
    first.locator("#match-waiting").wait_for(state="visible")  # bela still plays
    second.locator(f'#match-players li[data-player="{anna}"][data-status="resigned"]').wait_for()
    assert anna in second.locator("#match-announce").inner_text()
    act(second, bela_game, {"type": "resign"})
    for page in (first, second):
        page.locator("#match-end").wait_for(state="visible")
        page.locator("#match-end-places li").nth(1).wait_for()
    match = api(first, "GET", f"games/{anna_game}")["body"]["match"]
    unrated = api(first, "GET", f"matches/{match}")["body"]
    assert unrated["status"] == "finished" and not unrated["rated"]
    waiting = first.locator("#match-end-place").inner_text()
    assert waiting.endswith(
        "Ratings change once the fair-play review of the match's games is done."
    )
    assert "rating" not in first.locator("#match-end-places").inner_text()

    # when the fair-play review runs (`review_games` beside the scheduler): both games clean,
    # the match is rated (R35); bela's open end screen shows the ratings live (the review's
    # message reaches the server's listeners through Redis: without REDIS_URL each process has
    # its own channel layer, so the page is loaded again), anna's once her page is loaded again
    run_on_server("from fairplay.services import reviews_run; reviews_run(budget=30)")
    final = api(first, "GET", f"matches/{match}")["body"]
    assert final["status"] == "finished" and final["rated"] and final["code"]
    if os.environ.get("REDIS_URL"):
        second.locator("#match-end-places .rating-change").nth(1).wait_for()
    else:
        second.reload()
    first.reload()
    for page in (first, second):
        page.locator("#match-end").wait_for(state="visible")
        page.locator("#match-end-places .rating-change").nth(1).wait_for()
    for page in (first, second):
        rows = page.locator("#match-end-places li")
        for seat in final["players"]:
            row = rows.filter(has=page.locator(f"xpath=self::*[@data-player='{seat['player']}']"))
            text = row.inner_text()
            assert str(seat["rating_after"]) in text, text
            assert row.get_attribute("value") == str(seat["place"])
        assert final["code"] in page.locator("#match-end-code").inner_text()
    mine = {seat["player"]: seat for seat in final["players"]}
    assert (
        f"You placed {mine[anna]['place']} of 2." in first.locator("#match-end-place").inner_text()
    )
    assert second.locator("#match-end-title").inner_text() == "Vége a meccsnek"
    change = mine[anna]["rating_after"] - mine[anna]["rating_before"]
    assert (f"+{change}" if change > 0 else f"−{-change}") in first.locator(
        "#match-end"
    ).inner_text()
    screenshot(first, "match-end")
    if AXE.exists():
        assert violations(second) == []  # the end dialog, in Hungarian

    # and the Matches page lists it with a rating chart; the board and player page show it
    first.goto("/matches/")
    first.locator(f'#recent-matches tr[data-match="{match}"]').wait_for()
    chart = first.locator('#my-ratings figure[data-mode="2-3"] svg[role=img]')
    chart.wait_for()
    assert chart.locator("circle").count() == 2  # before and after the one match
    assert str(mine[anna]["rating_after"]) in first.locator("#my-ratings figcaption").inner_text()
    assert first.locator("#open-none").is_visible()
    screenshot(first, "matches-page")
    second.goto("/ratings/2/3/")
    for name in (anna, bela):
        second.locator(f'#ratings-rows tr[data-player="{name}"]').wait_for()
    board_rank = second.locator(f'#ratings-rows tr[data-player="{bela}"] td').first.inner_text()
    assert board_rank.isdigit()
    gain = second.locator(f'#weekly-rows tr[data-player="{anna}"] td').nth(2)
    gain.wait_for()
    assert gain.inner_text() == (f"+{change}" if change > 0 else f"−{-change}")
    if AXE.exists():
        assert violations(second) == []
    if AXE.exists():
        second.goto("/matches/")
        second.locator("#my-ratings figure").wait_for()
        assert violations(second) == []
    second.goto(f"/matches/{match}")
    second.locator(f'#match-places li[data-player="{anna}"]').wait_for()
    assert final["code"] in second.locator("#match-code").inner_text()
    assert second.locator("#match-game").get_attribute("href") == f"/replay/{bela_game}"
    if AXE.exists():
        assert violations(second) == []
    second.goto(f"/players/{anna}")
    section = second.locator("#player-ratings")
    section.wait_for(state="visible")
    assert f"{mine[anna]['rating_after']}?" in section.inner_text()  # provisional
    assert section.locator('[data-mode="2-3"] svg[role=img] circle').count() == 2


@pytest.mark.parametrize("path", ["/matches/", "/ratings/2/1/", "/ratings/4/3/"])
def test_match_pages_answer_without_a_login(client, db, path):
    response = client.get(path)
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/ratings/3/3/", "/ratings/2/2/", "/matches/not-a-match"])
def test_unknown_modes_and_matches_are_404(client, db, path):
    assert client.get(path).status_code == 404


def test_at_a_matchs_end_only_the_match_result_shows_and_seats_ended_not_resigned(
    new_context, run_on_server, base_url
):
    fill_match_deals(run_on_server, draw=3, size=2)
    open_duels_filled(base_url)
    anna, bela = unique_name("anna"), unique_name("bela")
    first = player_page(new_context, "10.25.0.1", "en", anna)
    second = player_page(new_context, "10.25.0.2", "pl", bela)
    games = {}
    for page in (first, second):
        page.goto("/matches/")
        page.locator("input[name=size][value='2']").check()
        page.locator("input[name=draw][value='3']").check()
        page.click("#match-play")
        page.wait_for_url(re.compile(r"/play/"))
        games[page] = page.locator("#game").get_attribute("data-game-id")

    # given bela's game ended after ten actions, and anna's nine draws
    for moves in range(9):
        act(second, games[second], {"type": "draw", "expect": moves})
    act(second, games[second], {"type": "resign"})
    for moves in range(9):
        act(first, games[first], {"type": "draw", "expect": moves})
    first.reload()
    wait_for_moves(first, 9)
    # bela's seat says his game ended, in the match's words, never "resigned"
    line = opponent_line(first, bela)
    line.locator("xpath=self::*[@data-status='resigned']").wait_for()
    assert line.inner_text().endswith("(ended)"), line.inner_text()

    # when anna ends her game on the table, the last of the match
    first.on("dialog", lambda dialog: dialog.accept())
    first.click("#resign")

    # then the match's result shows, the table's own "Game over" does not open over it
    first.locator("#match-end").wait_for(state="visible")
    first.locator("#match-end-places li").nth(1).wait_for()
    assert not first.locator("#win").evaluate("dialog => dialog.open")
    assert "resigned" not in first.locator("#match-end").inner_text()
    assert "(ended)" in first.locator("#match-end-places").inner_text()
    # and so on a visit afterwards, and on the match's page, in Polish too
    first.reload()
    first.locator("#match-end").wait_for(state="visible")
    assert not first.locator("#win").evaluate("dialog => dialog.open")
    match = api(second, "GET", f"games/{games[second]}")["body"]["match"]
    second.goto(f"/matches/{match}")
    second.locator(f'#match-places li[data-player="{anna}"]').wait_for()
    places = second.locator("#match-places").inner_text()
    assert "poddana" not in places and "(zakończona)" in places, places
