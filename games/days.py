"""The daily calendar: which day it is, when a day ends, and its secret deal."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from games.engine import DealCode

DRAWS = (3, 1)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def day_zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def day_today(now: dt.datetime | None = None) -> dt.date:
    return timezone.localdate(now or timezone.now(), timezone=day_zone())


def day_ends_at(date: dt.date) -> dt.datetime:
    """Midnight after `date` in DAILY_TIME_ZONE (correct across DST changes)."""
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), tzinfo=day_zone())


def day_deal(date: dt.date, draw: int, attempt: int = 0) -> DealCode:
    """The CF2 deal (R4a) of that day's challenge in that draw mode, at that attempt.

    N = the first 16 bytes of HMAC-SHA256 under DAILY_SECRET, a secret used for nothing else,
    of the date, draw and attempt: without the secret no card of a deal tells anything about
    N (2^128 numbers), nor about another day's deal. Attempts 0, 1, 2, ... give independent
    deals for the same day, so that one the solver cannot prove winnable can be skipped (R29).
    """
    if attempt < 0:
        raise ValueError(f"attempt must be 0 or more, got {attempt}")
    message = f"canfield-daily-cf2:{date.isoformat()}:D{draw}:{attempt}".encode()
    digest = hmac.new(settings.DAILY_SECRET.encode(), message, hashlib.sha256).digest()
    return DealCode(int.from_bytes(digest[:16], "big"), draw, version=2)


def day_parse(text: str) -> dt.date | None:
    """A `YYYY-MM-DD` date, None for anything else (ISO week dates and the like included)."""
    if not _DATE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


_MONTH = re.compile(r"\d{4}-\d{2}")


def month_parse(text: str) -> dt.date | None:
    """A `YYYY-MM` month as its first day, None for anything else."""
    if not _MONTH.fullmatch(text):
        return None
    try:
        return dt.date(int(text[:4]), int(text[5:]), 1)
    except ValueError:
        return None


def month_next(month: dt.date) -> dt.date:
    """The first day of the month after `month`'s."""
    return (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def month_previous(month: dt.date) -> dt.date:
    """The first day of the month before `month`'s."""
    return (month.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
