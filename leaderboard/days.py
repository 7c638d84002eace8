"""The daily calendar: which day it is, when a day ends, and its secret deal number."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

DRAWS = (3, 1)
DEAL_NUMBERS = 2**35
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def day_zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def day_today(now: dt.datetime | None = None) -> dt.date:
    return timezone.localdate(now or timezone.now(), timezone=day_zone())


def day_ends_at(date: dt.date) -> dt.datetime:
    """Midnight after `date` in DAILY_TIME_ZONE (correct across DST changes)."""
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), tzinfo=day_zone())


def day_deal_number(date: dt.date, draw: int) -> int:
    """HMAC-SHA256 of the date and draw mode under DAILY_SECRET, reduced to a deal number.

    2^64 is a multiple of 2^35, so the first 8 bytes mod 2^35 are uniform: without the secret,
    the public shuffle (R4) tells nothing about tomorrow's deal.
    """
    message = f"canfield-daily:{date.isoformat()}:D{draw}".encode()
    digest = hmac.new(settings.DAILY_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % DEAL_NUMBERS


def day_parse(text: str) -> dt.date | None:
    """A `YYYY-MM-DD` date, None for anything else (ISO week dates and the like included)."""
    if not _DATE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None
