"""The API's JSON answers (core.renderers): DRF's JSON renderer's bytes, written by orjson, and
DRF's own rendering where orjson would write otherwise."""

import datetime
import decimal
import uuid

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer as DrfJSONRenderer

from core.renderers import JSONRenderer
from games.engine import Action, Game

MOMENT = datetime.datetime(2026, 12, 7, 19, 5, 1, 123456, tzinfo=datetime.UTC)


def a_game_answer() -> dict[str, object]:
    """An action's answer as the API gives it: the action and the game's public view."""
    game = Game.deal(7, draw=3, version=2)
    for _ in range(5):
        game.apply(Action.from_dict({"type": "draw"}))
    return {
        "action": {"n": 5, "type": "draw", "from": None, "cards": ["AH"], "at": MOMENT},
        "game": {"id": uuid.UUID(int=7), "seconds": 12.345, **game.public_view()},
    }


def nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


SAME = {
    "an action's answer": a_game_answer(),
    "times": {"at": MOMENT, "day": MOMENT.date(), "noon": datetime.time(12, 0, 0, 500)},
    "whole seconds in UTC": {"at": MOMENT.replace(microsecond=0)},
    "another zone": {"at": MOMENT.astimezone(datetime.timezone(datetime.timedelta(hours=1)))},
    "decimal": {"rate": decimal.Decimal("1.50")},
    "lazy words": {"detail": gettext_lazy("No such game.")},
    "text beyond ASCII": {"name": "Kőrösi Świętopełk ♥ 🂡", "control": '\x00\x1f"\\'},
    "line and paragraph separators": {"note": "a\u2028b\u2029c"},
    "numbers": [0, -1, 2**63 - 1, -(2**63), 1.5, 0.1, 100.0, 1e300, True, None],
    "nested": [[[{"a": [{}]}]], ()],
    "a set": {"tags": {"x"}},
}
# Where orjson cannot: DRF renders these itself (the same bytes again).
REFUSED_BY_ORJSON = {
    "an integer past 64 bits": {"big": 2**64},
    "keys that are not text": {1: "one", None: "none"},
    "nesting past orjson's 254": nested(300),
}


@pytest.mark.parametrize("data", [*SAME.values(), *REFUSED_BY_ORJSON.values()],
                         ids=[*SAME, *REFUSED_BY_ORJSON])  # fmt: skip
def test_an_answer_is_drf_s_bytes(data):
    assert JSONRenderer().render(data) == DrfJSONRenderer().render(data)


def test_an_indented_answer_asked_for_is_drf_s_indented_one():
    data = a_game_answer()
    indented = JSONRenderer().render(data, "application/json; indent=2")
    assert indented == DrfJSONRenderer().render(data, "application/json; indent=2")
    assert indented.startswith(b'{\n  "action": {\n    "n": 5')


@pytest.mark.django_db
def test_the_api_answers_with_it_compact_or_indented_as_asked(auth_client):
    # given a game
    dealt = auth_client.post("/api/v1/games", {"draw": 1}, format="json")
    path = f"/api/v1/games/{dealt.json()['id']}/actions"

    # when the player draws, once plainly and once asking for indented JSON
    compact = auth_client.post(path, {"type": "draw"}, format="json")
    indented = auth_client.post(
        path, {"type": "draw"}, format="json", HTTP_ACCEPT="application/json; indent=4"
    )

    # then the first answer is compact JSON, the second the same shape indented by 4
    assert compact.status_code == indented.status_code == 200
    assert compact.content.startswith(b'{"action":{"n":1,"type":"draw",')
    assert indented.content.startswith(b'{\n    "action": {\n        "n": 2,')
    assert compact.json()["action"]["at"].endswith("Z")
    assert compact.json()["game"].keys() == indented.json()["game"].keys()
