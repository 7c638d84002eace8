"""DRF's token authentication, with its lookup as one plain SQL query.

Every API request authenticates, so the lookup is on the hot path: a raw query skips the ORM's
query compilation, the largest cost of the lookup (measured with bench/api.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user_model = get_user_model()
        users = list(
            user_model.objects.raw(
                f"SELECT u.* FROM {user_model._meta.db_table} u "
                f"JOIN {Token._meta.db_table} t ON t.user_id = u.{user_model._meta.pk.column} "
                "WHERE t.key = %s",
                [key],
            )
        )
        if not users:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not users[0].is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return users[0], Token(key=key, user=users[0])
