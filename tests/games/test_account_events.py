"""The account event stream (docs/api.md "Streams and exports", accounts/events.py) against a
real ASGI server (uvicorn in a subprocess, tests/web/conftest.py; with REDIS_URL its wake-ups go
through Redis): an account's games as they start and end, seen from another client of the account;
resumed with `since`; closed with its key; and the events no stream is open for."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection, transaction
from django.utils import timezone
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts import events
from accounts.models import AccountEvent
from games.days import day_today
from leaderboard.services import day_announce
from tests.conftest import requires_postgres
from tests.games.helpers import StreamLines
from tests.games.test_stream_ends import CLOSED_WITHIN, Player, kinds_after
from tests.leaderboard.test_live_contract import validate

PATH = "/api/v1/account/events"
NDJSON = {"Accept": "application/x-ndjson"}


def _events(lines: StreamLines, count: int) -> list[dict[str, object]]:
    """The first `count` events of the stream (keep-alive lines left out), once they arrived."""
    found: list[dict[str, object]] = []
    seen = 2  # (the opening's empty line and its `stream_opened` line)
    while len(found) < count:
        seen += 1
        line = lines.wait(seen)[-1][1]
        assert line != b"<closed>", found
        if line:
            found.append(json.loads(line))
            validate(found[-1], "AccountEvent")  # as docs/asyncapi.yaml describes it
    return found


def _open(base_url: str, headers: dict[str, str], since: object = None) -> StreamLines:
    client = httpx.Client(base_url=base_url, timeout=30)
    path = PATH if since is None else f"{PATH}?since={since}"
    lines = StreamLines(client, path, {**headers, **NDJSON})
    assert lines.wait_open() == 200
    assert lines.wait(1)[0][1] == b""  # open: what happens from now on is sent
    opened = json.loads(lines.wait(2)[1][1])  # where it starts: the id to resume from
    validate(opened, "AccountEvent")
    assert (opened["type"], opened["data"]) == (events.OPENED, {})
    if since is not None:
        assert opened["id"] == int(since)  # type: ignore[call-overload]
    lines.opened = opened  # type: ignore[attr-defined]
    lines.client = client  # type: ignore[attr-defined]
    return lines


def _close(lines: StreamLines) -> None:
    lines.close()
    lines.client.close()  # type: ignore[attr-defined]


def test_a_stream_tells_the_account_s_games_and_resumes_after_since(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: an account's event stream, opened with one of its keys
        player = Player(client)
        lines = _open(base_url, player.streamer)
        assert lines.headers["content-type"] == "application/x-ndjson"

        # when: another key of the account deals a game and resigns it
        game_id = player.game()
        (started,) = _events(lines, 1)
        resigned = client.post(
            f"/api/v1/games/{game_id}/actions", json={"type": "resign"}, headers=player.actor
        )
        assert resigned.status_code == 200, resigned.text

        # then: its start and its end, each with its id
        _, ended = _events(lines, 2)
        assert started["type"] == "game_started"
        assert started["data"] == {"game": game_id, "match": None, "daily": None}
        assert ended["type"] == "game_ended"
        assert ended["data"] == {
            "game": game_id, "status": "resigned", "score": 0, "end_reason": "resigned"
        }  # fmt: skip
        assert int(ended["id"]) > int(started["id"])  # type: ignore[call-overload]
        _close(lines)

        # when: a game starts and ends while no stream is open
        missed_game = player.game()
        client.post(
            f"/api/v1/games/{missed_game}/actions", json={"type": "resign"}, headers=player.actor
        )

        # then: a stream from `since` sends exactly those, then what comes next
        again = _open(base_url, player.streamer, since=ended["id"])
        later_game = player.game()
        missed = _events(again, 3)
        assert [(event["type"], event["data"]["game"]) for event in missed] == [  # type: ignore[index]
            ("game_started", missed_game),
            ("game_ended", missed_game),
            ("game_started", later_game),
        ]
        _close(again)

        # and another account's stream from before them hears none of them: its first event is
        # its own game
        other = Player(client)
        theirs = _open(base_url, other.streamer, since=lines.opened["id"])  # type: ignore[attr-defined]
        their_game = other.game()
        (first,) = _events(theirs, 1)
        assert (first["type"], first["data"]["game"]) == ("game_started", their_game)  # type: ignore[index]
        _close(theirs)


def test_a_revoked_key_s_event_stream_closes(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        player = Player(client)
        lines = _open(base_url, player.streamer)
        player.game()
        _events(lines, 1)

        path = f"/api/v1/account/tokens/{player.streamer_id}"
        assert client.delete(path, headers=player.actor).status_code == 204
        player.game()

        # the stream closes, without the game dealt after the revocation
        assert kinds_after(lines, 3, CLOSED_WITHIN) <= {"keep-alive"}  # (after the opening, event)
        assert client.get(PATH, headers=player.streamer).status_code == 401


@pytest.mark.parametrize("since", ["999999999999", "abc", "-1", ""])
def test_an_unknown_since_is_refused_in_the_api_s_shape(base_url, since):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        player = Player(client)
        headers = {**player.streamer, "Accept-Language": "hu"}
        answer = client.get(f"{PATH}?since={since}", headers=headers)
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error["code"] == "invalid_request"
        assert "since" in error["message"] and "7" in error["message"]


@pytest.mark.django_db
def test_a_new_day_is_one_event_every_account_receives_and_old_events_are_forgotten(
    django_user_model,
):
    one = django_user_model.objects.create_user("one")
    two = django_user_model.objects.create_user("two")
    before = {user.pk: events.events_last(user_id=user.pk) for user in (one, two)}

    assert day_announce() == day_today()
    assert day_announce() is None  # once however often the scheduler runs

    told = {
        user: events.events_after(user_id=user.pk, after=before[user.pk]) for user in [one, two]
    }
    (row,) = AccountEvent.objects.filter(kind="daily_published")
    assert row.user is None and row.data == {"date": day_today().isoformat()}
    assert told == {one: [events.event_payload(row)], two: [events.event_payload(row)]}

    AccountEvent.objects.filter(pk=row.pk).update(at=timezone.now() - dt.timedelta(days=8))
    assert events.events_forget(now=timezone.now()) == 1
    assert not events.event_known(user_id=one.pk, event_id=row.seq)


def test_every_kind_is_documented_in_both_documents():
    from tests.leaderboard.test_live_contract import ASYNCAPI

    documented = ASYNCAPI["components"]["schemas"]["AccountEvent"]["properties"]["type"]["enum"]
    assert set(documented) == {events.OPENED, *events.KINDS}
    api_md = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    assert all(f"| `{kind}` |" in api_md for kind in [events.OPENED, *events.KINDS])


def test_without_an_asgi_server_the_answer_is_the_backlog_then_the_end(auth_client, user):
    # given: two events of the account, the first one's id known
    events.event_add(user=user.pk, kind="game_started", data={"game": "a"})
    events.event_add(user=user.pk, kind="game_ended", data={"game": "a"})
    first = events.events_after(user_id=user.pk, after=0)[0]

    # when: asked through the WSGI test client (nothing can hold a stream open there)
    answer = auth_client.get(f"{PATH}?since={first['id']}", headers=NDJSON)

    # then: the opening's empty line, its `stream_opened` line, the event after `since`, and
    # the end
    lines = b"".join(answer.streaming_content).split(b"\n")
    assert answer.status_code == 200
    assert lines[0] == b"" and [
        (json.loads(line)["type"], json.loads(line)["id"]) for line in lines[1:] if line
    ] == [(events.OPENED, first["id"]), ("game_ended", first["id"] + 1)]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_an_event_committed_after_a_later_one_is_still_sent_after_since(django_user_model):
    # given: an account, and a writer whose event has the lower row id but is not committed yet
    user = django_user_model.objects.create_user("slow")
    written, release = threading.Event(), threading.Event()

    def write(game: str, wait: bool) -> None:
        try:
            with transaction.atomic():
                events.event_add(user=user.pk, kind="game_started", data={"game": game})
                written.set()
                if wait:
                    assert release.wait(30)
        finally:
            connection.close()

    slow = threading.Thread(target=write, args=("first", True))
    slow.start()
    assert written.wait(30)

    # when: a second writer's event commits before it, and a reader is sent what is committed
    fast = threading.Thread(target=write, args=("second", False))
    fast.start()
    fast.join(30)
    sent = events.events_after(user_id=user.pk, after=0)
    # and the first writer commits, then the reader resumes after the last id it was sent
    release.set()
    slow.join(30)
    resumed = events.events_after(user_id=user.pk, after=sent[-1]["id"])

    # then: the two rows were committed out of their ids' order, and the reader got both
    rows = dict(AccountEvent.objects.values_list("data__game", "pk"))
    assert rows["first"] < rows["second"]
    assert [event["data"]["game"] for event in sent] == ["second"]
    assert [event["data"]["game"] for event in resumed] == ["first"]


def _socket(base_url: str, query: str = "", headers: dict[str, str] | None = None) -> Any:  # noqa: F811
    url = base_url.replace("http://", "ws://") + f"/ws/account/events{query}"
    return connect(url, additional_headers=headers or {}, open_timeout=10)


def _close_code(ws: Any, within: float = 10.0) -> int | None:
    """The code the server closed `ws` with, once it did (within `within` s)."""
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=max(0.0, deadline - time.monotonic()))
    except ConnectionClosed:
        return ws.close_code
    return None


def test_the_websocket_sends_the_stream_s_events_and_closes_with_its_key(base_url):  # noqa: F811
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: an event of the account, read from its NDJSON stream
        player = Player(client)
        lines = _open(base_url, player.streamer)
        game_id = player.game()
        (started,) = _events(lines, 1)

        # when: its socket is opened with a key of account:read after that event, and the game
        # is resigned
        with _socket(base_url, f"?since={started['id']}", player.streamer) as ws:
            client.post(
                f"/api/v1/games/{game_id}/actions", json={"type": "resign"}, headers=player.actor
            )
            opened = json.loads(ws.recv(timeout=10))
            assert (opened["type"], opened["id"]) == (events.OPENED, started["id"])
            ended = json.loads(ws.recv(timeout=10))

            # then: the game's end, the same event as the stream's line
            assert (ended["type"], ended["data"]["game"]) == ("game_ended", game_id)
            assert _events(lines, 2)[1] == ended
            validate(ended, "AccountEvent")
            _close(lines)

            # when: the key is revoked
            path = f"/api/v1/account/tokens/{player.streamer_id}"
            assert client.delete(path, headers=player.actor).status_code == 204

            # then: the socket is closed with 4401, within a keep-alive
            assert _close_code(ws, CLOSED_WITHIN) == 4401


def test_the_websocket_refuses_without_a_credential_a_scope_or_a_known_since(
    base_url,  # noqa: F811
    run_on_server,  # noqa: F811
):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        player = Player(client)
        reader = client.post(
            "/api/v1/account/tokens",
            json={"name": "boards", "scopes": ["board:read"]},
            headers=player.actor,
        ).json()
        no_scope = {"Authorization": f"Bearer {reader['token']}"}
        session = run_on_server(
            "from importlib import import_module\n"
            "from django.conf import settings\n"
            "from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY,"
            " HASH_SESSION_KEY\n"
            f"user = get_user_model().objects.get(username='{player.name}')\n"
            "store = import_module(settings.SESSION_ENGINE).SessionStore()\n"
            "store[SESSION_KEY] = str(user.pk)\n"
            "store[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'\n"
            "store[HASH_SESSION_KEY] = user.get_session_auth_hash()\n"
            "store.create()\n"
            "print(store.session_key)\n"
        ).split()[-1]

    # then: each refusal has its close code
    refused = {
        "none": ("", {}),
        "bad key": ("", {"Authorization": "Token nope"}),
        "no scope": ("", no_scope),
        "bad since": ("?since=abc", player.streamer),
        "unknown since": ("?since=999999999999", player.streamer),
    }
    codes = {}
    for name, (query, headers) in refused.items():
        with _socket(base_url, query, headers) as ws:
            codes[name] = _close_code(ws)
    assert codes == {
        "none": 4401, "bad key": 4401, "no scope": 4403, "bad since": 4400, "unknown since": 4400
    }  # fmt: skip

    # and a browser's session opens it (its opening message, then nothing: nothing happened)
    with _socket(base_url, "", {"Cookie": f"sessionid={session}"}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == events.OPENED
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.5)


def test_a_stream_opened_without_since_resumes_from_its_opening_line(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        # given: a stream opened without `since`, closed before any event
        player = Player(client)
        lines = _open(base_url, player.streamer)
        opened = lines.opened  # type: ignore[attr-defined]
        _close(lines)

        # when: a game is played while no stream is open
        game_id = player.game()
        client.post(
            f"/api/v1/games/{game_id}/actions", json={"type": "resign"}, headers=player.actor
        )

        # then: resumed from the opening's id (no event of the account), both events come
        again = _open(base_url, player.streamer, since=opened["id"])
        told = _events(again, 2)
        assert [(e["type"], e["data"]["game"]) for e in told] == [  # type: ignore[index]
            ("game_started", game_id), ("game_ended", game_id)
        ]  # fmt: skip
        assert all(int(e["id"]) > opened["id"] for e in told)  # type: ignore[call-overload]
        _close(again)


@pytest.mark.django_db
def test_since_is_a_position_refused_when_from_the_future_or_after_forgotten_events(
    auth_client, user
):
    # given: three events, the first one forgotten (older than EVENTS_KEPT_DAYS)
    for game in "abc":
        events.event_add(user=user.pk, kind="game_started", data={"game": game})
    first, second, third = (e["id"] for e in events.events_after(user_id=user.pk, after=0))
    AccountEvent.objects.filter(seq=first).update(at=timezone.now() - dt.timedelta(days=8))
    assert events.events_forget(now=timezone.now()) == 1

    # then: a position after which nothing was forgotten, up to the last stamp, is accepted
    # (the opening's id, no event of this account, is one); before it or after the last, not
    assert events.events_position() == third
    assert [events.since_accepted(since) for since in (first - 1, first, second, third)] == [
        False, True, True, True
    ]  # fmt: skip
    assert not events.since_accepted(third + 1)
    for since, status in ((first - 1, 400), (third + 1, 400), (first, 200), ("x", 400)):
        answer = auth_client.get(f"{PATH}?since={since}", headers=NDJSON)
        assert answer.status_code == status, since
    answer = auth_client.get(PATH, headers=NDJSON)
    opened = json.loads(b"".join(answer.streaming_content).split(b"\n")[1])
    assert (opened["type"], opened["id"]) == (events.OPENED, third)
    assert auth_client.get(f"{PATH}?since={opened['id']}", headers=NDJSON).status_code == 200
