"""The player page (issue 22): figures by draw mode with a win rate and best times, the daily
challenges (a 30-day calendar in words and a list, today's as the boards show it), and the
history a page at a time. Rendered by the server: these tests read the HTML."""

import datetime as dt
import re

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from games.days import day_deal
from games.models import DailyChallenge, Game
from leaderboard.models import Entry

DAY = dt.date(2026, 11, 29)
NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
GAMES = "/api/v1/games"


@pytest.fixture
def clock(db):
    """Noon on a day with both daily challenges (made without the solver)."""
    with time_machine.travel(NOON, tick=False) as traveller:
        for draw in (3, 1):
            DailyChallenge.objects.create(
                date=DAY,
                draw=draw,
                deal_code=str(day_deal(DAY, draw)),
                attempt=0,
                ends_at=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
            )
        yield traveller


def act(client, game_id, *types):
    for kind in types:
        response = client.post(f"{GAMES}/{game_id}/actions", {"type": kind}, format="json")
        assert response.status_code == 200, response.content


def cells(html: str, table_id: str) -> dict[str, dict[str, str]]:
    """The rows of a figures table by their draw (or "all" for the overall list): stat -> text."""
    if table_id == "stats":
        block = html.split('id="stats"')[1].split("</dl>")[0]
        return {"all": dict(re.findall(r'data-stat="(\w+)">([^<]*)<', block))}
    block = html.split(f'id="{table_id}"')[1].split("</table>")[0]
    rows = {}
    for draw, row in re.findall(r'<tr data-draw="(\d)">(.*?)</tr>', block, flags=re.DOTALL):
        rows[draw] = dict(re.findall(r'data-stat="(\w+)">([^<]*)<', row))
    return rows


def test_figures_by_draw_mode_count_only_games_over_with_a_move(clock, user, client_for):
    api = client_for(user)
    # given: two 3-card games won (one in 1:40, one in 3:00, the latter the best score), one
    # 3-card game ended after a move, one 1-card game ended after a move, and games that do not
    # count: one in progress, one ended without a move, one practice, one with a hint
    won = []
    for minutes in (100 / 60, 3):
        game = api.post(GAMES, {"draw": 3}, format="json").json()["id"]
        act(api, game, "draw")
        won.append((game, minutes))
    ended3 = api.post(GAMES, {"draw": 3}, format="json").json()["id"]
    act(api, ended3, "draw", "resign")
    ended1 = api.post(GAMES, {"draw": 1}, format="json").json()["id"]
    act(api, ended1, "draw", "resign")
    playing = api.post(GAMES, {}, format="json").json()["id"]
    act(api, playing, "draw")
    untouched = api.post(GAMES, {}, format="json").json()["id"]
    act(api, untouched, "resign")
    practice = api.post(GAMES, {"code": "CF1-D3-AAAAACL"}, format="json").json()["id"]
    act(api, practice, "draw", "resign")
    # (a win needs a whole game played; the engine's own tests play those: here the two
    # games are marked won as the engine would leave them, with their time and score)
    for (game, minutes), score in zip(won, (40, 90), strict=True):
        Game.objects.filter(pk=game).update(
            status="won",
            end_reason="won",
            score=score,
            moves=60,
            finished_at=NOON + dt.timedelta(minutes=minutes),
        )

    html = Client().get(f"/players/{user.username}").content.decode()

    overall = cells(html, "stats")["all"]
    by_draw = cells(html, "by-draw")
    api_figures = APIClient().get(f"/api/v1/players/{user.username}").json()
    assert (overall["games"], overall["wins"], overall["win_rate"]) == ("4", "2", "50 %")
    assert (api_figures["games"], api_figures["wins"]) == (4, 2)
    assert overall["best_win_seconds"] == "1:40" and overall["best_score"] == "90"
    assert by_draw["3"] == {
        "games": "3",
        "wins": "2",
        "win_rate": "67 %",
        "best_score": "90",
        "best_win_seconds": "1:40",
        "best_win_moves": "60",
    }
    assert by_draw["1"]["games"] == "1" and by_draw["1"]["win_rate"] == "0 %"
    assert by_draw["1"]["best_win_seconds"] == "–"
    # the history marks what does not count; in progress is the owner's only
    history = html.split('id="history"')[1].split("</table>")[0]
    rows = dict(re.findall(r'<tr data-game="([^"]+)">(.*?)</tr>', history, flags=re.DOTALL))
    assert playing not in rows
    assert "not counted" in rows[untouched] and "not counted" in rows[practice]
    assert "not counted" not in rows[ended3]
    assert "Ended" in rows[ended3] and "Resigned" not in history
    own = Client()
    own.force_login(user)
    assert playing in own.get(f"/players/{user.username}").content.decode()


def test_dailies_calendar_and_list_show_today_as_the_boards_do(clock, user, make_user, client_for):
    # given a player's 3-card daily of today in progress, and another player's held for review
    api = client_for(user)
    today = api.post(GAMES, {"daily": True, "draw": 3}, format="json").json()["id"]
    act(api, today, "draw")
    held = make_user("held")
    held_game = client_for(held).post(GAMES, {"daily": True}, format="json").json()["id"]
    Entry.objects.filter(game_id=held_game).update(review="held")

    visitor = Client().get(f"/players/{user.username}").content.decode()
    owner = Client()
    owner.force_login(user)
    own = owner.get(f"/players/{user.username}").content.decode()

    # then the calendar's last day (today) says the 3-card daily is being played, in words
    days = re.findall(r'<li class="([^"]*)" data-date="([^"]+)">(.*?)</li>', visitor, re.DOTALL)
    assert len(days) == 30 and days[-1][1] == "2026-11-29" and days[0][1] == "2026-10-31"
    assert "today" in days[-1][0] and "played" in days[-1][0]
    assert re.search(r"3 cards: playing", days[-1][2]) and re.search(r"1 card: –", days[-1][2])
    # the list shows today's figures to everyone (the board does), the game to its owner only
    listed = visitor.split('id="dailies"')[1].split("</table>")[0]
    assert today in listed and "In progress" in listed
    assert f"/play/{today}" not in listed and f"/replay/{today}" not in listed
    assert f'href="/play/{today}"' in own.split('id="dailies"')[1]
    # an entry held for review is off the public page, as off the boards, but not its owner's
    assert "No daily challenge played yet." in Client().get("/players/held").content.decode()
    held_client = Client()
    held_client.force_login(held)
    assert held_game in held_client.get("/players/held").content.decode()


def test_history_is_paginated(db, user):
    from games.services import game_create

    games = [game_create(owner=user) for _ in range(23)]
    Game.objects.filter(pk__in=[game.pk for game in games]).update(status="resigned", moves=2)

    first = Client().get(f"/players/{user.username}").content.decode()
    second = Client().get(f"/players/{user.username}?page=2").content.decode()
    odd = Client().get(f"/players/{user.username}?page=x%00").status_code

    def listed(html):
        return re.findall(r'<tr data-game="([^"]+)">', html.split('id="history"')[1])

    assert len(listed(first)) == 20 and len(listed(second)) == 3
    assert set(listed(first)) | set(listed(second)) == {str(game.pk) for game in games}
    assert 'id="history-next"' in first and "Page 1 of 2" in first
    assert 'id="history-prev"' in second and "Page 2 of 2" in second
    assert odd == 200
