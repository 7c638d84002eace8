"""Every error path of the API answers in the caller's language (issue 24): each is asked in
en, hu and pl, and the hu and pl messages must differ from the English one and hold no English
words (field names and values the client sent are the API's identifiers, not words)."""

# ruff: noqa: E501  (the table of error paths reads best one case a line)
import datetime as dt
import json
import re
import uuid

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import override
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts.services import key_create
from core.errors import retry_in_words
from games import services
from leaderboard import services as leaderboard_services

# Words of the English messages that no Hungarian or Polish message has.
ENGLISH = re.compile(
    r"\b(the|must|is|not|no|such|there|yet|expected|available|seconds?|contradicts|unknown|"
    r"field|fields|one|of|too|many|from|this|address|was|request|throttled|invalid|token|"
    r"only|send|page|key|keys|lacks|scope|needed|here|wrong|password|body|json object|"
    r"valid|again|try|characters?|without|whole|number|list|card|names|expired|credentials|"
    r"provided|method|allowed|could|satisfy|header|unsupported|media|type|found|player|"
    r"daily|challenge|game|past|last|nested|deeply|more|or|and|be|at|most)\b",
    re.IGNORECASE,
)
# The API's identifiers, which a message may quote in any language.
IDENTIFIERS = re.compile(
    r"\b(draw|daily|ruleset|code|deck|expect|lang|status|page|page_size|name|scopes|days|"
    r"password|new_password|username|players|people|bots|true|false|app|classic|cardgames|"
    r"type|move|tap|recycle|undo|resign|"
    r"account:read|account:write|game:play|board:read|en|hu|pl|playing|won|resigned|"
    r"application/json|text/plain|text/html|JSON|NUL|YYYY-MM-DD|CF1|CF2|CSRF|API)\b"
)
GAMES = "/api/v1/games"


@pytest.fixture
def context(db, make_user):
    user = make_user("alice")
    game = services.game_create(owner=user)
    _row, key = key_create(user=user, name="all")
    _row, reader = key_create(user=user, name="reader", scopes=["board:read"])
    _row, short = key_create(user=user, name="short", days=1)
    ranked = make_user("ranked")
    leaderboard_services.daily_game_get_or_create(player=ranked, draw=3)
    _row, ranked_key = key_create(user=ranked, name="all")
    return {
        "game": str(game.id),
        "key": key,
        "reader": reader,
        "short": short,
        "ranked": ranked_key,
    }


def call(lang: str, credentials: str | None, method: str, path: str, **options):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    if credentials:
        client.credentials(HTTP_AUTHORIZATION=credentials)
    if "json" in options:
        return client.generic(
            method, path, _dump(options.pop("json")), "application/json", **options
        )
    if "raw" in options:
        return client.generic(method, path, options.pop("raw"), options.pop("type"), **options)
    return client.generic(method, path, **options)


def _dump(body) -> str:
    return json.dumps(body)


# (name, credentials ("key", "reader", "short", "ranked", a literal header, or None), method,
#  path (with {game}), options)
CASES = [
    ("no credentials", None, "GET", GAMES, {}),
    ("wrong key", "Token " + "0" * 40, "GET", GAMES, {}),
    ("bad header", "Token a b", "GET", GAMES, {}),
    ("expired key", "short+", "GET", GAMES, {}),
    ("missing scope", "reader", "POST", GAMES, {"json": {}}),
    ("no such api path", None, "GET", "/api/v1/nothing", {}),
    ("no such player", None, "GET", "/api/v1/players/nobody-here", {}),
    ("no daily yet", None, "GET", "/api/v1/daily/2999-01-01", {}),
    ("no daily board", None, "GET", "/api/v1/daily/2001-01-01/leaderboard", {}),
    ("not a date", None, "GET", "/api/v1/daily/yesterday", {}),
    ("bad board draw", None, "GET", "/api/v1/daily/2001-01-01/leaderboard?draw=2", {}),
    ("bad population", None, "GET", "/api/v1/daily/2001-01-01/leaderboard?players=x", {}),
    ("wrong login", None, "POST", "/api/v1/auth/token", {"json": {"username": "alice", "password": "x"}}),
    ("weak password", None, "POST", "/api/v1/auth/register", {"json": {"username": "zed", "password": "123"}}),
    ("taken name", None, "POST", "/api/v1/auth/register", {"json": {"username": "ALICE", "password": "correct-horse-99"}}),
    ("bad name", None, "POST", "/api/v1/auth/register", {"json": {"username": "a b", "password": "correct-horse-99"}}),
    ("empty name", None, "POST", "/api/v1/auth/token", {"json": {"username": 5, "password": "x"}}),
    ("long name", None, "POST", "/api/v1/auth/token", {"json": {"username": "x" * 151, "password": "x"}}),
    ("unknown fields", None, "POST", "/api/v1/auth/token", {"json": {"username": "a", "password": "b", "x": 1}}),
    ("not an object", None, "POST", "/api/v1/auth/token", {"json": ["a"]}),
    ("not json", None, "POST", "/api/v1/auth/token", {"raw": b"{", "type": "application/json"}),
    ("draw 2", "key", "POST", GAMES, {"json": {"draw": 2}}),
    ("daily false", "key", "POST", GAMES, {"json": {"daily": False}}),
    ("bad ruleset", "key", "POST", GAMES, {"json": {"ruleset": "x"}}),
    ("draw contradicts", "key", "POST", GAMES, {"json": {"code": "CF1-D3-AAAAACL", "draw": 1}}),
    ("code and deck", "key", "POST", GAMES, {"json": {"code": "CF1-D3-AAAAACL", "deck": []}}),
    ("deck not a list", "key", "POST", GAMES, {"json": {"deck": "x"}}),
    ("daily with a code", "key", "POST", GAMES, {"json": {"daily": True, "code": "x"}}),
    ("bad code", "key", "POST", GAMES, {"json": {"code": "nonsense"}}),
    ("bad deck", "key", "POST", GAMES, {"json": {"deck": ["AH"] * 52}}),
    ("bad expect", "key", "POST", GAMES + "/{game}/actions", {"json": {"type": "draw", "expect": -1}}),
    ("illegal move", "key", "POST", GAMES + "/{game}/actions", {"json": {"type": "move", "from": "waste", "to": "foundation"}}),
    ("bad action field", "key", "POST", GAMES + "/{game}/actions", {"json": {"type": "jump"}}),
    ("bad lang", "key", "GET", GAMES + "/{game}/text?lang=xx", {}),
    ("bad status", "key", "GET", GAMES + "?status=x", {}),
    ("bad daily filter", "key", "GET", GAMES + "?daily=x", {}),
    ("bad page", "key", "GET", GAMES + "?page=0", {}),
    ("page past the last", "key", "GET", GAMES + "?page=9", {}),
    ("no such game", "key", "GET", f"{GAMES}/{uuid.UUID(int=7)}", {}),
    ("method not allowed", "key", "PUT", GAMES, {"json": {}}),
    ("not acceptable", "key", "GET", GAMES, {"HTTP_ACCEPT": "text/html"}),
    ("unsupported type", "key", "POST", GAMES, {"raw": b"draw=3", "type": "text/plain"}),
    ("empty plain body", "key", "POST", GAMES, {"raw": b"", "type": "text/plain"}),
    ("bot after a ranked game", "ranked", "POST", "/api/v1/account/bot", {}),
    ("bad key name", "key", "POST", "/api/v1/account/tokens", {"json": {"name": "", "scopes": ["game:play"]}}),
    ("bad scopes", "key", "POST", "/api/v1/account/tokens", {"json": {"name": "x", "scopes": []}}),
    ("bad days", "key", "POST", "/api/v1/account/tokens", {"json": {"name": "x", "scopes": ["game:play"], "days": 0}}),
    ("wider key", "reader+w", "POST", "/api/v1/account/tokens", {"json": {"name": "x", "scopes": ["game:play"]}}),
    ("no such key", "key", "DELETE", "/api/v1/account/tokens/nokey", {}),
    ("wrong password", "key", "POST", "/api/v1/account/password", {"json": {"password": "x", "new_password": "y"}}),
    ("no new password", "key", "POST", "/api/v1/account/password", {"json": {"password": "correct-horse-battery"}}),
    ("weak new password", "key", "POST", "/api/v1/account/password", {"json": {"password": "correct-horse-battery", "new_password": "1"}}),
    ("deletion without password", "key", "DELETE", "/api/v1/account", {"json": {}}),
]  # fmt: skip


def credentials_for(name: str | None, context, user_key_maker) -> str | None:
    if name is None or " " in name:
        return name
    if name == "reader+w":
        return "Bearer " + user_key_maker(["account:write", "board:read"])
    return "Bearer " + context[name.rstrip("+")]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_every_error_is_worded_in_hungarian_and_polish(context, case):
    name, who, method, path, options = case
    alice = get_user_model().objects.get(username="alice")

    def key_maker(scopes):
        return key_create(user=alice, name="w", scopes=scopes)[1]

    credentials = credentials_for(who, context, key_maker)
    path = path.replace("{game}", context["game"])
    later = timezone.now() + dt.timedelta(days=2) if who == "short+" else None
    messages = {}
    for lang in ("en", "hu", "pl"):
        with time_machine.travel(later or timezone.now(), tick=True):
            response = call(lang, credentials, method, path, **dict(options))
        assert response.status_code >= 400, (name, lang, response.status_code)
        messages[lang] = response.json()["error"]["message"]
    for lang in ("hu", "pl"):
        assert messages[lang] != messages["en"], (name, lang, messages)
        words = IDENTIFIERS.sub(" ", messages[lang])
        english = ENGLISH.findall(words)
        assert not english, (name, lang, messages[lang], english)


@pytest.mark.usefixtures("hour_to_spare")
def test_the_throttle_message_is_worded_whole_in_each_language(db, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"token": "1/hour"})
    # The windows are the clock's hours: twenty minutes into this one, forty are left whenever
    # the test runs (in an hour's last two minutes the wait would be seconds, said in seconds).
    twenty_past = (int(timezone.now().timestamp()) // 3600) * 3600 + 1200
    with time_machine.travel(twenty_past, tick=False):
        body = {"username": "nobody", "password": "x"}
        APIClient().post("/api/v1/auth/token", body, format="json")

        for lang, words, hour in (
            ("en", "Too many requests. Try again in", "in 1 hour."),
            ("hu", "Túl sok kérés. Próbáld újra", "1 óra múlva."),
            ("pl", "Zbyt wiele żądań. Spróbuj ponownie za", "za 1 godzinę."),
        ):
            response = APIClient(HTTP_ACCEPT_LANGUAGE=lang).post(
                "/api/v1/auth/token", body, format="json"
            )
            assert response.status_code == 429
            message = response.json()["error"]["message"]
            assert message.startswith(words), (lang, message)
            assert "Expected" not in message and "available" not in message
            # the rest of an hour's window, said in minutes or hours as a person says it
            # (Retry-After has the seconds; core/errors.py retry_in_words)
            seconds = int(response["Retry-After"])
            with override(lang):
                said = retry_in_words(seconds)
            assert seconds == 40 * 60 and message.endswith(said), (lang, message)
            assert said.endswith(hour) or ("minut" in said or "perc" in said), said
