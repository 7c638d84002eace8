"""A channel layer that is down pauses live updates with one warning per interval, not one
error with a traceback per action, and never fails the action."""

import logging

from canfield_site.logs import WarnEvery
from leaderboard import services
from tests.leaderboard.test_api import act, daily


def test_actions_succeed_and_warn_once_while_the_channel_layer_refuses(
    noon, auth_client, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    # given: a daily game, a channel layer that refuses every message, no recent warning
    game = daily(auth_client).json()

    async def refuse(group, message):
        raise ConnectionError("Connection refused")

    monkeypatch.setattr(services, "_group_send", refuse)
    monkeypatch.setattr(services._publish_failed, "last", -services._publish_failed.seconds)
    caplog.set_level(logging.DEBUG, logger=services.logger.name)

    # when: three actions (act() asserts each answers 200), each publishing after its commit
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            moves = act(auth_client, game["id"], {"type": "draw"})["game"]["moves"]

    # then: every action landed; one warning naming the cause, the rest at debug level
    assert moves == 3
    records = [r for r in caplog.records if r.name == services.logger.name]
    assert [r.levelno for r in records] == [logging.WARNING, logging.DEBUG, logging.DEBUG]
    assert "Connection refused" in records[0].fields["error"]
    assert not any(r.exc_info for r in records)


def test_warn_every_warns_again_after_its_interval(caplog, monkeypatch):
    warn = WarnEvery(logging.getLogger("test.warn_every"), seconds=30.0)
    clock = iter([1000.0, 1010.0, 1031.0])
    monkeypatch.setattr("canfield_site.logs.time.monotonic", lambda: next(clock))
    caplog.set_level(logging.DEBUG, logger="test.warn_every")

    for _ in range(3):
        warn("redis_unavailable", {"error": "down"})

    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.DEBUG, logging.WARNING]
