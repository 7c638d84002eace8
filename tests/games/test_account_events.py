"""The account event stream (docs/api.md "Streams and exports", games/events.py) against a real ASGI
server (daphne in a subprocess, tests/web/conftest.py; with REDIS_URL its wake-ups go through
Redis): an account's games as they start and end, seen from another client of the account;
resumed with `since`; closed with its key; and the events no stream is open for."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import httpx
import pytest
from django.utils import timezone

from games import events
from games.days import day_today
from games.models import AccountEvent
from leaderboard.services import day_announce
from tests.games.helpers import StreamLines
from tests.games.test_stream_ends import CLOSED_WITHIN, Player, kinds_after
from tests.leaderboard.test_live_contract import validate

PATH = "/api/v1/account/events"
NDJSON = {"Accept": "application/x-ndjson"}


def _events(lines: StreamLines, count: int) -> list[dict[str, object]]:
    """The first `count` events of the stream (keep-alive lines left out), once they arrived."""
    found: list[dict[str, object]] = []
    seen = 1  # (the opening's empty line)
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
    lines.client = client  # type: ignore[attr-defined]
    return lines


def _close(lines: StreamLines) -> None:
    lines.client.close()  # type: ignore[attr-defined]
    lines.thread.join(10)


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

        # and another account's stream heard none of it
        other = Player(client)
        assert client.get(f"{PATH}?since={ended['id']}", headers=other.streamer).status_code == 400


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
        assert kinds_after(lines, 2, CLOSED_WITHIN) <= {"keep-alive"}
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

    (row,) = AccountEvent.objects.filter(kind="daily_published")
    assert row.user is None and row.data == {"date": day_today().isoformat()}
    for user in (one, two):
        assert events.events_after(user_id=user.pk, after=before[user.pk]) == [
            events.event_payload(row)
        ]

    AccountEvent.objects.filter(pk=row.pk).update(at=timezone.now() - dt.timedelta(days=8))
    assert events.events_forget(now=timezone.now()) == 1
    assert not events.event_known(user_id=one.pk, event_id=row.pk)


def test_every_kind_is_documented_in_both_documents():
    from tests.leaderboard.test_live_contract import ASYNCAPI

    documented = ASYNCAPI["components"]["schemas"]["AccountEvent"]["properties"]["type"]["enum"]
    assert set(documented) == set(events.KINDS)
    api_md = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    assert all(f"| `{kind}` |" in api_md for kind in events.KINDS)


def test_without_an_asgi_server_the_answer_is_the_backlog_then_the_end(auth_client, user):
    # given: two events of the account, the first one's id known
    events.event_add(user=user.pk, kind="game_started", data={"game": "a"})
    events.event_add(user=user.pk, kind="game_ended", data={"game": "a"})
    first = AccountEvent.objects.filter(user=user).order_by("id").first()

    # when: asked through the WSGI test client (nothing can hold a stream open there)
    answer = auth_client.get(f"{PATH}?since={first.pk}", headers=NDJSON)

    # then: the opening's empty line, the event after `since`, and the end
    lines = b"".join(answer.streaming_content).split(b"\n")
    assert answer.status_code == 200
    assert lines[0] == b"" and [json.loads(line)["type"] for line in lines[1:] if line] == [
        "game_ended"
    ]
