import datetime as dt
import hmac

import pytest
from django.test import override_settings

from games.days import day_deal, day_ends_at, day_parse, day_today
from games.engine import DealCode

DAY = dt.date(2026, 11, 29)


def test_daily_deal_is_a_cf2_deal_stable_per_day_draw_and_attempt():
    deals = {
        day_deal(DAY + dt.timedelta(days=i), d, attempt)
        for i in range(30)
        for d in (1, 3)
        for attempt in (0, 1, 2)
    }

    assert day_deal(DAY, 3) == day_deal(DAY, 3, 0) == day_deal(DAY, 3)
    assert len({deal.number for deal in deals}) == 180
    assert {(deal.version, deal.draw) for deal in deals} == {(2, 1), (2, 3)}
    # numbers fill the 128 bits, not a small corner of them
    assert max(deal.number for deal in deals).bit_length() == 128


@override_settings(DAILY_SECRET="a-daily-secret-for-this-test-only-0123456789")
def test_daily_deal_is_the_first_16_bytes_of_hmac_sha256_of_date_draw_and_attempt():
    message = b"canfield-daily-cf2:2026-11-29:D1:2"
    digest = hmac.new(b"a-daily-secret-for-this-test-only-0123456789", message, "sha256").digest()

    assert day_deal(DAY, 1, 2) == DealCode(int.from_bytes(digest[:16], "big"), 1, version=2)


def test_daily_deal_depends_on_the_secret_and_not_on_the_secret_key():
    with override_settings(DAILY_SECRET="one", SECRET_KEY="k" * 60):
        first = day_deal(DAY, 3)
    with override_settings(DAILY_SECRET="one", SECRET_KEY="x" * 60):
        same = day_deal(DAY, 3)
    with override_settings(DAILY_SECRET="two", SECRET_KEY="k" * 60):
        second = day_deal(DAY, 3)

    assert first == same != second


def test_daily_deal_attempt_is_never_negative():
    with pytest.raises(ValueError, match="attempt must be 0 or more"):
        day_deal(DAY, 3, -1)


@override_settings(DAILY_TIME_ZONE="Europe/Budapest")
def test_day_follows_the_configured_time_zone():
    # given 23:30 UTC on 29 November, which is 00:30 on the 30th in Budapest (UTC+1)
    late = dt.datetime(2026, 11, 29, 23, 30, tzinfo=dt.UTC)

    assert day_today(late) == dt.date(2026, 11, 30)
    assert day_ends_at(dt.date(2026, 11, 30)) == dt.datetime(2026, 11, 30, 23, 0, tzinfo=dt.UTC)


def test_day_ends_at_utc_midnight_by_default():
    assert day_today(dt.datetime(2026, 11, 29, 23, 59, tzinfo=dt.UTC)) == DAY
    assert day_ends_at(DAY) == dt.datetime(2026, 11, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize("text", ["2026-11-29x", "2026-W48-1", "20261129", "2026-02-30", "", "x"])
def test_day_parse_rejects_anything_but_a_calendar_date(text):
    assert day_parse(text) is None


def test_day_parse_reads_a_date():
    assert day_parse("2026-11-29") == DAY
