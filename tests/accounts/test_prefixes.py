"""Credentials that secret scanners recognise (docs/api.md "Accounts", keys): API keys start `cfk_`,
OAuth access tokens `cfo_` and refresh tokens `cfr_`, each matching the pattern the docs give;
keys made before (40 bare hex digits) keep working."""

import re
import secrets
from pathlib import Path

from django.utils import timezone

from accounts.models import ApiKey
from accounts.services import KEY_PATTERN, OAUTH_TOKEN_PATTERN, SCOPES, key_hash
from tests.accounts.test_oauth_doors import bearer, code_for, exchange

README = "README.md"


def test_every_new_key_starts_cfk_and_matches_the_documented_pattern(api_client, user):
    registered = api_client.post(
        "/api/v1/auth/register", {"username": "carol", "password": "correct-horse-battery"}, "json"
    ).json()["token"]
    login = api_client.post(
        "/api/v1/auth/token", {"username": "alice", "password": "correct-horse-battery"}, "json"
    ).json()["token"]
    made = bearer(login).post(
        "/api/v1/account/tokens", {"name": "ci", "scopes": ["board:read"]}, "json"
    )
    for key in (registered, login, made.json()["token"]):
        assert key.startswith("cfk_") and re.fullmatch(KEY_PATTERN, key), key
        assert bearer(key).get("/api/v1/account").status_code in (200, 403)
    # found in a leaked file by the pattern the docs give scanners
    leaked = f'API_KEY = "{login}"\nother = "cfk_{"0" * 39}"\n'
    assert re.findall(KEY_PATTERN, leaked) == [login]
    # listed by the digits after the prefix, never the key
    listed = bearer(login).get("/api/v1/account/tokens").json()
    assert {row["id"] for row in listed} >= {login[4:12], made.json()["id"]}


def test_a_key_made_before_the_prefix_keeps_working(user):
    old = secrets.token_hex(20)
    ApiKey.objects.create(
        id=old[:8], user=user, key_hash=key_hash(old), name="2025", scopes=" ".join(SCOPES),
        created=timezone.now(),
    )  # fmt: skip
    answer = bearer(old).get("/api/v1/account")
    assert answer.status_code == 200 and answer.json()["username"] == "alice"


def test_oauth_tokens_start_cfo_and_cfr_and_match_the_documented_pattern(public_app, user):
    tokens = exchange(public_app, *code_for(public_app, user, "board:read")).json()
    access, refresh = tokens["access_token"], tokens["refresh_token"]
    assert access.startswith("cfo_") and refresh.startswith("cfr_")
    assert re.fullmatch(OAUTH_TOKEN_PATTERN, access) and re.fullmatch(OAUTH_TOKEN_PATTERN, refresh)
    assert bearer(access).get("/api/v1/daily").status_code == 200


def test_the_docs_give_the_patterns_scanners_use():
    for page in ("docs/api.md", README):
        text = Path(page).read_text(encoding="utf-8")
        assert f"`{KEY_PATTERN}`" in text and f"`{OAUTH_TOKEN_PATTERN}`" in text, page
