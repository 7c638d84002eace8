"""`{% home_board draw as board %}`: today's board of people as the home page first shows it
(web/selectors.py board_top), so that the page does not shift when its script fills it in."""

from typing import Any

from django import template
from django.urls import reverse

from games.days import day_today
from web.selectors import board_top

register = template.Library()


@register.simple_tag
def home_board(draw: str | int) -> dict[str, Any] | None:
    return board_top(draw=int(draw))


@register.simple_tag
def today_board_url() -> str:
    """Today's 3-card board, linked straight (/daily/today/ only redirects there)."""
    return reverse("daily", args=[day_today().isoformat(), 3])
