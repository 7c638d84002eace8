"""Template context of every page: whether the visitor is a guest (accounts.identity), read only
when a template asks (the navigation does, for signed-in visitors)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.identity import player_is_guest


def guest(request: HttpRequest) -> dict[str, object]:
    return {"is_guest": SimpleLazyObject(lambda: player_is_guest(user=request.user))}
