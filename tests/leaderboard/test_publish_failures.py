"""A channel layer that is down pauses live updates with one warning per interval, not one
error with a traceback per action."""

import logging

from leaderboard import services


def test_publish_failures_warn_once_per_interval(caplog, monkeypatch):
    # given: no warning logged recently
    monkeypatch.setattr(services, "_publish_warned_at", -services.PUBLISH_WARNING_INTERVAL)
    caplog.set_level(logging.DEBUG, logger="leaderboard.services")

    # when: three actions fail to publish in a row
    for game_id in ("g1", "g2", "g3"):
        services._publish_failed(game_id, ConnectionError("Connection refused"))

    # then: one warning naming the cause, the rest at debug level
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    debugs = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(warnings) == 1
    assert "Redis" in warnings[0].getMessage() and "Connection refused" in warnings[0].getMessage()
    assert len(debugs) == 2
    assert not any(r.exc_info for r in caplog.records)


def test_publish_failure_warns_again_after_the_interval(caplog, monkeypatch):
    monkeypatch.setattr(services, "_publish_warned_at", -services.PUBLISH_WARNING_INTERVAL)
    caplog.set_level(logging.WARNING, logger="leaderboard.services")
    clock = iter([1000.0, 1000.0 + services.PUBLISH_WARNING_INTERVAL + 1])
    monkeypatch.setattr(services.time, "monotonic", lambda: next(clock))

    services._publish_failed("g1", ConnectionError("down"))
    services._publish_failed("g2", ConnectionError("still down"))

    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.WARNING]
