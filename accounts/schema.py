"""The API's security scheme in the schema: an API key or an OAuth access token as `Bearer`
(`Token <key>` is accepted too, as before). Loaded by accounts.apps."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class KeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key (POST auth/token, POST account/tokens) or an OAuth 2.0 "
            "access token (/oauth/token), as `Authorization: Bearer <key>`; "
            "`Authorization: Token <key>` works too. Each operation needs a scope "
            "(docs/api.md).",
        }
