"""`manage.py forget_oauth` (the scheduler's, hourly): expired OAuth tokens go, and so do the
apps that registered themselves and hold no token OAUTH_APP_DAYS (30) after registering; an
app in use and a staff-registered app stay."""

import datetime as dt
from urllib.parse import parse_qs, urlparse

import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model

from tests.accounts.test_registration import CALLBACK, allow, register

Application = get_application_model()


def self_registered(name: str) -> str:
    answer = register({"client_name": name, "redirect_uris": [CALLBACK]})
    assert answer.status_code == 201
    return answer.json()["client_id"]


def tokens_for(user, client_id: str) -> dict:
    browser = Client()
    browser.force_login(user)
    _, answer, verifier = allow(browser, client_id, CALLBACK)
    code = parse_qs(urlparse(answer["Location"]).query)["code"][0]
    body = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK}
    body |= {"client_id": client_id, "code_verifier": verifier}
    tokens = Client().post("/oauth/token", body)
    assert tokens.status_code == 200, tokens.content
    return tokens.json()


def refreshed(client_id: str, refresh_token: str) -> dict:
    body = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    answer = Client().post("/oauth/token", body)
    assert answer.status_code == 200, answer.content
    return answer.json()


def names() -> set[str]:
    return set(Application.objects.values_list("name", flat=True))


def test_self_registered_apps_without_tokens_go_after_30_days(user, public_app, capsys):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        # given: an app registers itself and nobody allows it; 20 days on, another registers
        # and a player allows it
        self_registered("Never Used")
        clock.shift(dt.timedelta(days=20))
        used = self_registered("In Use")
        tokens = tokens_for(user, used)

        # when: 11 days on, a third registers, the used one refreshes its tokens, and the
        # scheduler's job runs (twice: idempotent)
        clock.shift(dt.timedelta(days=11))
        self_registered("Newcomer")
        tokens = refreshed(used, tokens["refresh_token"])
        call_command("forget_oauth")
        call_command("forget_oauth")

        # then: only the app nobody used is gone; the staff's unused one stays
        assert names() == {"In Use", "Newcomer", public_app.name}
        assert capsys.readouterr().out.splitlines()[-2:] == [
            f"{n} self-registered app(s) removed: no token for 30 days" for n in (1, 0)
        ]

        # when: 62 more days without a use: the access token expired, and its refresh token
        # 30 days after that
        clock.shift(dt.timedelta(days=62))
        call_command("forget_oauth")

        # then: both self-registered apps and their tokens are gone, the staff's app stays
        assert names() == {public_app.name}
        assert not get_access_token_model().objects.exists()
        assert "2 self-registered app(s) removed" in capsys.readouterr().out


def test_an_app_in_use_keeps_working_through_the_job(user, db):
    client_id = self_registered("Daily Reader")
    tokens = tokens_for(user, client_id)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(2):  # used every 20 days: 40 days after its registration
            clock.shift(dt.timedelta(days=20))
            tokens = refreshed(client_id, tokens["refresh_token"])
        call_command("forget_oauth")
        # (a board:read token: a token not valid would answer 401 here)
        answer = Client(HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}").get("/api/v1/daily")
    assert answer.status_code == 200, answer.content
    assert Application.objects.filter(client_id=client_id).exists()
