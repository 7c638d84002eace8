"""The staff's queue of held games (fairplay.admin): the list of held reviews with their scores,
the review's page with each signal's evidence (the timeline, the matching game, the clairvoyant
choices on a board diagram, hidden while the daily's day lasts), and the audited actions."""

from __future__ import annotations

import datetime as dt

from django.contrib.admin.models import LogEntry

from fairplay.models import Review
from games.engine import Game as EngineGame
from leaderboard.models import Entry
from leaderboard.services import entries_disqualify
from tests.fairplay.test_review import ranked_game, review_games

QUEUE = "/admin/fairplay/review/"


def held_and_clean(make_user):
    held = ranked_game(make_user("speedy"), 70)
    clean = ranked_game(make_user("person"), 3, gap=6.0, draw=1)
    review_games()
    return held, clean


def test_the_queue_lists_the_held_games_with_their_scores(make_user, admin_client):
    held, clean = held_and_clean(make_user)

    page = admin_client.get(QUEUE)

    assert page.status_code == 200
    text = page.content.decode()
    assert str(held.pk) in text and "speedy" in text
    assert "person" not in text  # clean: not in the queue
    assert "person" in admin_client.get(QUEUE + "?state=clean").content.decode()
    assert "speedy" in admin_client.get(QUEUE + "?state=all").content.decode()


def test_the_review_page_shows_the_timeline_the_matching_game_and_the_choices(
    make_user, admin_client, time_machine
):
    held, clean = held_and_clean(make_user)
    view = EngineGame.from_dict(held.state).public_view()
    review = Review.objects.get(game=held)
    review.signals["identical"] = {
        "score": 0.9, "evidence": {"label": str(clean.pk), "match": 0.97},
    }  # fmt: skip
    choice = {
        "n": 12, "view": view,
        "chosen": {"type": "move", "from": "waste", "to": "tableau:2", "count": 1},
        "seen": {"type": "draw"}, "true": "waste → tableau:2", "share": 0.25,
    }  # fmt: skip
    review.signals["clairvoyance"] = {"score": 0.5, "evidence": {"choices": [choice]}}
    review.save()
    url = f"{QUEUE}{held.pk}/change/"

    during = admin_client.get(url).content.decode()
    time_machine.move_to(held.challenge.ends_at + dt.timedelta(minutes=1))
    after = admin_client.get(url).content.decode()

    assert "71 actions in" in after and "<svg" in after  # 70 draws and the resign
    assert "<td>70</td><td>draw</td>" in after.replace("\n", "")
    assert f"/admin/games/game/{clean.pk}/change/" in after and "person" in after
    assert "0.97" in after
    assert "hidden until the daily" in during and "fp-board" not in during
    assert "fp-board" in after and "action 12" in after
    reserve_top = view["reserve"]["top"]
    assert reserve_top[:-1] + {"H": "♥", "S": "♠", "D": "♦", "C": "♣"}[reserve_top[-1]] in after
    assert "chosen: waste → tableau:2" in after
    assert "wins on the deals consistent with what was seen: draw" in after
    assert "the samples accept it on 0.25 of the deals consistent with what was seen" in after


def test_clear_and_disqualify_from_the_queue_are_audited(make_user, admin_client, admin_user):
    first = ranked_game(make_user("first"), 70)
    second = ranked_game(make_user("second"), 70, draw=1)
    review_games()

    for action, game in (("clear", first), ("disqualify", second)):
        answer = admin_client.post(
            QUEUE, {"action": action, "_selected_action": [str(game.pk)]}, follow=True
        )
        assert answer.status_code == 200

    assert Review.objects.get(game=first).state == "cleared"
    assert Review.objects.get(game=second).state == "disqualified"
    assert Entry.objects.get(game=first).review == "cleared"
    assert Entry.objects.get(game=second).disqualified
    audit = LogEntry.objects.values_list("content_type__model", "change_message")
    assert sorted(f"{message.split(':')[0]} ({model})" for model, message in audit) == [
        "Cleared by the fair-play review (entry)", "Cleared by the fair-play review (review)",
        "Disqualified by the fair-play review (entry)",
        "Disqualified by the fair-play review (review)",
    ]  # fmt: skip
    assert all(entry.user_id == admin_user.pk for entry in LogEntry.objects.all())


def test_a_held_game_disqualified_from_the_board_entries_leaves_the_queue(
    make_user, admin_client, admin_user
):
    held, _ = held_and_clean(make_user)
    entry = Entry.objects.get(game=held)

    # when staff disqualify its entry from the board entries' admin, not from the queue
    entries_disqualify(entries=Entry.objects.filter(pk=entry.pk), by=admin_user)

    # then the queue no longer lists it; it is among the disqualified
    assert "speedy" not in admin_client.get(QUEUE).content.decode()
    assert "speedy" in admin_client.get(QUEUE + "?state=disqualified").content.decode()
