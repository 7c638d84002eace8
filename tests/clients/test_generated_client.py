"""A client generated from the live schema by openapi-python-client, as a third-party author
would make one, registers, deals a game and wins it against a real server (uvicorn in a
subprocess, tests/web/conftest.py), sending back the legal actions the server lists."""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints
from uuid import UUID

import httpx
import pytest

from tests import net
from tests.clients.world import World, operations, samples
from tests.games.helpers import easy_deck
from tests.web.helpers import PASSWORD, unique_name


@pytest.fixture(scope="module")
def generated(base_url, tmp_path_factory):
    """The client package generated from the server's schema with the generator's default
    settings (no config file: NDJSON answers are bytes, their lines typed by components),
    without a warning, imported."""
    root = tmp_path_factory.mktemp("generated")
    generator = Path(sys.executable).with_name("openapi-python-client")
    env = {**os.environ, "PATH": f"{generator.parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        [str(generator), "generate", "--url", f"{base_url}/api/v1/schema/?format=json",
         "--output-path", str(root / "out")],
        check=True, capture_output=True, timeout=120, text=True, env=env,
    )  # fmt: skip
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(root / "out"))
    try:
        yield importlib.import_module("canfield_club_api_client")
    finally:
        sys.path.remove(str(root / "out"))


def register(url: str, prefix: str) -> tuple[str, str]:
    """A new account's name and key, registered with the generated client."""
    from canfield_club_api_client import Client
    from canfield_club_api_client.api.v1 import auth_register
    from canfield_club_api_client.models import CredentialsRequest

    name = unique_name(prefix)
    with Client(base_url=url) as anonymous:
        registered = auth_register.sync(
            client=anonymous, body=CredentialsRequest(username=name, password=PASSWORD)
        )
    return name, registered.token


def test_a_generated_client_plays_a_session_with_no_workaround(generated, base_url):
    """Register, deal a random game with the empty body model, post legal actions back as they
    are listed, read what anonymous callers may read with a plain `Client`, and get typed
    errors and the rate-limit headers: no dict surgery, no casts."""
    from canfield_club_api_client import AuthenticatedClient, Client
    from canfield_club_api_client.api.v1 import (
        daily_today,
        games_actions_create,
        games_create,
        games_get,
        games_legal_actions,
        players_games,
        players_get,
    )
    from canfield_club_api_client.models import (
        ConcretePileEnum,
        DailyGameRequest,
        DeckGameRequest,
        DrawAction,
        DrawEnum,
        DrawTypeEnum,
        EndReasonEnum,
        Error,
        GameOut,
        GameStatusEnum,
        MoveAction,
        MoveError,
        MoveTypeEnum,
        PileEnum,
        RandomGameRequest,
        ResignAction,
        ResignTypeEnum,
    )

    name, token = register(base_url, "gen")
    with AuthenticatedClient(base_url=base_url, token=token, prefix="Bearer") as api:
        # a random game from the empty body model, played a little, then resigned
        random_game = games_create.sync(client=api, body=RandomGameRequest())
        assert isinstance(random_game, GameOut) and random_game.draw == DrawEnum.VALUE_3
        listed = games_legal_actions.sync(random_game.id, client=api)
        assert listed and all(a.to_dict().keys() <= {"type", "from", "to", "count"} for a in listed)
        acted = games_actions_create.sync(random_game.id, client=api, body=listed[0])
        assert not isinstance(acted, (Error, MoveError)), acted
        refused = games_actions_create.sync_detailed(
            random_game.id,
            client=api,
            body=MoveAction(
                type_=MoveTypeEnum.MOVE, from_=ConcretePileEnum.WASTE, to=PileEnum.STOCK
            ),
        )
        assert refused.status_code == 422 and isinstance(refused.parsed, MoveError)
        assert refused.parsed.error.params.reason in ("takes_nothing", "pile_empty")
        assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= {
            header.lower() for header in refused.headers
        }
        games_actions_create.sync(
            random_game.id, client=api, body=ResignAction(type_=ResignTypeEnum.RESIGN)
        )
        # today's daily
        daily = games_create.sync_detailed(client=api, body=DailyGameRequest(daily=True))
        assert (
            daily.status_code == 201
            and daily.parsed.daily.date == daily_today.sync(client=api).date
        )

        # a custom deck won by posting back the legal actions, each with `expect`
        created = games_create.sync_detailed(
            client=api, body=DeckGameRequest(deck=easy_deck(), draw=DrawEnum.VALUE_1)
        )
        assert created.status_code == 201 and isinstance(created.parsed, GameOut)
        game = created.parsed
        while game.status == GameStatusEnum.PLAYING:
            legal = games_legal_actions.sync(game.id, client=api)
            action = next(
                (
                    a
                    for a in legal
                    if isinstance(a, MoveAction) and a.to.value.startswith("foundation")
                ),
                next(a for a in legal if not isinstance(a, MoveAction)),
            )
            action.expect = game.moves
            acted = games_actions_create.sync(game.id, client=api, body=action)
            assert not isinstance(acted, (Error, MoveError)), acted
            game = acted.game
            assert game.moves < 200

        over = games_actions_create.sync_detailed(
            game.id, client=api, body=DrawAction(type_=DrawTypeEnum.DRAW)
        )

    with Client(base_url=base_url) as anonymous:  # what anyone may read, without a key
        final = games_get.sync(game.id, client=anonymous)
        player = players_get.sync(name.upper(), client=anonymous)
        public = players_games.sync(name, client=anonymous)

    assert (final.status, final.score) == (GameStatusEnum.WON, 255)
    assert final.end_reason == EndReasonEnum.WON and created.parsed.end_reason is None
    assert over.status_code == 409 and over.parsed.error.code.value == "game_over"
    # the random game, ended; the daily still runs (counted once over), the custom one is practice
    assert player.username == name and player.games == 1
    assert {g.id for g in public.results} == {random_game.id, game.id}


def test_a_generated_client_exports_and_deletes_its_account(generated, base_url):
    """`DELETE account` takes the password in its body, and the schema says so: the generated
    call sends it (before, drf-spectacular documented no body for a DELETE, so the generated
    call sent none and always got 400). The export answers its NDJSON to the generated call."""
    from canfield_club_api_client import AuthenticatedClient
    from canfield_club_api_client.api.v1 import (
        account_delete,
        account_export,
        games_create,
    )
    from canfield_club_api_client.models import (
        GameOut,
        PasswordRequest,
        RandomGameRequest,
    )
    from canfield_club_api_client.types import File

    name, token = register(base_url, "gone")
    with AuthenticatedClient(base_url=base_url, token=token, prefix="Bearer") as api:
        game = games_create.sync(client=api, body=RandomGameRequest())
        exported = account_export.sync_detailed(client=api)
        wrong = account_delete.sync_detailed(client=api, body=PasswordRequest(password="not it"))
        deleted = account_delete.sync_detailed(client=api, body=PasswordRequest(password=PASSWORD))
        after = account_export.sync_detailed(client=api)

    assert exported.status_code == 200 and isinstance(exported.parsed, File)
    lines = [GameOut.from_dict(json.loads(line)) for line in exported.parsed.payload if line]
    assert [line.id for line in lines] == [game.id] and lines[0].actions == []
    assert wrong.status_code == 400 and wrong.parsed.error.code.value == "invalid_request"
    assert deleted.status_code == 204
    assert after.status_code == 401


def test_a_generated_client_reads_a_stream_and_filtered_lists_typed(generated, base_url):
    """A finished game's stream comes whole to the generated call (bytes, the 200 kept), each
    line typed by the schema's StreamLine components; the lists take their filters and a batch
    of ids as typed arguments."""
    from canfield_club_api_client import AuthenticatedClient
    from canfield_club_api_client.api.v1 import (
        games_actions_create,
        games_create,
        games_list,
        games_stream,
        players_games,
    )
    from canfield_club_api_client.models import (
        Error,
        GamesListDraw,
        RandomGameRequest,
        ResignAction,
        ResignTypeEnum,
        StreamEndLine,
        StreamGameLine,
    )
    from canfield_club_api_client.types import File

    name, token = register(base_url, "lines")
    with AuthenticatedClient(base_url=base_url, token=token, prefix="Bearer") as api:
        ended = games_create.sync(client=api, body=RandomGameRequest())
        games_actions_create.sync(
            ended.id, client=api, body=ResignAction(type_=ResignTypeEnum.RESIGN)
        )
        playing = games_create.sync(client=api, body=RandomGameRequest())
        streamed = games_stream.sync(ended.id, client=api)
        draw_three = games_list.sync(client=api, draw=GamesListDraw.VALUE_3)
        batch = games_list.sync(client=api, ids=[playing.id, ended.id])
        public = players_games.sync(name, client=api, max_=1)

    assert isinstance(streamed, File)
    first, last = (json.loads(line) for line in streamed.payload if line.strip())
    assert StreamGameLine.from_dict(first).game.id == ended.id
    assert StreamEndLine.from_dict(last).game.status.value == "resigned"
    assert not isinstance(draw_three, Error), draw_three
    assert {game.id for game in draw_three.results} == {ended.id, playing.id}
    assert [game.id for game in batch.results] == [playing.id, ended.id]
    assert [game.id for game in public.results] == [ended.id]


@contextmanager
def account_events(api: Any, since: int | None = None) -> Iterator[Iterator[Any]]:
    """The account event stream read as docs/api-guide.md shows a generated client reading it:
    opened on the generated client's own httpx client (`get_httpx_client()`), streamed (open
    once its headers came: what happens from then on is told), its first line the opening one
    (`stream_opened`, checked and left out), each non-empty line into the
    generated `AccountEvent` (the generated `account_events` call reads the whole body, and the
    body never ends)."""
    from canfield_club_api_client.models import AccountEvent

    params = {} if since is None else {"since": since}
    with api.get_httpx_client().stream(
        "GET", "/api/v1/account/events", params=params,
        headers={"Accept": "application/x-ndjson"}, timeout=httpx.Timeout(10.0, read=30.0),
    ) as answer:  # fmt: skip
        answer.raise_for_status()
        lines = answer.iter_lines()
        events = (AccountEvent.from_dict(json.loads(line)) for line in lines if line.strip())
        # the first line says where the stream starts (its id resumes from the opening)
        opened = next(events)
        assert opened.type_.value == "stream_opened" and opened.data == {}
        assert since is None or opened.id == since
        yield events


def test_a_generated_client_reads_the_endless_account_events_as_documented(generated, base_url):
    """The generated call cannot return the endless stream (it waits for the body's end: here,
    past its read timeout, it raises); the documented way reads its events, typed, and resumes
    after `since`."""
    from canfield_club_api_client import AuthenticatedClient
    from canfield_club_api_client.api.v1 import account_events as generated_call
    from canfield_club_api_client.api.v1 import games_actions_create, games_create
    from canfield_club_api_client.models import RandomGameRequest, ResignAction, ResignTypeEnum

    _, token = register(base_url, "events")
    with AuthenticatedClient(base_url=base_url, token=token, prefix="Bearer") as api:
        # the generated call: no answer while the stream is open (a keep-alive every 10 s)
        impatient = api.with_timeout(httpx.Timeout(10.0, read=1.0))
        with pytest.raises(httpx.ReadTimeout):
            generated_call.sync_detailed(client=impatient)

        # the documented way: a game dealt and resigned once the stream is open
        with account_events(api) as events:
            game = games_create.sync(client=api, body=RandomGameRequest())
            games_actions_create.sync(
                game.id, client=api, body=ResignAction(type_=ResignTypeEnum.RESIGN)
            )
            started, ended = next(events), next(events)
        with account_events(api, since=started.id) as events:
            resumed = next(events)

    assert (started.type_.value, started.data["game"]) == ("game_started", str(game.id))
    assert (ended.type_.value, ended.data["game"]) == ("game_ended", str(game.id))
    assert resumed.to_dict() == ended.to_dict()


def typed(annotation: Any, value: Any) -> Any:
    """An example's JSON `value` as the generated signature's `annotation` takes it: the body
    model whose `to_dict()` gives the example back, an enum member, a date, a UUID..."""
    from canfield_club_api_client.types import Unset

    options = [o for o in get_args(annotation) or (annotation,) if o not in (type(None), Unset)]
    for option in options:
        if get_origin(option) is list:
            return [typed(get_args(option)[0], item) for item in value]
        if isinstance(option, type) and issubclass(option, Enum):
            return option(value)
        if option in (dt.date, dt.datetime):
            return option.fromisoformat(value)
        if option is UUID:
            return UUID(value)
        if hasattr(option, "from_dict"):
            try:
                model = option.from_dict(value)
            except (KeyError, TypeError, ValueError):
                continue
            if not getattr(model, "additional_properties", None) and model.to_dict() == value:
                return model
            continue
        return value
    raise AssertionError(f"{value!r} fits none of {annotation}")


def test_a_generated_client_calls_every_operation_with_its_examples(
    generated, base_url, played_day
):
    """Every example of the schema (canfield_site/examples.py), sent through the generated
    client's own call for its operation with typed arguments (models, enums, dates built by the
    signature), is answered with a 2xx the client parses into its documented model; the
    operations called are the schema's. The account event stream never ends: it is read as
    docs/api-guide.md shows (`account_events` here) to its first event."""
    # given
    from canfield_club_api_client import AuthenticatedClient
    from canfield_club_api_client.models import Error, MoveError

    schema = net.get(f"{base_url}/api/v1/schema/?format=json", timeout=30).json()
    wrong, called = {}, set()

    # when
    for _, _, operation in operations(schema):
        operation_id = operation["operationId"]
        module = importlib.import_module(f"canfield_club_api_client.api.v1.{operation_id}")
        hints = get_type_hints(module.sync_detailed)
        for sample in samples(operation_id):
            world = World(base_url, sample, operation_id)
            real = world.real(sample)
            given = {**real["path"], **real["query"]}
            if real["body"] is not None:
                given["body"] = real["body"]
            arguments = {
                name: typed(hints[name], given[name.rstrip("_")])
                for name in inspect.signature(module.sync_detailed).parameters
                if name.rstrip("_") in given
            }
            assert len(arguments) == len(given), (operation_id, given, arguments)
            with AuthenticatedClient(base_url=base_url, token=world.token, prefix="Bearer") as api:
                if operation_id == "account_events":  # endless: read as documented
                    with account_events(api, **arguments) as events:
                        status, parsed = 200, next(events)
                else:
                    answer = module.sync_detailed(client=api, **arguments)
                    status, parsed = answer.status_code, answer.parsed
            called.add(operation_id)
            if (
                not 200 <= status < 300
                or isinstance(parsed, (Error, MoveError))
                or (parsed is None) != (status == 204)
            ):
                wrong[(operation_id, sample["summary"])] = (status, parsed)

    # then
    assert wrong == {}
    assert called == {operation["operationId"] for _, _, operation in operations(schema)}
