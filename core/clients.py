"""Who is calling: the client address that rate limits, lock-outs, logs and the fair-play
address hashes all use.

A client writes whatever `X-Forwarded-For` it likes, so the header is read only as far as
the proxies we deploy wrote it. `PROXY_COUNT` (settings) is how many proxies stand between the
client and the app: 0 in development (the peer itself is the client), 1 in the production
topology, where nginx overwrites the header with the address it saw (deploy/nginx.conf.template).
With N proxies, the client is the N-th address from the right of the header: the leftmost
entries are the client's own claims.

Counters and lock-outs key on `client_key`: the address itself for IPv4, its /64 network for
IPv6, since one subscriber is given a whole /64 and may pick any address in it.

A browser also carries a device cookie (`DEVICE_COOKIE`, a random value set once by
`DeviceCookieMiddleware`): it stays when the address changes (another network, a VPN), so the
fair-play review links two accounts played from one browser. API clients that keep no cookies
have none.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

# What stands for a peer without an IP address (a Unix socket, a test transport): all such
# clients share one address, as they share one door.
UNKNOWN = "0.0.0.0"

# The device cookie: a random value (secrets.token_urlsafe(32)) the browser keeps for
# DEVICE_COOKIE_SECONDS, 400 days, the longest a browser keeps a cookie (RFC 6265bis).
DEVICE_COOKIE = "canfield_device"
DEVICE_COOKIE_SECONDS = 400 * 86400
DEVICE_VALUE = re.compile(r"^[A-Za-z0-9_-]{43}$")


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str:
    """The client's address as the outermost trusted proxy saw it (or the peer's address):
    always a valid IP address."""
    peer = _address(request.META.get("REMOTE_ADDR") or "") or UNKNOWN
    count = settings.PROXY_COUNT
    if count <= 0:
        return peer
    entries = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if len(entries) < count:
        # Not through the proxies (a probe on the app's own port): the peer is all we know.
        return peer
    return _address(entries[-count]) or peer


def client_key(request: HttpRequest) -> str:
    """What every per-address counter, limit and lock-out counts under: the client address for
    IPv4 (an IPv4-mapped IPv6 address is its IPv4 one), for IPv6 the first address of its /64
    (`2001:db8:1:2::` for every `2001:db8:1:2:*`): always a valid IP address."""
    address = ipaddress.ip_address(client_address(request))
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False).network_address)
    return str(address)


def client_address_hash(request: HttpRequest) -> str:
    """A keyed hash of the client's key (`client_key`, fair-play review): equal for equal
    addresses (IPv6: equal /64s), and the address cannot be read back without the key."""
    return _hash("canfield.client_address", client_key(request))


def _hash(kind: str, value: str) -> str:
    return salted_hmac(
        kind,
        value,
        secret=settings.ADDRESS_HASH_SECRET or None,  # None: derived from SECRET_KEY
        algorithm="sha256",
    ).hexdigest()


def client_device(request: HttpRequest) -> str:
    """The request's device cookie, or "" when it has none (or one we did not make)."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if DEVICE_VALUE.match(value) else ""


def client_device_hash(request: HttpRequest) -> str:
    """A keyed hash of the device cookie (fair-play review), keyed as `client_address_hash`;
    "" for a client without one."""
    device = client_device(request)
    return _hash("canfield.client_device", device) if device else ""


class DeviceCookieMiddleware:
    """Gives a browser that has no device cookie one: on a page (HTML), or on an API answer to a
    request that carries the session cookie (a browser signed in on the site). Clients that
    send no cookies (API keys, OAuth tokens) are never given one: they would drop it anyway,
    and a Set-Cookie on every answer is noise. HttpOnly (no script reads it), SameSite=Lax,
    Secure wherever the session cookie is."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if client_device(request) or DEVICE_COOKIE in response.cookies:
            return response
        kind = response.get("Content-Type", "")
        page = kind.startswith("text/html")
        browser_api = kind.startswith("application/json") and (
            settings.SESSION_COOKIE_NAME in request.COOKIES
        )
        if page or browser_api:
            response.set_cookie(
                DEVICE_COOKIE,
                secrets.token_urlsafe(32),
                max_age=DEVICE_COOKIE_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
