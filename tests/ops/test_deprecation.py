"""The deprecation policy's headers (canfield_site/deprecation.py, docs/api.md "Versions and
deprecation"): a deprecated operation's answers announce it, others do not, and a sunset less
than six months after the deprecation is refused by a system check."""

import datetime as dt

from django.core.checks import run_checks
from rest_framework.test import APIClient

from canfield_site import deprecation

SINCE = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)
LINK = "https://canfield.example/changelog#2.0.0"


def test_a_deprecated_operation_announces_its_sunset_and_others_do_not(monkeypatch, db):
    sunset = SINCE + dt.timedelta(days=200)
    monkeypatch.setitem(
        deprecation.DEPRECATED, "ping", deprecation.Deprecation(SINCE, sunset, LINK)
    )
    client = APIClient()

    deprecated = client.get("/api/v1/ping", HTTP_ORIGIN="https://app.example")
    other = client.get("/api/v1/daily")

    assert deprecated.status_code == 200
    assert deprecated["Deprecation"] == f"@{int(SINCE.timestamp())}"
    assert deprecated["Sunset"] == "Tue, 20 Jul 2027 00:00:00 GMT"
    assert deprecated["Link"] == f'<{LINK}>; rel="deprecation"; type="text/markdown"'
    assert not {"Deprecation", "Sunset"} & set(other.headers)


def test_a_sunset_sooner_than_six_months_is_refused(monkeypatch):
    soon = deprecation.Deprecation(SINCE, SINCE + dt.timedelta(days=90), LINK)
    monkeypatch.setitem(deprecation.DEPRECATED, "ping", soon)

    assert [m.id for m in run_checks() if m.id == "canfield.E010"] == ["canfield.E010"]
    monkeypatch.setitem(
        deprecation.DEPRECATED,
        "ping",
        soon.__class__(SINCE, SINCE + deprecation.MINIMUM_LIFE, LINK),
    )
    assert not [m for m in run_checks() if m.id == "canfield.E010"]
