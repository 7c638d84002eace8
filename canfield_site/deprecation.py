"""The deprecation policy's headers (docs/api.md, "Versions and deprecation"): every answer of
a deprecated operation carries `Deprecation: @<unix time>` (RFC 9745), `Sunset: <HTTP date>`
(RFC 8594) and a `Link` to the changelog with `rel="deprecation"`, from the version that
deprecates it until the version that removes it, at least six months later.

To deprecate an operation, add it to DEPRECATED (its URL name, as in the urls.py files) with
the moment it is deprecated, its sunset and the URL of its changelog entry, list it under
"Deprecated" in CHANGELOG.md, and mark it `deprecated=True` in its `extend_schema`. The system
check canfield.E010 refuses a sunset less than six months after the deprecation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.checks import CheckMessage, Error, register
from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date

# How long a deprecated path, field or value lives after the headers first announce it.
MINIMUM_LIFE = dt.timedelta(days=183)


@dataclass(frozen=True)
class Deprecation:
    since: dt.datetime
    sunset: dt.datetime
    link: str  # where the changelog says what replaces it


# URL name -> its deprecation. Nothing is deprecated in 1.2.0.
DEPRECATED: dict[str, Deprecation] = {}


def deprecation_headers(deprecation: Deprecation) -> dict[str, str]:
    return {
        "Deprecation": f"@{int(deprecation.since.timestamp())}",
        "Sunset": http_date(deprecation.sunset.timestamp()),
        "Link": f'<{deprecation.link}>; rel="deprecation"; type="text/markdown"',
    }


class DeprecationHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        deprecation = DEPRECATED.get(match.url_name) if match and match.url_name else None
        if deprecation is not None:
            for header, value in deprecation_headers(deprecation).items():
                response[header] = value
        return response


@register()
def check_deprecations(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return [
        Error(
            f"{name}: its sunset comes less than six months after its deprecation",
            hint="docs/api.md, Versions and deprecation: a deprecated path lives >= 6 months",
            id="canfield.E010",
        )
        for name, deprecation in DEPRECATED.items()
        if deprecation.sunset - deprecation.since < MINIMUM_LIFE
    ]
