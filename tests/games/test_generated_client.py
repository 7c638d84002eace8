"""A client generated from the live schema by openapi-python-client, as a third-party author
would make one, registers, deals a game and wins it against a real server (daphne in a
subprocess, tests/web/conftest.py), sending back the legal actions the server lists."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.helpers import easy_deck
from tests.web.conftest import base_url, server_database, server_env  # noqa: F401 (fixtures)
from tests.web.helpers import PASSWORD, unique_name

CONFIG = "post_hooks: []\nproject_name_override: canfield-generated\n"


@pytest.fixture(scope="module")
def generated(base_url, tmp_path_factory):  # noqa: F811
    """The client package generated from the server's schema, imported."""
    root = tmp_path_factory.mktemp("generated")
    (root / "config.yaml").write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--url", f"{base_url}/api/v1/schema/?format=json",
         "--config", str(root / "config.yaml"), "--output-path", str(root / "out")],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    sys.path.insert(0, str(root / "out"))
    try:
        yield importlib.import_module("canfield_generated")
    finally:
        sys.path.remove(str(root / "out"))


def test_a_generated_client_registers_and_wins_a_game(generated, base_url):  # noqa: F811
    from canfield_generated import AuthenticatedClient, Client
    from canfield_generated.api.v1 import (
        auth_register,
        games_actions_create,
        games_create,
        games_get,
        games_legal_actions,
    )
    from canfield_generated.models import (
        ActionInRequest,
        CredentialsRequest,
        DeckGameRequest,
        DrawEnum,
        EndReasonEnum,
        Error,
        GameOut,
        GameStatusEnum,
    )

    name = unique_name("gen")
    with Client(base_url=base_url) as anonymous:
        registered = auth_register.sync(
            client=anonymous, body=CredentialsRequest(username=name, password=PASSWORD)
        )
    with AuthenticatedClient(base_url=base_url, token=registered.token, prefix="Bearer") as api:
        created = games_create.sync_detailed(
            client=api, body=DeckGameRequest(deck=easy_deck(), draw=DrawEnum.VALUE_1)
        )
        assert created.status_code == 201 and isinstance(created.parsed, GameOut)
        game = created.parsed
        while game.status == GameStatusEnum.PLAYING:
            legal = games_legal_actions.sync(game.id, client=api)
            action = next(
                (a for a in legal if str(a.to).startswith("foundation")),
                next(a for a in legal if str(a.type_) in ("draw", "recycle")),
            )
            body = ActionInRequest.from_dict({**action.to_dict(), "expect": game.moves})
            acted = games_actions_create.sync(game.id, client=api, body=body)
            assert not isinstance(acted, Error), acted
            game = acted.game
            assert game.moves < 200

        refused = games_actions_create.sync_detailed(
            game.id, client=api, body=ActionInRequest.from_dict({"type": "draw"})
        )
        final = games_get.sync(game.id, client=api)

    assert (final.status, final.score) == (GameStatusEnum.WON, 255)
    assert final.end_reason == EndReasonEnum.WON and created.parsed.end_reason is None
    assert refused.status_code == 409 and refused.parsed.error.code.value == "game_over"
