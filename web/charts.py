"""The player page's history drawn by the server as SVG (no chart library): the daily heat map,
the win rate by week and the moves against par. Each function turns the figures of
leaderboard.selectors.player_history_stats into the shapes the template draws (coordinates in
the SVG's own units: the SVG scales to its box)."""

from __future__ import annotations

import datetime as dt
from typing import Any

# The figures come from leaderboard.selectors.player_history_stats as rows of any column types
# (Any: that edge); the shapes go to the template only (dict[str, object]).

CELL = 12  # a heat map day: 10 units and a gap of 2
CHART_HEIGHT = 100  # the charts' plot area, above their axis labels
BAR = 12  # a week's bar: 9 units and a gap of 3
LEFT = 34  # room for the y axis' labels


def heat_map(*, days: list[dict[str, Any]], today: dt.date, span: int) -> dict[str, object]:
    """The last `span` days up to today as columns of weeks (Monday at the top): each day a
    cell at (`x`, `y`) with `level` 0 (no finished daily), 1 (played, not won), 2 (one won) or
    3 (two won) and its `date`."""
    by_date = {day["date"]: day for day in days}
    first = today - dt.timedelta(days=span - 1)
    start = first - dt.timedelta(days=first.weekday())
    cells = []
    for index in range((today - start).days + 1):
        date = start + dt.timedelta(days=index)
        if date < first:
            continue
        day = by_date.get(date.isoformat())
        level = 0 if day is None else (1 if day["won"] == 0 else 1 + day["won"])
        cells.append({"x": index // 7 * CELL, "y": index % 7 * CELL, "level": level, "date": date})
    return {"cells": cells, "width": ((today - start).days // 7 + 1) * CELL, "height": 7 * CELL}


def win_rate_chart(*, weeks: list[dict[str, Any]]) -> dict[str, object]:
    """One bar a week with a game (`x`, `y`, `height` of its win rate); `grid`: the 0, 50 and
    100 % lines at their `y`."""
    bars = [
        {
            "x": LEFT + index * BAR,
            "height": week["win_rate"] * CHART_HEIGHT // 100,
            "y": CHART_HEIGHT - week["win_rate"] * CHART_HEIGHT // 100,
            **week,
        }
        for index, week in enumerate(weeks)
        if week["win_rate"] is not None
    ]
    grid = [
        {"label": rate, "y": CHART_HEIGHT - rate * CHART_HEIGHT // 100} for rate in (0, 50, 100)
    ]
    return {"bars": bars, "grid": grid, "width": LEFT + len(weeks) * BAR, "height": CHART_HEIGHT}


def par_chart(*, points: list[dict[str, Any]], today: dt.date, span: int) -> dict[str, object]:
    """A dot per won daily at its day (`x`, across the last `span` days) and its moves against
    par (`y`); `grid`: the lines of 0 (par) and the largest difference either way."""
    top = max([1, *(point["over"] for point in points)])
    bottom = min([0, *(point["over"] for point in points)])
    scale = CHART_HEIGHT / (top - bottom)
    first = today - dt.timedelta(days=span - 1)
    width = LEFT + span + 4  # room for the last day's dot
    dots = [
        {
            "x": LEFT + (dt.date.fromisoformat(point["date"]) - first).days,
            "y": round((top - point["over"]) * scale, 1),
            **point,
        }
        for point in points
    ]
    grid = [{"label": value, "y": round((top - value) * scale, 1)} for value in {top, 0, bottom}]
    return {"dots": dots, "grid": sorted(grid, key=lambda line: line["y"]), "width": width,
            "height": CHART_HEIGHT}  # fmt: skip
