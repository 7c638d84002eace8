"""The example world of the schema's request examples (canfield_site/examples.py), built for real
on a live server: what each example's ids and names stand for, made for each example alone. The
tests that send every example use it (tests/clients/test_examples.py with plain HTTP,
test_generated_client.py and test_typescript_client.py through generated clients)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from canfield_client import Client

from canfield_site import examples as ex
from tests import net
from tests.web.helpers import unique_name

METHODS = ("get", "post", "put", "patch", "delete")


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def samples(operation_id: str) -> list[dict[str, Any]]:
    """The operation's examples; one with nothing in it for an operation that takes nothing."""
    return ex.EXAMPLES.get(operation_id, [ex.example("nothing to send")])


class World:
    """The fixtures an example names, made for it alone (examples change what they touch: a
    challenge accepted, a key revoked): `ada` with a key, and only what the example mentions."""

    def __init__(self, base_url: str, sample: dict[str, Any], operation_id: str) -> None:
        self.url = base_url
        text = json.dumps(sample)
        ada, grace = Client(base_url), Client(base_url)
        self.names = {ex.PLAYER: unique_name("ada")}
        self.token = ada.register(self.names[ex.PLAYER], ex.PASSWORD)
        self.ids: dict[Any, Any] = dict(self.names)
        if ex.OTHER in text or ex.CHALLENGE in text:
            self.ids[ex.OTHER] = unique_name("grace")
            grace.register(self.ids[ex.OTHER], ex.PASSWORD)
        if ex.GAME in text:
            self.ids[ex.GAME] = ada.new_game_from_deck(ex.DECK, draw=1).id
        if ex.ENDED in text:
            ended = ada.new_game_from_deck(ex.DECK, draw=1)
            ada.move(ended, "reserve", "foundation")
            self.ids[ex.ENDED] = ada.resign(ended.id).game.id
        if ex.CHALLENGE in text:
            mine = operation_id == "challenges_cancel"
            made = (ada if mine else grace).challenge(
                self.ids[ex.OTHER] if mine else self.names[ex.PLAYER]
            )
            self.ids[ex.CHALLENGE] = made.id
        if ex.MATCH in text:
            self.ids[ex.MATCH] = ada.join_match(size=2, draw=3).id
        if str(ex.EVENT) in text:  # the stream tells from its opening on (its first line)
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/x-ndjson"}
            with net.stream("GET", f"{base_url}/api/v1/account/events", headers=headers) as events:
                lines = events.iter_lines()
                assert next(lines) == ""
                ada.new_game(draw=3)
                ada.new_game(draw=1)
                self.ids[ex.EVENT] = json.loads(next(line for line in lines if line))["id"]
        if ex.KEY in text:
            self.ids[ex.KEY] = ada.create_token("example", ["board:read"]).id
        if operation_id == "auth_register":  # the example's name must be free
            self.ids[ex.PLAYER] = unique_name("new")
        ada.close()
        grace.close()

    def real(self, value: Any) -> Any:
        """`value` with every example id or name in it (whole strings) the world's own."""
        if isinstance(value, dict):
            return {key: self.real(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.real(item) for item in value]
        return value if isinstance(value, bool) else self.ids.get(value, value)
