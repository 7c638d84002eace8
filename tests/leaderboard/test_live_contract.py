"""The live board's messages are those docs/asyncapi.yaml describes (its payload schemas)."""

from pathlib import Path

import jsonschema
import pytest
import yaml
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from canfield_site.asgi import application
from games import services as game_services
from games.days import day_today
from leaderboard import services

ASYNCAPI = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml").read_text(encoding="utf-8")
)


def validate(message: dict, name: str) -> None:
    resolver = jsonschema.validators.RefResolver.from_schema(ASYNCAPI)
    schema = ASYNCAPI["components"]["schemas"][name]
    jsonschema.Draft7Validator(schema, resolver=resolver).validate(message)


@pytest.mark.django_db(transaction=True)
def test_the_snapshot_and_the_entries_are_as_documented(make_user):
    alice = make_user("alice")
    game, _ = services.daily_game_get_or_create(player=alice, draw=3)

    @database_sync_to_async
    def draw():
        game_services.game_act(game=game, user=alice, action={"type": "draw"}, expect=None)

    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/daily/{day_today().isoformat()}/3/")
        assert (await socket.connect())[0]
        snapshot = await socket.receive_json_from(timeout=5)
        await draw()
        # The game's creation may still be in the next batch (its entry as dealt, as in the
        # snapshot): a board tick that came between the snapshot and the draw's commit sent it
        # on its own, and the draw follows in a batch of its own.
        batches = [await socket.receive_json_from(timeout=5)]
        if batches[0]["entries"][0]["moves"] == 0:
            batches.append(await socket.receive_json_from(timeout=5))
        await socket.disconnect()
        return snapshot, batches

    snapshot, batches = async_to_sync(scenario)()

    validate(snapshot, "Snapshot")
    for entries in batches:
        validate(entries, "Entries")
    assert snapshot["count"] == 1 and snapshot["results"][0]["player"] == "alice"
    entries = batches[-1]["entries"]
    assert entries[0]["player"] == "alice" and entries[0]["moves"] == 1
