"""A Redis that does not answer pauses live boards with one warning per interval, not one error
with a traceback per action; actions never fail, and the boards count in the database."""

import logging

from core.logs import WarnEvery
from games.models import DailyChallenge
from leaderboard import boards, selectors
from tests.leaderboard.test_api import BOARD, act, daily


def test_actions_succeed_warn_once_and_boards_count_in_the_database_while_redis_is_gone(
    noon, auth_client, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    # given: the boards' state in a Redis nobody listens on (a closed port), no recent warning
    monkeypatch.setattr(boards, "_store", boards.RedisBoards("redis://127.0.0.1:1/0"))
    monkeypatch.setattr(boards._warn, "last", -boards._warn.seconds)
    caplog.set_level(logging.DEBUG, logger=boards.logger.name)
    game = daily(auth_client).json()

    # when: three actions (act() asserts each answers 200), each telling the board after commit
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            moves = act(auth_client, game["id"], {"type": "draw"})["game"]["moves"]
    page = auth_client.get(f"{BOARD}?draw=3").json()

    # then: every action landed and the board shows it; one warning naming the cause, the rest
    # at debug level, no traceback
    assert moves == 3
    assert [(e["player"], e["moves"], e["rank"]) for e in page["results"]] == [("alice", 3, 1)]
    assert page["count"] == 1
    records = [r for r in caplog.records if r.name == boards.logger.name]
    assert records[0].levelno == logging.WARNING
    assert {r.levelno for r in records[1:]} == {logging.DEBUG}
    assert "Connection refused" in records[0].fields["error"]
    assert not any(r.exc_info for r in records)
    # and the board the failed writes concern is remembered, to be rebuilt once Redis is back
    assert boards.store().missed == {DailyChallenge.objects.get(draw=3).pk}
    assert selectors.board_count(challenge=DailyChallenge.objects.get(draw=3)) == 1


def test_warn_every_warns_again_after_its_interval(caplog, monkeypatch):
    warn = WarnEvery(logging.getLogger("test.warn_every"), seconds=30.0)
    clock = iter([1000.0, 1010.0, 1031.0])
    monkeypatch.setattr("core.logs.time.monotonic", lambda: next(clock))
    caplog.set_level(logging.DEBUG, logger="test.warn_every")

    for _ in range(3):
        warn("redis_unavailable", {"error": "down"})

    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.DEBUG, logging.WARNING]
