"""The review's reads (web/review.py) and its pages without a browser: the marks of a log with
undos, the emoji strip, and a daily's review and result card kept back until its day is over
(R19, R37)."""

import datetime as dt
import json

from django.core.management import call_command
from django.utils import timezone

from games.days import day_today
from games.engine import DealCode
from games.models import DailyChallenge, Game
from tests.games.test_api_games import act, create
from tests.leaderboard.dailies import daily_finished
from web.review import action_marks, emoji_strip, mark_runs, share_streak


def test_marks_follow_the_kept_line_and_set_taken_back_positions_apart():
    # given a log: two moves, a third taken back by an undo, a fourth, and the resignation;
    # the kept line is 1, 2, 5 (positions 0-3), the deal lost after action 5
    types = ["draw", "draw", "draw", "undo", "draw", "resign"]
    result = {"kept": [1, 2, 5], "winnable": [True, True, None, False]}

    # when each action gets its mark
    marks = action_marks(types=types, numbers=[1, 2, 3, 4, 5, 6], result=result)

    # then each is the verdict on the position it left; action 3's position is off the line
    assert marks == ["win", "open", "undone", "open", "lost", "lost"]
    assert mark_runs(marks) == [
        {"first": 1, "last": 1, "mark": "win"},
        {"first": 2, "last": 2, "mark": "open"},
        {"first": 3, "last": 3, "mark": "undone"},
        {"first": 4, "last": 4, "mark": "open"},
        {"first": 5, "last": 6, "mark": "lost"},
    ]


def test_the_emoji_strip_is_at_most_sixteen_squares_ending_on_the_last_verdict():
    assert emoji_strip([True, None, False]) == "🟩⬜🟥"
    long = emoji_strip([True] * 150 + [False] * 50)
    assert len(long) == 16 and long.startswith("🟩" * 12) and long.endswith("🟥" * 4)


def daily_game(auth_client, *, ends_at):
    code = DealCode(0, 3, 1)
    challenge = DailyChallenge.objects.create(
        date=dt.date(2001, 2, 3), draw=3, deal_code=str(code), ends_at=ends_at, par=90
    )
    game = create(auth_client, {"code": str(code)})
    Game.objects.filter(pk=game["id"]).update(challenge=challenge, practice=False)
    for body in [{"type": "draw"}, {"type": "resign"}]:
        assert act(auth_client, game["id"], body).status_code == 200
    return game["id"], challenge


def test_a_daily_is_reviewed_only_once_its_day_is_over(
    auth_client, user, client, client_for, make_user
):
    # given a finished daily game whose day runs for another hour
    game_id, challenge = daily_game(auth_client, ends_at=timezone.now() + dt.timedelta(hours=1))

    # when its player opens the replay (signed in), and anyone asks for its card
    client.force_login(user)
    page = client.get(f"/replay/{game_id}").content.decode()

    # then the page says when the review opens and carries nothing of it, no card either
    assert "opens once its day is over" in page
    assert 'id="review-data"' not in page and "og:image" not in page
    assert client.get(f"/replay/{game_id}/card.png").status_code == 404
    assert client_for(make_user("bob")).get(f"/replay/{game_id}/card.png").status_code == 404

    # when the day is over and the analysis done
    DailyChallenge.objects.filter(pk=challenge.pk).update(ends_at=timezone.now())
    client.get(f"/replay/{game_id}")
    call_command("analyse_games")
    page = client_for(make_user("carol")).get(f"/replay/{game_id}").content.decode()

    # then anyone sees the review, its share text (par included, no card, no code) and card
    start = page.index('<script id="review-data" type="application/json">')
    data = json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])
    assert len(data["marks"]) == 2
    share = page[page.index('id="share-text"') :]
    share = share[share.index(">") + 1 : share.index("</textarea>")]
    first = share.splitlines()[0]
    assert first.startswith("Canfield Club 2001-02-03 · ") and first.endswith(
        " · par ≤90"
    )  # not proved shortest
    assert "CF1-" not in share
    card = client_for(make_user("dave")).get(f"/replay/{game_id}/card.png")
    assert card.status_code == 200 and card["Content-Type"] == "image/png"
    assert card["Cache-Control"] == "public, max-age=86400"


def test_a_shared_daily_carries_its_players_current_streak(user, auth_client):
    # given: finished ranked dailies yesterday and the day before, and a practice game
    today = day_today()
    entries = [daily_finished(user, today - dt.timedelta(days=back)) for back in (1, 2)]
    practice = Game.objects.get(pk=create(auth_client, {"draw": 3})["id"])

    # when / then: a daily's share counts the streak (2 days), a practice game's none
    assert share_streak(entries[0].game) == 2
    assert share_streak(practice) is None
