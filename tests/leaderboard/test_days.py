import datetime as dt

import pytest
from django.test import override_settings

from leaderboard.days import DEAL_NUMBERS, day_deal_number, day_ends_at, day_parse, day_today

DAY = dt.date(2026, 11, 29)


def test_deal_number_is_stable_per_day_and_draw_and_in_range():
    numbers = {day_deal_number(DAY + dt.timedelta(days=i), d) for i in range(30) for d in (1, 3)}

    assert day_deal_number(DAY, 3) == day_deal_number(DAY, 3)
    assert len(numbers) == 60
    assert all(0 <= n < DEAL_NUMBERS for n in numbers)


def test_deal_number_depends_on_the_secret():
    with override_settings(DAILY_SECRET="one"):
        first = day_deal_number(DAY, 3)
    with override_settings(DAILY_SECRET="two"):
        second = day_deal_number(DAY, 3)

    assert first != second


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
