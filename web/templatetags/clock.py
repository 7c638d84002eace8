"""Template filters of the pages: a duration as the table shows it (web/static/web/api.js's
formatSeconds: "m:ss", "h:mm:ss")."""

from __future__ import annotations

import math

from django import template

register = template.Library()


@register.filter
def clock(seconds: float | None) -> str:
    """`seconds` as "m:ss" (or "h:mm:ss"); "–" for None.

    >>> clock(75.9), clock(3725), clock(None)
    ('1:15', '1:02:05', '–')
    """
    if seconds is None:
        return "–"
    total = max(0, math.floor(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
