"""OAuth 2.0 for third-party apps (docs/api.md "Accounts"): the authorization code grant with
PKCE (S256) of a public client, as the server wants it, on httpx alone.

The shape follows authlib's `OAuth2Session` (an authorization URL with its state and code
verifier, `fetch_token` from the URL the player came back to, a refresh that hands the new
tokens to `update_token`) without its dependency:

>>> app = OAuthApp("https://canfield.example", client_id="...", redirect_uri="http://127.0.0.1/cb")
>>> asked = app.authorization(["game:play"])      # send the player to asked.url
>>> tokens = app.fetch_token(asked, redirected_to)   # the URL the player came back to
>>> with app.client(tokens, update_token=save) as client:
...     client.new_game()   # refreshed once on a 401, then retried
>>> async with app.async_client(tokens, update_token=save) as client:
...     await client.new_game()   # the same, for asyncio

The server rotates refresh tokens: each refresh answers a new one and the old one is refused
from then on (a second use of it revokes the whole grant), so keep the tokens of the last
refresh (`update_token`)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

from canfield_client import errors
from canfield_client._core import DEFAULT_SERVER, USER_AGENT
from canfield_client.client import AsyncClient, Client
from canfield_client.models import Scope


class OAuthError(errors.CanfieldError):
    """An answer of the OAuth endpoints in RFC 6749's shape (`{"error", "error_description"}`:
    `invalid_grant` for a used, expired or revoked code or refresh token...), or an
    authorization the player denied (`access_denied`), or a redirect whose `state` is not the
    one sent (`state_mismatch`). `error` is the RFC's code."""

    code = "oauth_error"

    def __init__(self, error: str, description: str, *, status: int = 0) -> None:
        super().__init__(description or error, status=status)
        self.error = error

    def __str__(self) -> str:
        return f"{self.error}: {self.message}"


@dataclass(frozen=True, slots=True)
class Authorization:
    """An authorization request: send the player to `url`; keep `state` and `code_verifier`
    (secret: never in the URL) until the player comes back."""

    url: str
    state: str
    code_verifier: str


@dataclass(frozen=True, slots=True)
class Tokens:
    """A token answer. `expires_at`: seconds since the epoch (`time.time()`)."""

    access_token: str
    refresh_token: str | None
    expires_at: float
    scopes: tuple[str, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tokens:
        refresh = data.get("refresh_token")
        return cls(
            access_token=str(data["access_token"]),
            refresh_token=None if refresh is None else str(refresh),
            expires_at=time.time() + float(data.get("expires_in", 0)),
            scopes=tuple(str(data.get("scope", "")).split()),
        )


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def pkce_pair() -> tuple[str, str]:
    """A fresh PKCE code verifier (43 characters of 32 random bytes, RFC 7636 4.1) and its S256
    challenge (4.2)."""
    verifier = _b64url(secrets.token_bytes(32))
    return verifier, _b64url(hashlib.sha256(verifier.encode("ascii")).digest())


class OAuthApp:
    """A public client (no secret: PKCE instead) of the server's OAuth endpoints: its
    `client_id` (from `POST /oauth/register`, or the staff) and one of its redirect URIs."""

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        client_id: str,
        redirect_uri: str,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.client_id = client_id
        self.redirect_uri = redirect_uri
        self._http = httpx.Client(
            timeout=timeout, transport=transport, headers={"User-Agent": USER_AGENT}
        )

    def close(self) -> None:
        self._http.close()

    def authorization(self, scopes: Sequence[Scope]) -> Authorization:
        """The consent page's URL for `scopes`, with a fresh state and PKCE pair."""
        verifier, challenge = pkce_pair()
        state = secrets.token_urlsafe(16)
        query = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "scope": " ".join(scopes),
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        return Authorization(f"{self.server}/oauth/authorize?{urlencode(query)}", state, verifier)

    def fetch_token(self, authorization: Authorization, redirected_to: str) -> Tokens:
        """The tokens for the code of `redirected_to` (the redirect URI the player came back
        to): its `state` must be the authorization's (else OAuthError `state_mismatch`, and no
        code is sent anywhere); an `error` there (`access_denied`) is raised as OAuthError."""
        query = {
            name: values[0] for name, values in parse_qs(urlsplit(redirected_to).query).items()
        }
        if query.get("state") != authorization.state:
            raise OAuthError("state_mismatch", "The redirect's state is not the one sent.")
        if "error" in query or "code" not in query:
            raise OAuthError(
                query.get("error", "invalid_request"), query.get("error_description", "")
            )
        return self._grant(
            {
                "grant_type": "authorization_code",
                "code": query["code"],
                "redirect_uri": self.redirect_uri,
                "code_verifier": authorization.code_verifier,
            }
        )

    def refresh_token(self, refresh_token: str) -> Tokens:
        """New tokens for a refresh token, which is refused from then on (rotation): keep the
        answer's `refresh_token`."""
        return self._grant({"grant_type": "refresh_token", "refresh_token": refresh_token})

    def revoke_token(
        self, token: str, *, hint: Literal["access_token", "refresh_token"] | None = None
    ) -> None:
        """Revoke an access or refresh token (RFC 7009); a refresh token takes its access
        tokens with it. An unknown token is no error."""
        data = {"token": token, "client_id": self.client_id}
        if hint is not None:
            data["token_type_hint"] = hint
        self._post("revoke", data)

    def client(
        self,
        tokens: Tokens,
        *,
        update_token: Callable[[Tokens], None] | None = None,
        **options: Any,
    ) -> Client:
        """A `Client` (`options` are its own) that uses the access token and, on a 401
        `not_authenticated` (the server's answer for an expired or revoked token), refreshes
        once and retries the request; `update_token` gets the new tokens each time."""
        lock = threading.Lock()
        current = [tokens]

        def renew(refused: str | None) -> str | None:
            with lock:
                if current[0].access_token != refused:  # (another request renewed it)
                    return current[0].access_token
                refresh = current[0].refresh_token
                if refresh is None:
                    return None
                current[0] = self.refresh_token(refresh)
            if update_token is not None:
                update_token(current[0])
            return current[0].access_token

        return Client(self.server, token=tokens.access_token, renew=renew, **options)

    def async_client(
        self,
        tokens: Tokens,
        *,
        update_token: Callable[[Tokens], None] | None = None,
        **options: Any,
    ) -> AsyncClient:
        """`client`, for asyncio: an `AsyncClient` that refreshes once on a 401 and retries.
        Its requests wait for one refresh at a time (made on a thread: this app's HTTP
        client blocks)."""
        lock = asyncio.Lock()
        current = [tokens]

        async def renew(refused: str | None) -> str | None:
            async with lock:
                if current[0].access_token != refused:  # (another request renewed it)
                    return current[0].access_token
                refresh = current[0].refresh_token
                if refresh is None:
                    return None
                current[0] = await asyncio.to_thread(self.refresh_token, refresh)
            if update_token is not None:
                update_token(current[0])
            return current[0].access_token

        return AsyncClient(self.server, token=tokens.access_token, renew=renew, **options)

    def _grant(self, data: dict[str, str]) -> Tokens:
        return Tokens.from_json(self._post("token", {**data, "client_id": self.client_id}))

    def _post(self, endpoint: str, data: dict[str, str]) -> Any:
        response = self._http.post(f"{self.server}/oauth/{endpoint}", data=data)
        try:
            body = response.json() if response.content else None
        except ValueError:
            body = None
        if response.status_code < 400:
            return body
        # (429 and 503 come in the API's own error shape: docs/api.md)
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            raise OAuthError(
                body["error"], str(body.get("error_description", "")), status=response.status_code
            )
        raise errors.error_from(response.status_code, body, response.headers)
