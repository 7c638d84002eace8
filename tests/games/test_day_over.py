"""R26a: a daily game still in progress when its day ends is ended by the server at that moment,
with its figures then (`end_reason: "day_over"`, status resigned): by the scheduler's `manage.py
end_daily_games`, and before any read of or action on it. It can no longer be played and never
counts as a win."""

import datetime as dt
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from core.errors import GameFinished
from games import changes, services
from games.days import day_deal, day_today
from games.engine import DealCode
from games.models import DailyChallenge, Game
from leaderboard.models import Entry
from tests.conftest import requires_postgres
from tests.games.helpers import easy_deck, winning_actions
from tests.games.scheduler import challenges_of_today_and_tomorrow, scheduler_running, wait_for

ROOT = Path(__file__).resolve().parents[2]

GAMES = "/api/v1/games"
DAY = dt.date(2026, 11, 29)
NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
ENDS_AT = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
DAY_OVER = "The day is over: this game ended at midnight."


@pytest.fixture
def clock(db):
    """Noon on the day of a daily challenge made without the solver (its deal is not played
    to the end here)."""
    with time_machine.travel(NOON, tick=False) as traveller:
        DailyChallenge.objects.create(
            date=DAY, draw=3, deal_code=str(day_deal(DAY, 3)), attempt=0, ends_at=ENDS_AT
        )
        yield traveller


def act(client, game_id, body):
    return client.post(f"{GAMES}/{game_id}/actions", body, format="json")


def daily_game(client) -> dict:
    """The caller's daily game, two draws into it."""
    game = client.post(GAMES, {"daily": True}, format="json").json()
    for _ in range(2):
        assert act(client, game["id"], {"type": "draw"}).status_code == 200
    return client.get(f"{GAMES}/{game['id']}").json()


def test_a_daily_game_still_running_at_midnight_is_over_at_the_first_read(
    clock, auth_client, user, make_user, client_for
):
    # given a daily game in progress at 23:59, and the day over
    game = daily_game(auth_client)
    assert (game["status"], game["end_reason"], game["finished_at"]) == ("playing", None, None)
    clock.move_to(ENDS_AT - dt.timedelta(minutes=1))
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["status"] == "playing"
    clock.move_to(ENDS_AT + dt.timedelta(hours=3))

    # when anyone reads it (no scheduler has run)
    shown = client_for(make_user("bob")).get(f"{GAMES}/{game['id']}")

    # then it ended at midnight with its figures then, public now like any finished daily
    assert shown.status_code == 200
    over = shown.json()
    assert (over["status"], over["end_reason"]) == ("resigned", "day_over")
    assert over["finished_at"] == "2026-11-30T00:00:00Z"
    assert over["seconds"] == 12 * 3600.0
    assert (over["score"], over["moves"], over["stock"]) == (
        game["score"], game["moves"], game["stock"]
    )  # fmt: skip
    assert over["code"] == str(day_deal(DAY, 3))
    assert len(over["actions"]) == 2  # the server's ending is not an action of the player
    assert auth_client.get(f"{GAMES}/{game['id']}/legal-actions").json() == []

    # and it can no longer be played, though the day's code is public now
    for body in ({"type": "draw"}, {"type": "resign"}):
        refused = act(auth_client, game["id"], body)
        assert refused.status_code == 409
        assert refused.json()["error"] == {"code": "game_over", "message": DAY_OVER}
    assert auth_client.get(f"{GAMES}/{game['id']}/hint").json()["error"]["code"] == "game_over"

    # and it never counts as a win; its board entry kept the figures of the day's end
    stats = auth_client.get(f"/api/v1/players/{user.username}").json()
    assert (stats["games"], stats["wins"], stats["best_win_moves"]) == (1, 0, None)
    # and says it ended (when it reached them is kept: the tie-break does not move)
    entry = Entry.objects.get(game_id=game["id"])
    assert (entry.score, entry.moves) == (game["score"], 2)
    assert (entry.status, entry.ended_at) == ("resigned", ENDS_AT)
    assert entry.reached_at < ENDS_AT


def test_an_action_after_midnight_ends_the_game_and_is_refused(clock, auth_client):
    game = daily_game(auth_client)
    clock.move_to(ENDS_AT)

    refused = act(auth_client, game["id"], {"type": "draw"})

    assert refused.status_code == 409
    assert refused.json()["error"] == {"code": "game_over", "message": DAY_OVER}
    stored = Game.objects.get(pk=game["id"])
    assert (stored.status, stored.end_reason, stored.finished_at) == (
        "resigned", "day_over", ENDS_AT
    )  # fmt: skip
    assert (stored.moves, stored.actions_count) == (2, 2)
    # and the refusal is worded in the caller's language
    for lang, message in (
        ("hu", "Véget ért a nap: ez a játszma éjfélkor befejeződött."),
        ("pl", "Dzień się skończył: ta gra zakończyła się o północy."),
    ):
        worded = auth_client.post(
            f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json",
            HTTP_ACCEPT_LANGUAGE=lang,
        )  # fmt: skip
        assert worded.json()["error"] == {"code": "game_over", "message": message}


def test_the_callers_list_shows_no_daily_game_in_progress_after_its_day(clock, auth_client):
    game = daily_game(auth_client)
    clock.move_to(ENDS_AT + dt.timedelta(seconds=1))

    def listed(query):
        return [each["id"] for each in auth_client.get(f"{GAMES}?{query}").json()["results"]]

    assert listed("status=playing") == []
    assert listed("status=resigned") == [game["id"]]
    assert auth_client.get(GAMES).json()["results"][0]["end_reason"] == "day_over"


def test_end_daily_games_ends_the_running_ones_once_and_announces_each(
    clock, make_user, client_for, monkeypatch, django_capture_on_commit_callbacks, capsys
):
    # given: two daily games in progress and one resigned, a random game in progress, and a
    # listener of ranked games beside the boards
    running = [daily_game(client_for(make_user(name))) for name in ("ann", "ben")]
    cat = client_for(make_user("cat"))
    resigned = daily_game(cat)
    act(cat, resigned["id"], {"type": "resign"})
    practice = services.game_create(owner=make_user("dan"))
    heard = []
    listener = changes.GameChangedSubscription(
        kinds=frozenset({changes.GameKind.DAILY}),
        in_transaction=lambda c: heard.append(("in", str(c.game.pk), c.game.end_reason, c.at)),
        after_commit=lambda c: heard.append(("after", str(c.game.pk), c.at)),
    )
    monkeypatch.setattr(changes, "_subscriptions", [*changes._subscriptions, listener])

    # when the scheduler runs before midnight, then after it, twice
    with django_capture_on_commit_callbacks(execute=True):
        call_command("end_daily_games")
        clock.move_to(ENDS_AT + dt.timedelta(seconds=30))
        call_command("end_daily_games")
        call_command("end_daily_games")

    # then the running ones ended, once, at midnight; nothing else changed
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{n} daily game(s) ended: their day is over" for n in (0, 2, 0)]
    for game in running:
        stored = Game.objects.get(pk=game["id"])
        assert (stored.status, stored.end_reason, stored.finished_at) == (
            "resigned", "day_over", ENDS_AT
        )  # fmt: skip
        assert ("in", game["id"], "day_over", ENDS_AT) in heard
        assert ("after", game["id"], ENDS_AT) in heard
    assert len(heard) == 4
    assert Game.objects.get(pk=resigned["id"]).end_reason == "resigned"
    assert Game.objects.get(pk=practice.pk).status == "playing"
    # and every game's log still rebuilds it
    call_command("verify_games")
    assert capsys.readouterr().out == "4 game(s) verified: all consistent\n"


def test_an_action_read_before_midnight_never_revives_a_game_ended_meanwhile(clock, user):
    # given: a daily game read at 23:59:59, and ended meanwhile (a scheduler on a clock ahead)
    game, _ = services.daily_boards().game_get_or_create(player=user, draw=3)
    clock.move_to(ENDS_AT - dt.timedelta(seconds=1))
    read = services.game_get_for(game_id=game.pk, user=user)
    assert services.games_end_day_over(now=ENDS_AT) == 1

    # when the action read before midnight is applied
    with pytest.raises(GameFinished) as refused:
        services.game_act(game=read, user=user, action={"type": "draw"}, expect=None)

    # then it is refused: the ended game stays ended
    assert refused.value.message == DAY_OVER
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.end_reason, stored.actions_count) == ("resigned", "day_over", 0)


def test_end_reason_says_won_resigned_or_null(auth_client):
    def new():
        return auth_client.post(GAMES, {"deck": easy_deck(), "draw": 1}, format="json").json()

    playing, resigned, won = new(), new(), new()
    resigned = act(auth_client, resigned["id"], {"type": "resign"}).json()["game"]
    for action in winning_actions():
        won = act(auth_client, won["id"], action).json()["game"]

    assert (playing["status"], playing["end_reason"]) == ("playing", None)
    assert (resigned["status"], resigned["end_reason"]) == ("resigned", "resigned")
    assert (won["status"], won["end_reason"]) == ("won", "won")
    assert auth_client.get(f"{GAMES}/{won['id']}").json()["end_reason"] == "won"


@requires_postgres
def test_the_scheduler_ends_a_day_over_game_within_its_period(
    transactional_db, settings, user, tmp_path
):
    # given: today's and tomorrow's challenges (its hourly job has nothing to solve), and a
    # daily game still in progress on a day that ended a minute ago
    challenges_of_today_and_tomorrow()
    ended_day = day_today() - dt.timedelta(days=1)
    ends_at = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=1)
    past = DailyChallenge.objects.create(
        date=ended_day, draw=3, deal_code=str(day_deal(ended_day, 3)), attempt=0, ends_at=ends_at
    )
    game = services.game_create(owner=user, code=DealCode.parse(past.deal_code), challenge=past)

    # when the scheduler runs
    with scheduler_running(settings, tmp_path, END_SECONDS="1") as output:
        wait_for(lambda: Game.objects.get(pk=game.pk).status != "playing", output)
        # (its report is written after the commit: waited for too, not raced by the stop)
        wait_for(lambda: "1 daily game(s) ended" in output(), output)

    # then it ended the game as of its day's end
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.end_reason, stored.finished_at) == (
        "resigned", "day_over", ends_at
    )  # fmt: skip
    # (the job says so once it is done: after the game's commit, and after its events' wake-ups)
    wait_for(lambda: "1 daily game(s) ended" in output(), output)
