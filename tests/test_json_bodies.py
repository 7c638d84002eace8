"""The API's JSON bodies (core.parsers): read by orjson to the values DRF's parser (the json
module) gives, DRF's own reading for another charset, and every body that is not JSON a 400 in
the API's words."""

import io
import json

import pytest
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DrfJSONParser

from core.parsers import JSONBodyParser
from games.models import Action, Game
from tests.games.helpers import easy_deck

BODIES = [
    b'{"type": "draw", "expect": 12}',
    b'{"type":"move","from":"tableau:1","to":"foundation","count":1}',
    b' \n\t{"a": [1, -2, 3.5, -0.0, 1e-7, 2E+3, 9223372036854775807, true, false, null]} ',
    b'{"name": "k\\u0151r 10 \\ud83c\\udca1 \\"q\\" \\\\ \\/ \\n"}',
    '{"raw": "kőr 10 🂡 dziesiątka"}'.encode(),
    b'{"a": 1, "a": 2}',
    b'[[[[{"deep": [[[]]]}]]]]',
    b'"text"',
    b"[]",
    b"null",
]

NOT_JSON = [
    b'{"type": "draw"',
    b"{'type': 'draw'}",
    b'{"type": "draw",}',
    b"NaN",
    b'{"a": Infinity}',
    b'{"a": 1e400}',
    b'{"type": "\\ud800"}',
    b'\xef\xbb\xbf{"type": "draw"}',
    b'{"type": "dr\xff\xfeaw"}',
    b'{"type": "draw"}\x00',
    b"",
]


def parse(parser, body: bytes, encoding: str = "utf-8"):
    return parser.parse(io.BytesIO(body), "application/json", {"encoding": encoding})


@pytest.mark.parametrize("body", BODIES)
def test_a_body_reads_as_drfs_parser_reads_it(body):
    assert parse(JSONBodyParser(), body) == parse(DrfJSONParser(), body)
    # (and -0.0 stays a float, 1e-7 a float, the largest 64-bit integer an int)
    assert json.dumps(parse(JSONBodyParser(), body)) == json.dumps(parse(DrfJSONParser(), body))


@pytest.mark.parametrize("body", NOT_JSON)
def test_a_body_that_is_not_json_is_refused_in_the_apis_words(body):
    with pytest.raises(ParseError) as refused:
        parse(JSONBodyParser(), body)

    assert str(refused.value.detail) == "The body is not valid JSON."


@pytest.mark.parametrize("depth", [1_100, 100_000])
def test_a_deeply_nested_body_is_refused_in_words_of_its_own(depth):
    with pytest.raises(ParseError) as refused:
        parse(JSONBodyParser(), b"[" * depth + b"]" * depth)

    assert str(refused.value.detail) == "The body is nested too deeply."


@pytest.fixture
def game(auth_client):
    response = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    return Game.objects.get(pk=response.json()["id"])


def test_a_body_in_another_charset_is_read_in_it(auth_client, game):
    # given: an action in UTF-16, as its Content-Type says
    body = '{"type": "draw", "expect": 0}'.encode("utf-16")

    # when
    answer = auth_client.generic(
        "POST",
        f"/api/v1/games/{game.pk}/actions",
        body,
        content_type="application/json; charset=utf-16",
    )

    # then: it is taken
    assert answer.status_code == 200, answer.content
    assert Action.objects.filter(game=game).count() == 1
