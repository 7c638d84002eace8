"""R37: GET /api/v1/games/{id}/analysis, where the win was lost, computed off the request path
(games.analysis, `manage.py analyse_games`)."""

import datetime as dt
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from accounts.models import AccountEvent
from games import services
from games.days import day_deal
from games.engine import Action as EngineAction
from games.engine import DealCode
from games.engine import Game as EngineGame
from games.models import Analysis, DailyChallenge, Game
from games.solver import solve
from matches.models import Match, MatchDeal, MatchPlayer
from tests.conftest import requires_postgres
from tests.games.helpers import easy_deck, winning_actions
from tests.games.scheduler import challenges_of_today_and_tomorrow, scheduler_running, wait_for
from tests.games.test_api_games import act, create

ROOT = Path(__file__).resolve().parents[2]
GAMES = "/api/v1/games"
# Deal 0 (CF1, draw 3, app): the solver's line wins it; at its 40th action, moving the waste's
# top onto column 2 instead leaves a deal no line wins (both proved by the solver below).
DEAL = 0
TURN = 40
BAD = {"type": "move", "from": "waste", "to": "tableau:2", "count": 1}


def analysis(client, game_id, **headers):
    return client.get(f"{GAMES}/{game_id}/analysis", **headers)


def solver_line() -> list[dict]:
    return [step.as_dict() for step in solve(EngineGame.deal(DEAL), max_nodes=1_000_000).line]


@pytest.fixture
def solver_must_not_run(monkeypatch):
    """The solver raises if anything searches: a request must never compute an analysis."""

    def refuse(*args, **kwargs):
        raise AssertionError("the solver ran")

    monkeypatch.setattr("games.analysis.solve", refuse)
    return monkeypatch


def test_the_solver_proves_the_turning_point_of_the_hand_made_game():
    line = solver_line()
    play = EngineGame.deal(DEAL)
    for step in line[:TURN]:
        play.apply(EngineAction.from_dict(step))
    assert line[TURN] != BAD
    assert solve(play, max_nodes=1_000_000).verdict == "won"
    play.apply(EngineAction.from_dict(BAD))
    assert solve(play, max_nodes=1_000_000).verdict == "unwinnable"


def test_the_analysis_marks_where_the_win_was_lost(auth_client, make_user, client_for):
    # given a game of deal 0 played along the solver's line, with a detour taken back, then
    # the losing move, a few more actions (one of them undone) and a resignation
    line = solver_line()
    game = create(auth_client, {"code": str(DealCode(DEAL, 3, 1))})
    sent = [*line[:20], line[20], {"type": "undo"}, *line[20:TURN], BAD]
    for body in sent:
        assert act(auth_client, game["id"], body).status_code == 200, body
    lost_at = len(sent)
    after = [{"type": "draw"}, {"type": "draw"}, {"type": "undo"}, {"type": "draw"}]
    for body in [*after, {"type": "resign"}]:
        assert act(auth_client, game["id"], body).status_code == 200, body

    # when anyone asks for its analysis, and the scheduler's process computes it
    other = client_for(make_user("bob"))
    queued = analysis(other, game["id"])
    assert queued.status_code == 202
    assert queued.json() == {"status": "pending", "progress": 0.0}
    assert queued["Retry-After"] == "2"
    assert "ETag" not in queued
    call_command("analyse_games")
    done = analysis(other, game["id"])

    # then it says the deal was winnable up to the losing move and lost from it on, with the
    # solver's winning line from the position before it
    assert done.status_code == 200
    body = done.json()
    kept = [*range(1, 21), *range(23, lost_at + 1), lost_at + 1, lost_at + 4]
    assert body["kept"] == kept
    assert body["winnable"] == [True] * (TURN + 1) + [False] * (len(kept) - TURN)
    assert body["lost_at"] == lost_at
    assert body["undecided"] == 0
    assert body["line"]["after"] == lost_at - 1
    replay = EngineGame.deal(DEAL)
    for step in [*line[:TURN], *body["line"]["actions"]]:
        replay.apply(EngineAction.from_dict(step))
    assert replay.status == "won"
    assert (body["status"], body["progress"]) == ("done", 1.0)
    assert (body["par"], body["over_par"]) == (None, None)  # not a daily: no par
    assert body["moves"] == len(sent) + len(after)  # R25: undo counts as a move
    assert body["kept_moves"] == len(kept)

    # and it answers with an ETag, 304 to a client that has it
    etag = done["ETag"]
    assert etag.startswith('"') and len(etag) > 10
    assert analysis(auth_client, game["id"]).json() == body  # the owner sees the same one
    unchanged = analysis(other, game["id"], HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    assert unchanged["ETag"] == etag
    assert analysis(other, game["id"], HTTP_IF_NONE_MATCH='"other"').status_code == 200


@override_settings(CORS_ALLOWED_ORIGINS=["https://client.example"])
def test_a_browser_client_may_read_the_etag(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    assert act(auth_client, game["id"], {"type": "resign"}).status_code == 200
    assert analysis(auth_client, game["id"]).status_code == 202
    services.analyses_run()

    done = analysis(auth_client, game["id"], HTTP_ORIGIN="https://client.example")

    assert done.status_code == 200 and done["ETag"]
    assert "ETag" in {h.strip() for h in done["Access-Control-Expose-Headers"].split(",")}


def test_a_request_never_computes_the_analysis(auth_client, solver_must_not_run):
    # given a game given up two moves in
    game = create(auth_client, {"code": "CF1-D3-AAAAAAB"})  # deal 1: hard to decide
    for body in ({"type": "draw"}, {"type": "draw"}, {"type": "resign"}):
        assert act(auth_client, game["id"], body).status_code == 200

    # when its analysis is asked for again and again, the solver refusing to run
    answers = [analysis(auth_client, game["id"]) for _ in range(3)]

    # then every answer is the stored row's 202, and the row waits for the scheduler
    assert [answer.status_code for answer in answers] == [202, 202, 202]
    row = Analysis.objects.get(pk=game["id"])
    assert (row.status, row.progress, row.result) == ("pending", 0.0, None)

    # and a run stored midway answers its progress
    Analysis.objects.filter(pk=row.pk).update(status="running", progress=0.25)
    assert analysis(auth_client, game["id"]).json() == {"status": "running", "progress": 0.25}


def test_a_won_game_was_winnable_throughout_without_a_search(auth_client, solver_must_not_run):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    for body in winning_actions():
        assert act(auth_client, game["id"], body).status_code == 200

    assert analysis(auth_client, game["id"]).status_code == 202
    assert [row.status for row in services.analyses_run()] == ["done"]
    body = analysis(auth_client, game["id"]).json()

    assert body["winnable"] == [True] * (len(winning_actions()) + 1)
    assert (body["lost_at"], body["line"], body["undecided"]) == (None, None, 0)


def test_a_game_in_progress_is_not_analysed(auth_client, make_user, client_for):
    game = create(auth_client, {"code": "CF1-D3-AAAAAAA"})

    refused = analysis(auth_client, game["id"])

    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "deal_hidden"
    assert refused.json()["error"]["rule"] == "R37"
    worded = analysis(auth_client, game["id"], HTTP_ACCEPT_LANGUAGE="hu").json()["error"]
    assert worded["message"] == "A játszma még tart: ha véget ért, elemezheted."
    assert analysis(client_for(make_user("bob")), game["id"]).status_code == 404
    assert analysis(auth_client, "no-such-game").status_code == 404
    assert not Analysis.objects.exists()


DAY = dt.date(2026, 11, 29)
NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
ENDS_AT = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)


def test_a_daily_is_never_analysed_before_its_day_is_over(
    auth_client, make_user, client_for, solver_must_not_run
):
    with time_machine.travel(NOON, tick=False) as clock:
        # given a daily game given up at noon
        challenge = DailyChallenge.objects.create(
            date=DAY, draw=3, deal_code=str(day_deal(DAY, 3)), attempt=0, ends_at=ENDS_AT, par=90
        )
        game = auth_client.post(GAMES, {"daily": True}, format="json").json()
        for body in ({"type": "draw"}, {"type": "resign"}):
            assert act(auth_client, game["id"], body).status_code == 200
        other = client_for(make_user("bob"))

        # when its owner and another player ask for its analysis while the day lasts
        refused = analysis(auth_client, game["id"])
        hidden = analysis(other, game["id"])

        # then the owner is told why not (nothing queued), the other finds no such game
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "deal_hidden"
        assert refused.json()["error"]["rule"] == "R19"
        assert hidden.status_code == 404
        assert not Analysis.objects.exists()

        # and an analysis stored by some other way is neither shown nor computed
        Analysis.objects.create(
            game_id=game["id"], status="done", queued_at=NOON, result={"winnable": [True]}
        )
        assert analysis(auth_client, game["id"]).status_code == 409
        assert analysis(other, game["id"]).status_code == 404
        Analysis.objects.filter(pk=game["id"]).update(status="pending", result=None)
        assert services.analyses_run() == []
        assert not Analysis.objects.exists()
        assert not AccountEvent.objects.filter(kind="analysis_ready").exists()

        # when the day is over
        clock.move_to(ENDS_AT)
        queued = analysis(other, game["id"])

    # then it is queued, and once computed it shows the day's par
    assert queued.status_code == 202
    solver_must_not_run.undo()
    with time_machine.travel(ENDS_AT + dt.timedelta(minutes=1), tick=False):
        services.analyses_run()
        body = analysis(other, game["id"]).json()
    assert body["par"] == {"moves": challenge.par, "exact": False}
    assert body["over_par"] is None  # not won
    # and its owner's event stream is told, once
    told = AccountEvent.objects.filter(kind="analysis_ready")
    owner = Game.objects.get(pk=game["id"]).owner_id
    assert [(event.user_id, event.data) for event in told] == [(owner, {"game": game["id"]})]
    assert body["kept"] == [1]
    assert len(body["winnable"]) == 2


def test_a_stale_running_analysis_is_taken_again(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    assert act(auth_client, game["id"], {"type": "resign"}).status_code == 200
    assert analysis(auth_client, game["id"]).status_code == 202
    began = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    Analysis.objects.filter(pk=game["id"]).update(status="running", started_at=began)

    with time_machine.travel(began + services.ANALYSIS_STALE / 2, tick=False):
        assert services.analyses_run() == []  # another run is still on it
    with time_machine.travel(began + services.ANALYSIS_STALE * 2, tick=False):
        assert [row.pk for row in services.analyses_run()] == [Game.objects.get().pk]
    assert analysis(auth_client, game["id"]).json()["winnable"] == [True]


@requires_postgres
def test_the_schedulers_process_computes_a_queued_analysis(
    transactional_db, settings, auth_client, tmp_path
):
    # given: today's and tomorrow's challenges (the scheduler's hourly job has nothing to
    # solve), and a game given up whose analysis a read queued
    challenges_of_today_and_tomorrow()
    game = create(auth_client, {"code": str(DealCode(DEAL, 3, 1))})
    for body in [*solver_line()[:TURN], BAD, {"type": "resign"}]:
        assert act(auth_client, game["id"], body).status_code == 200
    assert analysis(auth_client, game["id"]).status_code == 202

    # when the scheduler runs (scripts/scheduler.sh, as in production)
    env = {"ANALYSIS_POLL_SECONDS": "0.2", "MATCH_POOL_SIZE": "0"}
    with scheduler_running(settings, tmp_path, **env) as output:
        wait_for(lambda: analysis(auth_client, game["id"]).status_code != 202, output)
        # (its report is written after the commit: waited for too, not raced by the stop)
        wait_for(lambda: "1 game(s) analysed" in output(), output)
    answer = analysis(auth_client, game["id"])

    # then the analysis is there, done by its process
    assert answer.status_code == 200
    assert answer.json()["lost_at"] == TURN + 1
    assert "1 game(s) analysed" in output()


def test_a_match_game_is_analysed_once_its_match_is_finished(
    user, auth_client, make_user, client_for
):
    # given a match game given up while its match is open
    now = timezone.now()
    deal = MatchDeal.objects.create(draw=3, index=0, deal_code=str(DealCode(DEAL, 3, 1)))
    match = Match.objects.create(
        size=2, draw=3, deal=deal, created_at=now, ends_at=now + dt.timedelta(hours=24)
    )
    game = services.game_create(owner=user, code=DealCode.parse(deal.deal_code), match=match)
    MatchPlayer.objects.create(
        match=match, player=user, game=game, seat=1, joined_at=now, rating_before=1500
    )
    assert act(auth_client, game.pk, {"type": "resign"}).status_code == 200
    other = client_for(make_user("bob"))

    # when it is asked for while the match is open, then once it is finished
    refused = analysis(auth_client, game.pk)
    hidden = analysis(other, game.pk)
    Match.objects.filter(pk=match.pk).update(status="finished", finished_at=now)
    queued = analysis(other, game.pk)

    # then the owner is told why not, the other finds no such game; then it is queued
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "deal_hidden"
    assert refused.json()["error"]["rule"] == "R19"
    assert hidden.status_code == 404
    assert queued.status_code == 202
